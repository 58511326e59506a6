package leaks

import "sync"

// A block executor commits a block with the mempool locked, then updates
// the mempool in the background: the update goroutine releases the lock
// when it is done, so Commit returns with it held on purpose.

type mempool struct {
	mu  sync.Mutex
	txs [][]byte
}

func (m *mempool) Lock()   { m.mu.Lock() }
func (m *mempool) Unlock() { m.mu.Unlock() }

type executor struct {
	pool   *mempool
	height int64
}

func (e *executor) update(unlock func(), height int64) {
	defer unlock()
	e.pool.txs = e.pool.txs[:0]
	e.height = height
}

// Commit hands the mempool's lock to the update goroutine.
func (e *executor) Commit(height int64) {
	e.pool.Lock()
	unlock := func() { e.pool.Unlock() }
	if e.height >= height {
		unlock()
		return
	}
	go e.update(unlock, height)
}

// CommitInline's goroutine only records the height, so nothing unlocks
// the mempool after a commit.
func (e *executor) CommitInline(height int64) {
	e.pool.Lock()
	if e.height >= height {
		e.pool.Unlock()
		return
	}
	go e.notify(height)
} // want `return with e.pool.mu held, but other paths of CommitInline release it \(locked at goroutine.go:42\): the next Lock of it waits forever`

func (e *executor) notify(height int64) { e.height = height }

// Recheck hands the lock to a func literal it starts.
func (e *executor) Recheck(height int64) {
	e.pool.Lock()
	if e.height >= height {
		e.pool.Unlock()
		return
	}
	go func() {
		defer e.pool.Unlock()
		e.pool.txs = e.pool.txs[:0]
	}()
}
