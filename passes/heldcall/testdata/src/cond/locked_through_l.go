package cond

import "sync"

// A batch queue whose Cond is built empty and given the queue's mutex as
// its L afterwards; the queue locks through the Cond's L.

type writeBatch struct{ msgs []string }

type batchQueue struct {
	queue  []*writeBatch
	mutex  *sync.Mutex
	cond   *sync.Cond
	closed bool
}

func newBatchQueue(size int) *batchQueue {
	bq := &batchQueue{queue: make([]*writeBatch, 0, size), mutex: &sync.Mutex{}, cond: &sync.Cond{}}
	bq.cond.L = bq.mutex
	return bq
}

func (b *batchQueue) Put(batch *writeBatch) bool {
	b.cond.L.Lock()
	defer b.cond.L.Unlock()
	defer b.cond.Broadcast()
	if b.closed {
		return false
	}
	b.queue = append(b.queue, batch)
	return true
}

// Get waits for a batch: Wait releases the L it was locked through. Not a
// finding.
func (b *batchQueue) Get() *writeBatch {
	b.cond.L.Lock()
	defer b.cond.L.Unlock()
	for len(b.queue) == 0 && !b.closed {
		b.cond.Wait()
	}
	if len(b.queue) == 0 {
		return nil
	}
	batch := b.queue[0]
	b.queue = b.queue[1:]
	return batch
}

type partitionWriter struct {
	mu      sync.Mutex
	batches *batchQueue
	sent    int
}

// Next waits for a batch while holding the writer's own lock, which Wait
// does not release.
func (w *partitionWriter) Next() *writeBatch {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent++
	return w.batches.Get() // want `w.mu held across call of \(\*batchQueue\).Get, which blocks: \(\*batchQueue\).Get -> \(\*sync.Cond\).Wait \(locked at locked_through_l.go:\d+, released by defer\)`
}
