// Package k8s_statuschan is modelled on a Kubernetes kubelet status-manager
// deadlock: SetPodStatus records a pod's new status in the cache under the
// manager's mutex and then, still holding the mutex, hands the pod UID to
// the sync loop over an unbuffered channel. The sync loop takes the same
// mutex to read the cached status after every receive, so when two
// updates race, the second holds the mutex while blocked on the send and
// the loop is blocked on the mutex instead of receiving.
package k8s_statuschan

import "sync"

// PodStatus is the part of a pod's status the manager tracks.
type PodStatus struct {
	Phase   string
	Reason  string
	Version int64
}

// StatusManager caches pod statuses and pushes changes to the API server.
// Buggy version.
type StatusManager struct {
	mu       sync.Mutex
	statuses map[string]PodStatus
	updates  chan string
	push     func(uid string, s PodStatus) error
}

// NewStatusManager starts the sync loop.
func NewStatusManager(push func(string, PodStatus) error) *StatusManager {
	m := &StatusManager{
		statuses: make(map[string]PodStatus),
		updates:  make(chan string),
		push:     push,
	}
	go m.syncLoop()
	return m
}

// SetPodStatus records s and asks the sync loop to push it.
func (m *StatusManager) SetPodStatus(uid string, s PodStatus) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.statuses[uid]; ok && old == s {
		return
	}
	s.Version++
	m.statuses[uid] = s
	m.updates <- uid // BUG: sends with m.mu held; syncLoop locks m.mu between receives
}

func (m *StatusManager) syncLoop() {
	for uid := range m.updates {
		m.mu.Lock()
		s := m.statuses[uid]
		m.mu.Unlock()
		_ = m.push(uid, s)
	}
}

// StatusManagerFixed is the fixed version: the cache update is done under
// the mutex, the hand-off to the sync loop after it is released.
type StatusManagerFixed struct {
	mu       sync.Mutex
	statuses map[string]PodStatus
	updates  chan string
	push     func(uid string, s PodStatus) error
}

// NewStatusManagerFixed starts the sync loop.
func NewStatusManagerFixed(push func(string, PodStatus) error) *StatusManagerFixed {
	m := &StatusManagerFixed{
		statuses: make(map[string]PodStatus),
		updates:  make(chan string),
		push:     push,
	}
	go m.syncLoop()
	return m
}

// SetPodStatus records s and asks the sync loop to push it.
func (m *StatusManagerFixed) SetPodStatus(uid string, s PodStatus) {
	m.mu.Lock()
	if old, ok := m.statuses[uid]; ok && old == s {
		m.mu.Unlock()
		return
	}
	s.Version++
	m.statuses[uid] = s
	m.mu.Unlock()
	m.updates <- uid
}

func (m *StatusManagerFixed) syncLoop() {
	for uid := range m.updates {
		m.mu.Lock()
		s := m.statuses[uid]
		m.mu.Unlock()
		_ = m.push(uid, s)
	}
}
