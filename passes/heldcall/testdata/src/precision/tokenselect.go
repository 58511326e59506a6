package precision

import (
	"context"
	"errors"
	"sync"
)

// A pool of interpreters: a buffered channel holds one token per slot,
// taken before a slot is claimed, in a select that gives up when the
// context ends. Building a new interpreter can fail; the token goes back
// under the pool's lock, into the slot the take freed.

type interp struct{ code []byte }

type interpPool struct {
	available chan struct{}
	mu        sync.Mutex
	vms       []*interp
	busy      []bool
	code      []byte
}

func newInterpPool(n int, code []byte) *interpPool {
	p := &interpPool{available: make(chan struct{}, n), code: code}
	for range n {
		p.available <- struct{}{}
	}
	return p
}

var errBuild = errors.New("build failed")

func buildInterp(code []byte) (*interp, error) {
	if len(code) == 0 {
		return nil, errBuild
	}
	return &interp{code: code}, nil
}

// Acquire puts the token back when the build fails: not a finding.
func (p *interpPool) Acquire(ctx context.Context) (*interp, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-p.available:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, vm := range p.vms {
		if !p.busy[i] {
			p.busy[i] = true
			return vm, nil
		}
	}
	vm, err := buildInterp(p.code)
	if err != nil {
		p.available <- struct{}{}
		return nil, err
	}
	p.vms, p.busy = append(p.vms, vm), append(p.busy, true)
	return vm, nil
}

// Release frees the slot of vm and hands its token back.
func (p *interpPool) Release(vm *interp) {
	p.mu.Lock()
	for i, v := range p.vms {
		if v == vm {
			p.busy[i] = false
		}
	}
	p.mu.Unlock()
	p.available <- struct{}{}
}

// TryAcquire hands a token in when the context ended first, without having
// taken one: with every token already in, the send waits for a taker,
// under the lock.
func (p *interpPool) TryAcquire(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		p.mu.Lock()
		defer p.mu.Unlock()
		p.available <- struct{}{} // want `p.mu held across channel send, whose receiver \(tokenselect.go:\d+\) takes p.mu before it receives again \(locked at tokenselect.go:\d+, released by defer\)`
		return false
	case <-p.available:
	}
	return true
}
