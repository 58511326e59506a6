package leaks

import (
	"errors"
	"sync"
)

// A vector index splits an overgrown posting list under that list's
// stripe of a sharded lock table. The stripe is released early once the
// split is stored; a deferred closure releases it on the error returns
// before that, through the table's Unlock wrapper, unless the split is
// already marked done.

type stripedLocks struct {
	stripes []sync.RWMutex
}

func (s *stripedLocks) Lock(id uint64)   { s.stripes[id%uint64(len(s.stripes))].Lock() }
func (s *stripedLocks) Unlock(id uint64) { s.stripes[id%uint64(len(s.stripes))].Unlock() }

type postingIndex struct {
	locks    *stripedLocks
	postings map[uint64][]float32
	splits   int
}

var errNoPosting = errors.New("no such posting")

func (x *postingIndex) load(id uint64) ([]float32, error) {
	p, ok := x.postings[id]
	if !ok {
		return nil, errNoPosting
	}
	return p, nil
}

// Split releases the stripe on every return: by hand once done, through
// the deferred closure before.
func (x *postingIndex) Split(id, left, right uint64, reassign bool) error {
	x.locks.Lock(id)
	var done bool
	defer func() {
		if !done {
			x.locks.Unlock(id)
		}
	}()
	p, err := x.load(id)
	if err != nil {
		return err
	}
	x.postings[left], x.postings[right] = p[:len(p)/2], p[len(p)/2:]
	done = true
	x.locks.Unlock(id)
	if !reassign {
		return nil
	}
	_, err = x.load(left)
	return err
}

// SplitCounted is its twin: the deferred closure only counts the split,
// and the error return keeps the stripe.
func (x *postingIndex) SplitCounted(id, left, right uint64) error {
	x.locks.Lock(id)
	var done bool
	defer func() {
		if !done {
			x.splits++
		}
	}()
	p, err := x.load(id)
	if err != nil {
		return err // want `return with x.locks.stripes\[i\] held, but other paths of SplitCounted release it`
	}
	x.postings[left], x.postings[right] = p[:len(p)/2], p[len(p)/2:]
	done = true
	x.locks.Unlock(id)
	return nil
}
