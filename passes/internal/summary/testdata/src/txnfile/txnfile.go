// Package txnfile hands out transactions whose kind is fixed when they
// are made: facts say which fields of the objects a function returns it
// keeps zero, for callers in other packages.
package txnfile

import (
	"os"
	"sync"
)

// DB is a store file.
type DB struct {
	mu   sync.Mutex
	file *os.File
}

// Txn is a read-only or an update transaction. Only NewTxn sets update;
// Discard sets done on the transaction it is handed.
type Txn struct {
	db     *DB
	update bool
	done   bool
	Tag    bool
}

// NewTxn keeps update zero unless it is asked for an update transaction.
func (db *DB) NewTxn(update bool) *Txn { // want NewTxn:`lockfacts\(returns a new object; result 0 keeps update zero unless p1==true\)`
	if update {
		return &Txn{db: db, update: true}
	}
	return &Txn{db: db}
}

// View always makes a read-only transaction, through NewTxn.
func (db *DB) View() (*Txn, error) { // want View:`lockfacts\(result 0 keeps update zero\)`
	return db.NewTxn(false), nil
}

// Discard syncs an update transaction's file.
func (t *Txn) Discard() { // want Discard:`lockfacts\(blocks: txnfile.\(\*Txn\).Discard -> os.\(\*File\).Sync if p0.done==false if p0.update==true if p0.Tag==false\)`
	if t.done || t.Tag {
		return
	}
	t.done = true
	if t.update {
		t.db.file.Sync()
	}
}

// Reopen returns a new transaction: done is not listed (Discard writes it
// on the transaction it is handed), nor Tag (other packages can set it).
func (db *DB) Reopen(t *Txn) *Txn { // want Reopen:`lockfacts\(blocks: .* if p1.update==true if p1.Tag==false; returns a new object; result 0 keeps update zero\)`
	t.Discard()
	return &Txn{db: db}
}
