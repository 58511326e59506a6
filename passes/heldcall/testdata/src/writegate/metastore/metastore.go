// Package metastore keeps the process's metadata store behind a write gate.
package metastore

import "writegate"

// Store is the metadata store.
type Store struct {
	gate    writegate.Gate
	barrier writegate.Barrier
	meta    map[string]string
}

var defaultStore = &Store{meta: map[string]string{}}

// Put records one key through the gate.
func Put(k, v string) {
	defaultStore.gate.Enter()
	defer defaultStore.gate.Leave()
	defaultStore.meta[k] = v
}

func (s *Store) pause() { s.gate.Pause() }

// Pause returns with writers held back until Resume.
func Pause() { defaultStore.pause() }

// Resume lets writers in again.
func Resume() { defaultStore.gate.Resume() }

// Snapshot encodes the store's keys; the caller holds the gate.
func Snapshot() []byte {
	var out []byte
	for k, v := range defaultStore.meta {
		out = append(out, k+"="+v+"\n"...)
	}
	return out
}

func (s *Store) close() { s.barrier.Seal() }

// Close waits for the writers in flight and shuts the store for good:
// it returns with the barrier sealed.
func Close() { defaultStore.close() }
