// Package kvfile is a single-file B+tree store in bbolt's shape: read
// transactions share the file, one writer commits at a time, and a
// writable transaction that rolls back rescans the free pages.
package kvfile

import (
	"errors"
	"os"
	"sync"
)

// DB is an open store file.
type DB struct {
	file     *os.File
	rwlock   sync.Mutex // one writable transaction at a time
	metalock sync.Mutex // guards txs
	txs      []*Tx
	free     []uint64
	opened   bool
	noSync   bool
}

// Tx is a read-only or a writable transaction.
type Tx struct {
	db       *DB
	writable bool
	managed  bool
	pages    map[uint64][]byte
	meta     uint64
}

var errClosed = errors.New("kvfile: database not open")

// Begin starts a transaction. Read-only transactions never write the file.
func (db *DB) Begin(writable bool) (*Tx, error) {
	if writable {
		return db.beginRWTx()
	}
	return db.beginTx()
}

func (db *DB) beginTx() (*Tx, error) {
	db.metalock.Lock()
	defer db.metalock.Unlock()
	if !db.opened {
		return nil, errClosed
	}
	t := &Tx{}
	t.init(db)
	db.txs = append(db.txs, t)
	return t, nil
}

func (db *DB) beginRWTx() (*Tx, error) {
	db.rwlock.Lock()
	if !db.opened {
		db.rwlock.Unlock()
		return nil, errClosed
	}
	t := &Tx{writable: true}
	t.init(db)
	return t, nil
}

// init reads writable; only the constructors set it.
func (tx *Tx) init(db *DB) {
	tx.db = db
	if tx.writable {
		tx.pages = map[uint64][]byte{}
		tx.meta++
	}
}

// rollback reloads the free list of a writable transaction from disk.
func (tx *Tx) rollback() {
	if tx.db == nil {
		return
	}
	if tx.writable {
		tx.db.free = tx.db.freepages()
	}
	tx.close()
}

// freepages rereads the whole file to find the free pages.
func (db *DB) freepages() []uint64 {
	buf := make([]byte, 4096)
	var free []uint64
	for off := int64(0); ; off += int64(len(buf)) {
		if _, err := db.file.ReadAt(buf, off); err != nil {
			return free
		}
		if buf[0] == 0 {
			free = append(free, uint64(off))
		}
	}
}

func (tx *Tx) close() {
	if tx.writable {
		tx.db.rwlock.Unlock()
	} else {
		tx.db.removeTx(tx)
	}
	tx.db = nil
	tx.pages = nil
}

func (db *DB) removeTx(tx *Tx) {
	db.metalock.Lock()
	defer db.metalock.Unlock()
	for i, t := range db.txs {
		if t == tx {
			db.txs = append(db.txs[:i], db.txs[i+1:]...)
			break
		}
	}
}

// Rollback ends a transaction without committing it.
func (tx *Tx) Rollback() error {
	if tx.db == nil {
		return errClosed
	}
	tx.rollback()
	return nil
}

// Commit writes a writable transaction's pages and syncs the file.
func (tx *Tx) Commit() error {
	if tx.db == nil || !tx.writable {
		return errClosed
	}
	for id, p := range tx.pages {
		if _, err := tx.db.file.WriteAt(p, int64(id)*4096); err != nil {
			tx.rollback()
			return err
		}
	}
	if !tx.db.noSync {
		if err := tx.db.file.Sync(); err != nil {
			tx.rollback()
			return err
		}
	}
	tx.close()
	return nil
}

// Get reads a key of the transaction's snapshot.
func (tx *Tx) Get(key uint64) []byte { return tx.pages[key] }

// Put writes a key.
func (tx *Tx) Put(key uint64, v []byte) { tx.pages[key] = v }

// View runs fn in a read-only transaction and rolls it back.
func (db *DB) View(fn func(*Tx) error) error {
	t, err := db.Begin(false)
	if err != nil {
		return err
	}
	defer func() {
		if t.db != nil {
			t.rollback()
		}
	}()
	t.managed = true
	err = fn(t)
	t.managed = false
	if err != nil {
		_ = t.Rollback()
		return err
	}
	return t.Rollback()
}

// Update runs fn in a writable transaction and commits it.
func (db *DB) Update(fn func(*Tx) error) error {
	t, err := db.Begin(true)
	if err != nil {
		return err
	}
	defer func() {
		if t.db != nil {
			t.rollback()
		}
	}()
	t.managed = true
	err = fn(t)
	t.managed = false
	if err != nil {
		_ = t.Rollback()
		return err
	}
	return t.Commit()
}
