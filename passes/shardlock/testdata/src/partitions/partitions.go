// Package partitions holds a topic consumer's partition consumers: a slice
// the consumer only ever replaces with a new one, each partition locked
// through its own methods.
package partitions

import "sync"

type partition struct {
	mu     sync.Mutex
	offset int64
	closed bool
}

func (p *partition) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

func (p *partition) seek(offset int64) {
	p.mu.Lock()
	p.offset = offset
	p.mu.Unlock()
}

// Consumer reads every partition of a topic.
type Consumer struct {
	mu         sync.Mutex
	partitions []*partition // want partitions:"shardlock\\(fixed partition\\)"
}

func NewConsumer(n int) *Consumer {
	c := &Consumer{partitions: make([]*partition, n)}
	for i := range c.partitions {
		c.partitions[i] = &partition{}
	}
	return c
}

// Resize replaces the partitions with a new set under the consumer's lock
// and closes the old ones, each through its own method: the lock is the
// collection's own guard, rebuilding it. Not a finding.
func (c *Consumer) Resize(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.partitions
	c.partitions = make([]*partition, n)
	for i := range c.partitions {
		c.partitions[i] = &partition{}
	}
	for i := range old {
		old[i].close()
	}
}

// SeekHeld is its twin that keeps the partitions: it seeks each of them
// through the same kind of method with the consumer's lock held.
func (c *Consumer) SeekHeld(offset int64) {
	c.mu.Lock() // want `c.mu is held above the shard lock c.partitions\[i\].mu \(taken at partitions.go:\d+, in a loop over every shard\): one lock serialises the shards again`
	defer c.mu.Unlock()
	for i := range c.partitions {
		c.partitions[i].seek(offset)
	}
}
