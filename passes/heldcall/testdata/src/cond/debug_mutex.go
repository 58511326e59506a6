package cond

import (
	"sync"

	"cond/lockx"
)

// selectorNotes queues selector updates for a user goroutine; its Cond is
// made on a debug-build mutex wrapper, whose Lock is the inner sync
// Mutex's. Waiting releases that inner mutex.
type selectorNotes struct {
	mu      lockx.Mutex
	cond    *sync.Cond
	pending []string

	regMu    lockx.Mutex
	handlers map[string]func(string)
}

func newSelectorNotes() *selectorNotes {
	n := &selectorNotes{handlers: map[string]func(string){}}
	n.cond = sync.NewCond(&n.mu)
	return n
}

func (n *selectorNotes) next() string {
	n.mu.Lock()
	for len(n.pending) == 0 {
		n.cond.Wait()
	}
	s := n.pending[0]
	n.pending = n.pending[1:]
	n.mu.Unlock()
	return s
}

// nextRegistered waits with the handler registry's lock held as well:
// registrations stall until a note arrives.
func (n *selectorNotes) nextRegistered() (string, func(string)) {
	n.regMu.Lock()
	defer n.regMu.Unlock()
	n.mu.Lock()
	for len(n.pending) == 0 {
		n.cond.Wait() // want `n.regMu.internalMutex.Mutex held across call of \(\*sync.Cond\).Wait`
	}
	s := n.pending[0]
	n.pending = n.pending[1:]
	n.mu.Unlock()
	return s, n.handlers[s]
}

func (n *selectorNotes) add(s string) {
	n.mu.Lock()
	n.pending = append(n.pending, s)
	n.mu.Unlock()
	n.cond.Signal()
}
