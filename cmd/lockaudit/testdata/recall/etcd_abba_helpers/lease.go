// Package etcd_abba_helpers is modelled on an etcd lessor / mvcc store
// lock-order inversion reached through helper calls: revoking a lease
// holds the lessor's mutex and deletes the lease's keys through a helper
// that calls into the store (store mutex), while a Put with a lease holds
// the store's mutex and attaches the key through a helper that calls into
// the lessor (lessor mutex). A revoke racing a put deadlocks.
package etcd_abba_helpers

import (
	"errors"
	"sync"
)

// ErrLeaseNotFound is returned for an unknown lease.
var ErrLeaseNotFound = errors.New("lease not found")

// Lessor owns leases. Buggy version.
type Lessor struct {
	mu     sync.Mutex
	leases map[int64]map[string]bool // lease -> keys
	store  *Store
}

// Store is the key-value store. Buggy version.
type Store struct {
	mu     sync.Mutex
	kvs    map[string]string
	rev    int64
	lessor *Lessor
}

// New wires a lessor and a store together.
func New() (*Lessor, *Store) {
	le := &Lessor{leases: map[int64]map[string]bool{}}
	s := &Store{kvs: map[string]string{}}
	le.store, s.lessor = s, le
	return le, s
}

// Grant creates lease id.
func (le *Lessor) Grant(id int64) {
	le.mu.Lock()
	le.leases[id] = map[string]bool{}
	le.mu.Unlock()
}

// Revoke deletes lease id and its keys.
func (le *Lessor) Revoke(id int64) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	keys, ok := le.leases[id]
	if !ok {
		return ErrLeaseNotFound
	}
	delete(le.leases, id)
	le.deleteKeys(keys) // BUG: lessor.mu then store.mu
	return nil
}

func (le *Lessor) deleteKeys(keys map[string]bool) {
	for k := range keys {
		le.store.DeleteRange(k)
	}
}

// Attach adds key to lease id.
func (le *Lessor) Attach(id int64, key string) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	keys, ok := le.leases[id]
	if !ok {
		return ErrLeaseNotFound
	}
	keys[key] = true
	return nil
}

// DeleteRange deletes key.
func (s *Store) DeleteRange(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.kvs, key)
	s.rev++
}

// Put writes key, attached to lease if lease is not 0.
func (s *Store) Put(key, val string, lease int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lease != 0 {
		if err := s.attachLease(lease, key); err != nil { // store.mu then lessor.mu
			return err
		}
	}
	s.kvs[key] = val
	s.rev++
	return nil
}

func (s *Store) attachLease(lease int64, key string) error {
	return s.lessor.Attach(lease, key)
}

// LessorFixed is the fixed version: Revoke detaches the keys under the
// lessor's mutex and deletes them from the store after releasing it.
type LessorFixed struct {
	mu     sync.Mutex
	leases map[int64]map[string]bool
	store  *StoreFixed
}

// StoreFixed is the fixed version's store.
type StoreFixed struct {
	mu     sync.Mutex
	kvs    map[string]string
	rev    int64
	lessor *LessorFixed
}

// NewFixed wires a lessor and a store together.
func NewFixed() (*LessorFixed, *StoreFixed) {
	le := &LessorFixed{leases: map[int64]map[string]bool{}}
	s := &StoreFixed{kvs: map[string]string{}}
	le.store, s.lessor = s, le
	return le, s
}

// Grant creates lease id.
func (le *LessorFixed) Grant(id int64) {
	le.mu.Lock()
	le.leases[id] = map[string]bool{}
	le.mu.Unlock()
}

// Revoke deletes lease id and its keys.
func (le *LessorFixed) Revoke(id int64) error {
	le.mu.Lock()
	keys, ok := le.leases[id]
	delete(le.leases, id)
	le.mu.Unlock()
	if !ok {
		return ErrLeaseNotFound
	}
	le.deleteKeys(keys)
	return nil
}

func (le *LessorFixed) deleteKeys(keys map[string]bool) {
	for k := range keys {
		le.store.DeleteRange(k)
	}
}

// Attach adds key to lease id.
func (le *LessorFixed) Attach(id int64, key string) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	keys, ok := le.leases[id]
	if !ok {
		return ErrLeaseNotFound
	}
	keys[key] = true
	return nil
}

// DeleteRange deletes key.
func (s *StoreFixed) DeleteRange(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.kvs, key)
	s.rev++
}

// Put writes key, attached to lease if lease is not 0.
func (s *StoreFixed) Put(key, val string, lease int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lease != 0 {
		if err := s.attachLease(lease, key); err != nil {
			return err
		}
	}
	s.kvs[key] = val
	s.rev++
	return nil
}

func (s *StoreFixed) attachLease(lease int64, key string) error {
	return s.lessor.Attach(lease, key)
}
