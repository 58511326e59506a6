// Package multigres_stack_visitor is modelled on multigres#694: a generic
// work stack whose visitor runs its callback while it holds the stack's
// lock, and a planner whose callback pushes follow-up work onto the same
// stack, which locks it again: the first expansion deadlocks.
package multigres_stack_visitor

import "sync"

// Stack is a concurrent LIFO of work items. Buggy version.
type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

// Push adds v on top.
func (s *Stack[T]) Push(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, v)
}

// visit calls f for each item, under the stack's lock.
func (s *Stack[T]) visit(f func(T)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.items {
		f(v)
	}
}

// Step is one planning step: a table and how many joins are left.
type Step struct {
	Table string
	Left  int
}

// Expand pushes the follow-up of every step with joins left.
func Expand(s *Stack[Step]) {
	s.visit(func(st Step) {
		if st.Left > 0 {
			s.Push(Step{Table: st.Table, Left: st.Left - 1}) // BUG: s.mu is held by visit
		}
	})
}

// StackFixed is the fixed version: visit copies the items under the lock
// and calls f after releasing it.
type StackFixed[T any] struct {
	mu    sync.Mutex
	items []T
}

// Push adds v on top.
func (s *StackFixed[T]) Push(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, v)
}

func (s *StackFixed[T]) visit(f func(T)) {
	s.mu.Lock()
	items := append([]T(nil), s.items...)
	s.mu.Unlock()
	for _, v := range items {
		f(v)
	}
}

// ExpandFixed pushes the follow-ups outside the stack's lock.
func ExpandFixed(s *StackFixed[Step]) {
	s.visit(func(st Step) {
		if st.Left > 0 {
			s.Push(Step{Table: st.Table, Left: st.Left - 1})
		}
	})
}
