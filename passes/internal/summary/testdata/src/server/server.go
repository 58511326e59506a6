// Package server uses package store: its summaries come from facts.
package server

import "store"

type Server struct{ st *store.Store }

// Save blocks through the imported Commit.
func (s *Server) Save() error { // want Save:`lockfacts\(blocks: server.\(\*Server\).Save -> store.\(\*Store\).Commit -> store.\(\*Store\).Flush -> os.\(\*File\).Sync; locks \(\*store.Store\).mu; takes p0.st.mu\)`
	return s.st.Commit()
}

// Replay runs a closure that blocks inside the imported Each.
func (s *Server) Replay() { // want Replay:`lockfacts\(blocks: server.\(\*Server\).Replay -> server.\(\*Server\).Replay.func1 -> store.Backoff -> time.Sleep\)`
	s.st.Each(func(p []byte) { store.Backoff(len(p)) })
}

// Locked takes the store's lock through the imported wrapper.
func (s *Server) Locked() { // want Locked:`lockfacts\(acquires \(\*store.Store\).mu; locks \(\*store.Store\).mu; takes p0.st.mu\)`
	s.st.Lock()
}

// LockTable takes the lock of the table's unexported shard through its
// promoted exported method.
func LockTable(t *store.Table) { // want LockTable:`lockfacts\(acquires \(\*store.Table\).shard.mu; locks \(\*store.Table\).shard.mu; takes p0.shard.mu\)`
	t.Lock()
}

// Load blocks in an instantiation of the imported generic Retry.
func Load() int { // want Load:`lockfacts\(blocks: server.Load -> store.Retry -> store.Backoff -> time.Sleep\)`
	return store.Retry(3, func() int { return 1 })
}
