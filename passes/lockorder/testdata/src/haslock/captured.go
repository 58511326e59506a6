package haslock // want package:"3 lock-order edges"

import "sync"

// msgSet is a stream's message set; its lock comes before its consumers'.
type msgSet struct {
	mu        sync.Mutex
	consumers []*pullConsumer
	acked     map[uint64]bool
}

func (m *msgSet) ackMsg(seq uint64) {
	m.mu.Lock()
	m.acked[seq] = true
	m.mu.Unlock()
}

// signalConsumers takes the set's lock, then each consumer's.
func (m *msgSet) signalConsumers() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.consumers {
		c.mu.Lock()
		c.signalled = true
		c.mu.Unlock()
	}
}

// pullConsumer acks messages in place on its set only when the caller
// does not hold the consumer's lock.
type pullConsumer struct {
	mu        sync.Mutex
	set       *msgSet
	replicas  int
	pending   map[uint64]bool
	signalled bool
}

// processAck decides ackInPlace once; a closure reads it. With needLock
// false the set is never locked.
func (c *pullConsumer) processAck(seq uint64, needLock bool) {
	lock := func() {
		if needLock {
			c.mu.Lock()
		}
	}
	unlock := func() {
		if needLock {
			c.mu.Unlock()
		}
	}
	lock()
	ackInPlace := c.replicas == 1 && needLock
	remove := func(s uint64) {
		if ackInPlace {
			delete(c.pending, s)
		}
	}
	remove(seq)
	set := c.set
	unlock()
	if ackInPlace {
		set.ackMsg(seq)
	}
}

// nextLocked terminates a message while holding the consumer's lock: it
// asks processAck not to lock, which also keeps it off the set's lock. Not
// a finding.
func (c *pullConsumer) nextLocked(seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.processAck(seq, false)
}

// legacyConsumer acks in place whatever the caller holds.
type legacyConsumer struct {
	mu       sync.Mutex
	set      *legacySet
	replicas int
	pending  map[uint64]bool
}

type legacySet struct {
	mu        sync.Mutex
	consumers []*legacyConsumer
	acked     map[uint64]bool
}

func (m *legacySet) ackMsg(seq uint64) {
	m.mu.Lock()
	m.acked[seq] = true
	m.mu.Unlock()
}

func (m *legacySet) signalConsumers() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.consumers {
		c.mu.Lock() // want `m.consumers\[i\].mu locked while holding m.mu \(locked at captured.go:97\); the opposite order is taken at captured.go:124: lock-order inversion`
		c.pending = nil
		c.mu.Unlock()
	}
}

func (c *legacyConsumer) processAck(seq uint64) {
	ackInPlace := c.replicas == 1
	remove := func(s uint64) {
		if ackInPlace {
			delete(c.pending, s)
		}
	}
	remove(seq)
	if ackInPlace {
		c.set.ackMsg(seq)
	}
}

// nextLocked acks under the consumer's lock: the set's lock follows the
// consumer's here and precedes it in signalConsumers.
func (c *legacyConsumer) nextLocked(seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.processAck(seq) // want `c.set.mu locked through call of \(\*legacyConsumer\).processAck while holding c.mu \(locked at captured.go:122\); the opposite order is taken at captured.go:100: lock-order inversion`
}
