package precision

import (
	"log"
	"os"
	"sync"
	"time"
)

// A folder database that cannot go on once its metadata is inconsistent:
// its fatal-error helper writes a repair marker and panics. What blocks on
// the way to that crash holds nobody up for long, and no maintainer changes
// the lock's scope for it. Each positive is next to its silent twin.

type folderDB struct {
	mu      sync.Mutex
	dir     string
	entries map[string]int64
}

// fatalDBError marks the database for repair and panics.
func fatalDBError(db *folderDB, err error) {
	db.markRepair()
	panic(err)
}

// warnDBError marks the database for repair and goes on.
func warnDBError(db *folderDB, err error) {
	db.markRepair()
	log.Printf("folder db: %v", err)
}

func (db *folderDB) markRepair() {
	if f, err := os.Create(db.dir + "/needs-repair"); err == nil {
		f.Close()
	}
}

// exitDBError flushes what it can and exits through log.Fatalf, whose
// os.Exit the facts of package log show.
func exitDBError(db *folderDB, err error) {
	db.markRepair()
	log.Fatalf("folder db: %v", err)
}

// Update panics through fatalDBError on an inconsistency. Not a finding.
func (db *folderDB) Update(name string, size int64, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		fatalDBError(db, err)
	}
	db.entries[name] = size
}

// UpdateOrExit exits through log.Fatalf. Not a finding.
func (db *folderDB) UpdateOrExit(name string, size int64, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		exitDBError(db, err)
	}
	db.entries[name] = size
}

// UpdateInline writes the marker itself before it panics. Not a finding.
func (db *folderDB) UpdateInline(name string, size int64, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		db.markRepair()
		panic(err)
	}
	db.entries[name] = size
}

// UpdateAndGoOn survives the error, and every other update waits behind
// the marker's file creation.
func (db *folderDB) UpdateAndGoOn(name string, size int64, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		warnDBError(db, err) // want `db.mu held across call of warnDBError, which blocks: warnDBError -> \(\*folderDB\).markRepair -> os.Create \(locked at dying.go:\d+, released by defer\)`
	}
	db.entries[name] = size
}

// UpdateInlineAndGoOn writes the marker and returns the error.
func (db *folderDB) UpdateInlineAndGoOn(name string, size int64, err error) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		db.markRepair() // want `db.mu held across call of \(\*folderDB\).markRepair, which blocks: \(\*folderDB\).markRepair -> os.Create \(locked at dying.go:\d+, released by defer\)`
		return err
	}
	db.entries[name] = size
	return nil
}

// fatalOrRetry panics only when asked to: it returns on the other path,
// so it is not a function that dies.
func fatalOrRetry(db *folderDB, err error, fatal bool) {
	db.markRepair()
	if fatal {
		panic(err)
	}
}

// UpdateMaybeFatal survives when fatal is false.
func (db *folderDB) UpdateMaybeFatal(name string, size int64, err error, fatal bool) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		fatalOrRetry(db, err, fatal) // want `db.mu held across call of fatalOrRetry, which blocks: fatalOrRetry -> \(\*folderDB\).markRepair -> os.Create \(locked at dying.go:\d+, released by defer\)`
	}
	db.entries[name] = size
}

// recoverDBError panics and recovers: it returns to its caller, which
// goes on holding the lock.
func recoverDBError(db *folderDB, err error) {
	defer func() { _ = recover() }()
	db.markRepair()
	panic(err)
}

// UpdateRecovered goes on after the recovered panic.
func (db *folderDB) UpdateRecovered(name string, size int64, err error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err != nil {
		recoverDBError(db, err) // want `db.mu held across call of recoverDBError, which blocks: recoverDBError -> \(\*folderDB\).markRepair -> os.Create \(locked at dying.go:\d+, released by defer\)`
	}
	db.entries[name] = size
}

// retryForever loops with no way out but a panic inside the loop: a loop
// is not a path to a crash, its sleeps block every round.
func (db *folderDB) retryForever(name string) {
	db.mu.Lock()
	defer db.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if _, err := os.Stat(db.dir + "/" + name); err == nil {
			return
		}
		if attempt > 10 {
			panic("folder db: " + name + " never appeared")
		}
		time.Sleep(time.Second) // want `db.mu held across call of time.Sleep \(locked at dying.go:\d+, released by defer\)`
	}
}
