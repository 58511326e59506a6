package chancycle

import (
	"sync"
	"time"
)

// agentDB truncates its write-ahead log from a background loop, under a
// read lock of the lock its appenders write under.
type agentDB struct {
	mtx    sync.RWMutex
	series map[uint64]string
	stopc  chan struct{}
	donec  chan struct{}
}

func openAgentDB() *agentDB {
	db := &agentDB{series: map[uint64]string{}, stopc: make(chan struct{}), donec: make(chan struct{})}
	go db.run()
	return db
}

func (db *agentDB) run() {
	defer close(db.donec)
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-db.stopc:
			return
		case <-tick.C:
			db.truncate()
		}
	}
}

func (db *agentDB) truncate() {
	db.mtx.RLock()
	defer db.mtx.RUnlock()
	for ref := range db.series {
		_ = ref
	}
}

// CloseHeld waits for the loop with the write lock held: a loop that has
// just chosen the tick waits for the read lock before it can close donec,
// and Close waits for donec.
func (db *agentDB) CloseHeld() {
	db.mtx.Lock()
	defer db.mtx.Unlock()
	close(db.stopc)
	<-db.donec // want `db.mtx held across channel receive, whose closer \(shutdown.go:24\) takes db.mtx first \(locked at shutdown.go:49, released by defer\)`
	db.series = nil
}

// Close stops the loop and waits for it before it takes the lock.
func (db *agentDB) Close() {
	close(db.stopc)
	<-db.donec
	db.mtx.Lock()
	db.series = nil
	db.mtx.Unlock()
}
