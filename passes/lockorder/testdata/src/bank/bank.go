// want package:"4 lock-order edges"

// Package bank holds a lock-order inversion between the ledger and the
// accounts table, next to the consistently ordered twin.
package bank

import "sync"

type Bank struct {
	accountsMu sync.Mutex
	ledgerMu   sync.Mutex
	balances   map[string]int
	entries    []string
}

// Transfer takes accounts, then ledger.
func (b *Bank) Transfer(from, to string, n int) {
	b.accountsMu.Lock()
	defer b.accountsMu.Unlock()
	b.balances[from] -= n
	b.balances[to] += n
	b.ledgerMu.Lock() // want `b.ledgerMu locked while holding b.accountsMu \(locked at bank.go:18\); the opposite order is taken at bank.go:32: lock-order inversion`
	b.entries = append(b.entries, from+"->"+to)
	b.ledgerMu.Unlock()
}

// AuditHeld takes ledger, then accounts: with Transfer, two goroutines
// deadlock.
func (b *Bank) AuditHeld() int {
	b.ledgerMu.Lock()
	defer b.ledgerMu.Unlock()
	b.accountsMu.Lock() // want `b.accountsMu locked while holding b.ledgerMu \(locked at bank.go:30\); the opposite order is taken at bank.go:22: lock-order inversion`
	defer b.accountsMu.Unlock()
	return len(b.entries) + len(b.balances)
}

// Store is the twin: the same two locks, always accounts first.
type Store struct {
	accountsMu sync.Mutex
	ledgerMu   sync.Mutex
	balances   map[string]int
	entries    []string
}

func (s *Store) Transfer(from, to string, n int) {
	s.accountsMu.Lock()
	defer s.accountsMu.Unlock()
	s.balances[from] -= n
	s.balances[to] += n
	s.ledgerMu.Lock()
	s.entries = append(s.entries, from+"->"+to)
	s.ledgerMu.Unlock()
}

func (s *Store) Audit() int {
	s.accountsMu.Lock()
	defer s.accountsMu.Unlock()
	s.ledgerMu.Lock()
	defer s.ledgerMu.Unlock()
	return len(s.entries) + len(s.balances)
}
