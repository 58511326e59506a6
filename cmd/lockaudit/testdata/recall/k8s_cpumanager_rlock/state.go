// Package k8s_cpumanager_rlock models kubernetes#62464 (GoKer
// kubernetes_62464; from memory): the kubelet CPU manager's in-memory state
// embeds a sync.RWMutex; GetCPUSetOrDefault read-locks it and then calls
// GetCPUSet and GetDefaultCPUSet, which read-lock it again. When the static
// policy's SetCPUSet (write lock) arrives between the two read locks, the
// inner RLock queues behind the writer and the writer behind the outer
// RLock: the reconcile loop and every pod admission hang.
package k8s_cpumanager_rlock

import (
	"slices"
	"sync"
)

// CPUSet is a sorted set of CPU ids.
type CPUSet []int

// Clone copies the set.
func (s CPUSet) Clone() CPUSet { return slices.Clone(s) }

type stateMemory struct {
	sync.RWMutex
	assignments   map[string]CPUSet
	defaultCPUSet CPUSet
}

// NewMemoryState returns a state with all cpus in the shared pool.
func NewMemoryState(cpus CPUSet) *stateMemory {
	return &stateMemory{assignments: map[string]CPUSet{}, defaultCPUSet: cpus}
}

func (s *stateMemory) GetCPUSet(containerID string) (CPUSet, bool) {
	s.RLock()
	defer s.RUnlock()
	res, ok := s.assignments[containerID]
	return res.Clone(), ok
}

func (s *stateMemory) GetDefaultCPUSet() CPUSet {
	s.RLock()
	defer s.RUnlock()
	return s.defaultCPUSet.Clone()
}

func (s *stateMemory) GetCPUSetOrDefault(containerID string) CPUSet {
	s.RLock()
	defer s.RUnlock()
	if res, ok := s.GetCPUSet(containerID); ok { // BUG: recursive RLock
		return res
	}
	return s.GetDefaultCPUSet()
}

func (s *stateMemory) SetCPUSet(containerID string, cset CPUSet) {
	s.Lock()
	defer s.Unlock()
	s.assignments[containerID] = cset
}

// stateMemoryFixed is the fixed version: GetCPUSetOrDefault takes no lock
// of its own.
type stateMemoryFixed struct {
	sync.RWMutex
	assignments   map[string]CPUSet
	defaultCPUSet CPUSet
}

// NewMemoryStateFixed returns a state with all cpus in the shared pool.
func NewMemoryStateFixed(cpus CPUSet) *stateMemoryFixed {
	return &stateMemoryFixed{assignments: map[string]CPUSet{}, defaultCPUSet: cpus}
}

func (s *stateMemoryFixed) GetCPUSet(containerID string) (CPUSet, bool) {
	s.RLock()
	defer s.RUnlock()
	res, ok := s.assignments[containerID]
	return res.Clone(), ok
}

func (s *stateMemoryFixed) GetDefaultCPUSet() CPUSet {
	s.RLock()
	defer s.RUnlock()
	return s.defaultCPUSet.Clone()
}

func (s *stateMemoryFixed) GetCPUSetOrDefault(containerID string) CPUSet {
	if res, ok := s.GetCPUSet(containerID); ok {
		return res
	}
	return s.GetDefaultCPUSet()
}

func (s *stateMemoryFixed) SetCPUSet(containerID string, cset CPUSet) {
	s.Lock()
	defer s.Unlock()
	s.assignments[containerID] = cset
}
