// Package syncthing_rlock_othertype is modelled on a Syncthing model
// deadlock with a recursive read lock through a method of another type:
// Model.Completion read-locks the model's folder lock and asks the
// folder's runner for its local size; the runner reads the model's
// folder configuration through its back-pointer, which read-locks the
// same lock again. A concurrent folder restart (write lock) queued in
// between deadlocks the model.
package syncthing_rlock_othertype

import "sync"

// FolderConfig is a shared folder's configuration.
type FolderConfig struct {
	ID     string
	Paused bool
}

type sendReceiveFolder struct {
	id    string
	model *Model
	files map[string]int64
}

func (f *sendReceiveFolder) localSize() int64 {
	cfg := f.model.folderConfig(f.id) // read-locks f.model.fmut again
	if cfg.Paused {
		return 0
	}
	var n int64
	for _, sz := range f.files {
		n += sz
	}
	return n
}

// Model is the set of shared folders. Buggy version.
type Model struct {
	fmut    sync.RWMutex
	configs map[string]FolderConfig
	runners map[string]*sendReceiveFolder
	global  map[string]int64
}

// NewModel returns an empty model.
func NewModel() *Model {
	return &Model{configs: map[string]FolderConfig{}, runners: map[string]*sendReceiveFolder{}, global: map[string]int64{}}
}

// RestartFolder replaces folder cfg.ID's configuration and runner.
func (m *Model) RestartFolder(cfg FolderConfig) {
	m.fmut.Lock()
	defer m.fmut.Unlock()
	m.configs[cfg.ID] = cfg
	m.runners[cfg.ID] = &sendReceiveFolder{id: cfg.ID, model: m, files: map[string]int64{}}
}

// Index records the global size of folder id announced by a peer.
func (m *Model) Index(id string, globalSize int64) {
	m.fmut.Lock()
	m.global[id] = globalSize
	m.fmut.Unlock()
}

func (m *Model) folderConfig(id string) FolderConfig {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	return m.configs[id]
}

// Completion returns the percentage of folder id that is in sync.
func (m *Model) Completion(id string) float64 {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	r, ok := m.runners[id]
	if !ok || m.global[id] == 0 {
		return 0
	}
	return 100 * float64(r.localSize()) / float64(m.global[id]) // BUG: recursive RLock of m.fmut
}

// ModelFixed is the fixed version: Completion looks the runner up under
// the read lock and asks it for its size after releasing it.
type ModelFixed struct {
	fmut    sync.RWMutex
	configs map[string]FolderConfig
	runners map[string]*sendReceiveFolderFixed
	global  map[string]int64
}

type sendReceiveFolderFixed struct {
	id    string
	model *ModelFixed
	files map[string]int64
}

func (f *sendReceiveFolderFixed) localSize() int64 {
	cfg := f.model.folderConfig(f.id)
	if cfg.Paused {
		return 0
	}
	var n int64
	for _, sz := range f.files {
		n += sz
	}
	return n
}

// NewModelFixed returns an empty model.
func NewModelFixed() *ModelFixed {
	return &ModelFixed{configs: map[string]FolderConfig{}, runners: map[string]*sendReceiveFolderFixed{}, global: map[string]int64{}}
}

// RestartFolder replaces folder cfg.ID's configuration and runner.
func (m *ModelFixed) RestartFolder(cfg FolderConfig) {
	m.fmut.Lock()
	defer m.fmut.Unlock()
	m.configs[cfg.ID] = cfg
	m.runners[cfg.ID] = &sendReceiveFolderFixed{id: cfg.ID, model: m, files: map[string]int64{}}
}

// Index records the global size of folder id announced by a peer.
func (m *ModelFixed) Index(id string, globalSize int64) {
	m.fmut.Lock()
	m.global[id] = globalSize
	m.fmut.Unlock()
}

func (m *ModelFixed) folderConfig(id string) FolderConfig {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	return m.configs[id]
}

// Completion returns the percentage of folder id that is in sync.
func (m *ModelFixed) Completion(id string) float64 {
	m.fmut.RLock()
	r, ok := m.runners[id]
	global := m.global[id]
	m.fmut.RUnlock()
	if !ok || global == 0 {
		return 0
	}
	return 100 * float64(r.localSize()) / float64(global)
}
