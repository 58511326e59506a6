// Package syncthing_condhelper is modelled on a Syncthing model/folder
// deadlock: Completion read-locks the model's folder map and, to report a
// stable number, calls a folder helper that waits on the folder's
// "idle" condition variable (whose L is the folder's own mutex) with the
// model's read lock still held. The scanner marks the folder idle only
// after it has updated the global index, which takes the model's lock for
// writing, so the broadcast never comes.
package syncthing_condhelper

import "sync"

type folder struct {
	mu       sync.Mutex
	idleCond *sync.Cond // L is &mu
	scanning bool
	local    int64
}

func newFolder() *folder {
	f := &folder{}
	f.idleCond = sync.NewCond(&f.mu)
	return f
}

// waitIdle waits for the running scan, if any, to finish.
func (f *folder) waitIdle() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.scanning {
		f.idleCond.Wait()
	}
	return f.local
}

func (f *folder) setScanning(v bool, local int64) {
	f.mu.Lock()
	f.scanning = v
	f.local = local
	f.mu.Unlock()
	if !v {
		f.idleCond.Broadcast()
	}
}

// Model is the set of shared folders. Buggy version.
type Model struct {
	fmut    sync.RWMutex
	folders map[string]*folder
	global  map[string]int64
}

// NewModel returns a model with the given folders.
func NewModel(ids ...string) *Model {
	m := &Model{folders: map[string]*folder{}, global: map[string]int64{}}
	for _, id := range ids {
		m.folders[id] = newFolder()
	}
	return m
}

// Completion returns the percentage of folder id that is in sync.
func (m *Model) Completion(id string) float64 {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	f, ok := m.folders[id]
	if !ok {
		return 0
	}
	local := f.waitIdle() // BUG: waits for the scanner with m.fmut read-locked
	if m.global[id] == 0 {
		return 100
	}
	return 100 * float64(local) / float64(m.global[id])
}

// Scan rescans folder id.
func (m *Model) Scan(id string, walk func() int64) {
	m.fmut.RLock()
	f := m.folders[id]
	m.fmut.RUnlock()
	if f == nil {
		return
	}
	f.setScanning(true, 0)
	n := walk()
	m.fmut.Lock()
	m.global[id] = n
	m.fmut.Unlock()
	f.setScanning(false, n)
}

// ModelFixed is the fixed version: the folder is looked up under the read
// lock, which is released before waiting for the scanner.
type ModelFixed struct {
	fmut    sync.RWMutex
	folders map[string]*folder
	global  map[string]int64
}

// NewModelFixed returns a model with the given folders.
func NewModelFixed(ids ...string) *ModelFixed {
	m := &ModelFixed{folders: map[string]*folder{}, global: map[string]int64{}}
	for _, id := range ids {
		m.folders[id] = newFolder()
	}
	return m
}

// Completion returns the percentage of folder id that is in sync.
func (m *ModelFixed) Completion(id string) float64 {
	m.fmut.RLock()
	f, ok := m.folders[id]
	m.fmut.RUnlock()
	if !ok {
		return 0
	}
	local := f.waitIdle()
	m.fmut.RLock()
	global := m.global[id]
	m.fmut.RUnlock()
	if global == 0 {
		return 100
	}
	return 100 * float64(local) / float64(global)
}

// Scan rescans folder id.
func (m *ModelFixed) Scan(id string, walk func() int64) {
	m.fmut.RLock()
	f := m.folders[id]
	m.fmut.RUnlock()
	if f == nil {
		return
	}
	f.setScanning(true, 0)
	n := walk()
	m.fmut.Lock()
	m.global[id] = n
	m.fmut.Unlock()
	f.setScanning(false, n)
}
