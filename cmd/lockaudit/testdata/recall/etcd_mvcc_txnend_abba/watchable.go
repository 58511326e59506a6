// Package etcd_mvcc_txnend_abba is a reconstruction of the lock shape of
// etcd v3.0's mvcc store (from memory; no specific upstream issue is
// claimed): a write transaction's TxnBegin returns holding the store's
// mutex and TxnEnd releases it, and the watchable store's TxnEnd takes the
// watchable store's mutex to notify the watchers before the store's mutex
// is released. syncWatchers, run by the sync loop, holds the watchable
// store's mutex and reads the current revision through Rev, which takes the
// store's mutex: a Put racing a sync deadlocks (store -> watchable on one
// side, watchable -> store on the other).
package etcd_mvcc_txnend_abba

import "sync"

type store struct {
	mu         sync.Mutex // held from TxnBegin to TxnEnd
	currentRev int64
	kvs        map[string]string
	changes    []string
}

func newStore() *store { return &store{kvs: map[string]string{}} }

// TxnBegin starts a write transaction; it returns with s.mu held.
func (s *store) TxnBegin() { s.mu.Lock() }

// TxnPut writes inside the transaction.
func (s *store) TxnPut(key, val string) int64 {
	s.currentRev++
	s.kvs[key] = val
	s.changes = append(s.changes, key)
	return s.currentRev
}

// TxnEnd ends the transaction and releases s.mu.
func (s *store) TxnEnd() { s.changes = nil; s.mu.Unlock() }

// Rev returns the current revision.
func (s *store) Rev() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.currentRev
}

type watcher struct {
	key    string
	minRev int64
	ch     chan int64
}

// watchableStore notifies watchers of changes. Buggy version.
type watchableStore struct {
	mu       sync.Mutex
	s        *store
	synced   map[*watcher]struct{}
	unsynced map[*watcher]struct{}
}

func newWatchableStore() *watchableStore {
	return &watchableStore{s: newStore(), synced: map[*watcher]struct{}{}, unsynced: map[*watcher]struct{}{}}
}

// Put writes key in its own transaction.
func (ws *watchableStore) Put(key, val string) int64 {
	ws.s.TxnBegin()
	rev := ws.s.TxnPut(key, val)
	ws.mu.Lock() // store.mu -> watchableStore.mu
	for w := range ws.synced {
		if w.key == key {
			select {
			case w.ch <- rev:
			default:
				delete(ws.synced, w)
				ws.unsynced[w] = struct{}{}
			}
		}
	}
	ws.mu.Unlock()
	ws.s.TxnEnd()
	return rev
}

// syncWatchers moves caught-up watchers back to the synced set.
func (ws *watchableStore) syncWatchers() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	curRev := ws.s.Rev() // BUG: watchableStore.mu -> store.mu
	for w := range ws.unsynced {
		if w.minRev <= curRev {
			w.minRev = curRev + 1
			delete(ws.unsynced, w)
			ws.synced[w] = struct{}{}
		}
	}
}

// watchableStoreFixed is the fixed version: the revision is read before
// the watchable store's mutex is taken.
type watchableStoreFixed struct {
	mu       sync.Mutex
	s        *store
	synced   map[*watcher]struct{}
	unsynced map[*watcher]struct{}
}

func newWatchableStoreFixed() *watchableStoreFixed {
	return &watchableStoreFixed{s: newStore(), synced: map[*watcher]struct{}{}, unsynced: map[*watcher]struct{}{}}
}

// Put writes key in its own transaction.
func (ws *watchableStoreFixed) Put(key, val string) int64 {
	ws.s.TxnBegin()
	rev := ws.s.TxnPut(key, val)
	ws.mu.Lock()
	for w := range ws.synced {
		if w.key == key {
			select {
			case w.ch <- rev:
			default:
				delete(ws.synced, w)
				ws.unsynced[w] = struct{}{}
			}
		}
	}
	ws.mu.Unlock()
	ws.s.TxnEnd()
	return rev
}

// syncWatchers moves caught-up watchers back to the synced set.
func (ws *watchableStoreFixed) syncWatchers() {
	curRev := ws.s.Rev()
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for w := range ws.unsynced {
		if w.minRev <= curRev {
			w.minRev = curRev + 1
			delete(ws.unsynced, w)
			ws.synced[w] = struct{}{}
		}
	}
}
