package leaks

import (
	"errors"
	"sort"
	"sync"
)

// A search index hands out term iterators that hold its read lock until
// they are closed, so a Close of the index waits for the iterations in
// flight: the lock goes to the iterator the success path returns.

var errIndexClosed = errors.New("index closed")

type termIndex struct {
	mu     sync.RWMutex
	open   bool
	fields map[string][]string
}

type termIterator struct {
	index *termIndex
	terms []string
	next  int
}

// Next returns the next term, or false at the end.
func (t *termIterator) Next() (string, bool) {
	if t.next >= len(t.terms) {
		return "", false
	}
	t.next++
	return t.terms[t.next-1], true
}

// Close ends the iteration and lets the index close.
func (t *termIterator) Close() error {
	t.index.mu.RUnlock()
	return nil
}

// Terms returns an iterator over a field's terms, holding the index open.
func (i *termIndex) Terms(field string) (*termIterator, error) {
	i.mu.RLock()
	if !i.open {
		i.mu.RUnlock()
		return nil, errIndexClosed
	}
	terms, err := i.sorted(field)
	if err != nil {
		i.mu.RUnlock()
		return nil, err
	}
	return &termIterator{index: i, terms: terms}, nil
}

// sorted returns a field's terms, checked to be in order.
func (i *termIndex) sorted(field string) ([]string, error) {
	terms := i.fields[field]
	if !sort.StringsAreSorted(terms) {
		return nil, errors.New("terms of " + field + " not sorted")
	}
	return terms, nil
}

// TermsFrom is its twin with an error path that forgets the read lock:
// the next Close of the index waits forever.
func (i *termIndex) TermsFrom(field, from string) (*termIterator, error) {
	i.mu.RLock()
	if !i.open {
		i.mu.RUnlock()
		return nil, errIndexClosed
	}
	terms := i.fields[field]
	k := sort.SearchStrings(terms, from)
	if k == len(terms) {
		return nil, errors.New("no term at or after " + from) // want `return with i.mu held, but other paths of TermsFrom release it`
	}
	return &termIterator{index: i, terms: terms[k:]}, nil
}

type prefixIterator struct {
	index *termIndex
	terms []string
}

// Close forgets the index's read lock.
func (p *prefixIterator) Close() error {
	p.terms = nil
	return nil
}

// Prefix returns an iterator that never gives the read lock back: the
// success path keeps it for good.
func (i *termIndex) Prefix(field string) (*prefixIterator, error) {
	i.mu.RLock()
	if !i.open {
		i.mu.RUnlock()
		return nil, errIndexClosed
	}
	terms, err := i.sorted(field)
	if err != nil {
		i.mu.RUnlock()
		return nil, err
	}
	return &prefixIterator{index: i, terms: terms}, nil // want `return with i.mu held, but other paths of Prefix release it`
}
