// Package ledger keeps verified heights in a kvfile store behind a
// read-write lock, as a node's database of verified results does.
package ledger

import (
	"sync"

	"kvfile"
)

// Ledger serialises its writers; readers share the lock.
type Ledger struct {
	mu sync.RWMutex
	db *kvfile.DB
}

// Get reads in a read-only transaction: it never writes or rescans the
// file, and the writers it excludes are the ones that would. Not a finding.
func (l *Ledger) Get(height uint64) (v []byte, err error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	err = l.db.View(func(tx *kvfile.Tx) error {
		v = tx.Get(height)
		return nil
	})
	return v, err
}

// Set commits and syncs the file under the write lock: every reader waits
// for the disk.
func (l *Ledger) Set(height uint64, v []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.db.Update(func(tx *kvfile.Tx) error { // want `l.mu held across call of kvfile.\(\*DB\).Update, which blocks: kvfile.\(\*DB\).Update -> kvfile.\(\*Tx\).Commit -> os.\(\*File\).WriteAt`
		tx.Put(height, v)
		return nil
	})
}

// Heights reads a range in a read-only transaction it begins itself: its
// rollback only closes the snapshot. Not a finding.
func (l *Ledger) Heights(from, to uint64) ([][]byte, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	tx, err := l.db.Begin(false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var out [][]byte
	for h := from; h < to; h++ {
		out = append(out, tx.Get(h))
	}
	return out, nil
}

// Truncate begins a writable transaction: its rollback, on every return,
// rescans the file's free pages under the write lock.
func (l *Ledger) Truncate(from, to uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	tx, err := l.db.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback() // want `l.mu held across deferred call of kvfile.\(\*Tx\).Rollback, which blocks: kvfile.\(\*Tx\).Rollback -> kvfile.\(\*Tx\).rollback -> kvfile.\(\*DB\).freepages -> os.\(\*File\).ReadAt`
	for h := from; h < to; h++ {
		tx.Put(h, nil)
	}
	return nil
}

// adopt copies a whole transaction over another.
func adopt(dst, src *kvfile.Tx) { *dst = *src }

// Rebase turns its read-only transaction into a copy of a writable one
// before it rolls back: the rollback rescans the free pages.
func (l *Ledger) Rebase(h uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	tx, err := l.db.Begin(false)
	if err != nil {
		return err
	}
	rw, err := l.db.Begin(true)
	if err != nil {
		return err
	}
	adopt(tx, rw)
	return tx.Rollback() // want `l.mu held across call of kvfile.\(\*Tx\).Rollback, which blocks`
}

// Fill may swap its transaction for a writable one in a closure, which
// the deferred rollback then sees.
func (l *Ledger) Fill(heights []uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	tx, err := l.db.Begin(false)
	if err != nil {
		return err
	}
	defer func() { tx.Rollback() }() // want `l.mu held across deferred call of \(\*Ledger\).Fill.func1, which blocks`
	upgrade := func() error {
		tx, err = l.db.Begin(true)
		return err
	}
	for _, h := range heights {
		if tx.Get(h) == nil {
			return upgrade()
		}
	}
	return nil
}

// reopen replaces the caller's transaction with a writable one.
func (l *Ledger) reopen(tx **kvfile.Tx) {
	if rw, err := l.db.Begin(true); err == nil {
		*tx = rw
	}
}

// Repair may reopen its transaction as writable through its address.
func (l *Ledger) Repair(h uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	tx, err := l.db.Begin(false)
	if err != nil {
		return err
	}
	if tx.Get(h) == nil {
		l.reopen(&tx)
	}
	return tx.Rollback() // want `l.mu held across call of kvfile.\(\*Tx\).Rollback, which blocks`
}
