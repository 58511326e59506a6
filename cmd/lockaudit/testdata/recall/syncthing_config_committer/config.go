// Package syncthing_config_committer is modelled on Syncthing's config
// Wrapper and its Committer subscribers (lib/config; from memory, the exact
// issue is not recalled; upstream notifies committers from goroutines after
// releasing the wrapper's mutex): Replace holds the wrapper's mutex while
// it calls CommitConfiguration on every subscriber through the Committer
// interface, and the model's CommitConfiguration reads the new folder list
// back through the wrapper's Folders, which locks the same mutex. The
// first config change from the GUI deadlocks the wrapper.
package syncthing_config_committer

import "sync"

// FolderConfiguration is one shared folder.
type FolderConfiguration struct {
	ID   string
	Path string
}

// Configuration is the whole config.
type Configuration struct {
	Version int
	Folders []FolderConfiguration
}

// Committer is notified of config changes.
type Committer interface {
	VerifyConfiguration(from, to Configuration) error
	CommitConfiguration(from, to Configuration) (handled bool)
}

// Wrapper guards the config. Buggy version.
type Wrapper struct {
	mut  sync.Mutex
	cfg  Configuration
	subs []Committer
}

// Subscribe registers c for changes.
func (w *Wrapper) Subscribe(c Committer) {
	w.mut.Lock()
	w.subs = append(w.subs, c)
	w.mut.Unlock()
}

// Folders returns the folders by ID.
func (w *Wrapper) Folders() map[string]FolderConfiguration {
	w.mut.Lock()
	defer w.mut.Unlock()
	m := make(map[string]FolderConfiguration, len(w.cfg.Folders))
	for _, f := range w.cfg.Folders {
		m[f.ID] = f
	}
	return m
}

// Replace swaps the config and notifies the subscribers.
func (w *Wrapper) Replace(to Configuration) error {
	w.mut.Lock()
	defer w.mut.Unlock()
	from := w.cfg
	for _, s := range w.subs {
		if err := s.VerifyConfiguration(from, to); err != nil {
			return err
		}
	}
	w.cfg = to
	for _, s := range w.subs {
		s.CommitConfiguration(from, to) // BUG: the model calls back into w.Folders
	}
	return nil
}

// Model is the sync engine; it restarts folders on config changes.
type Model struct {
	cfg     *Wrapper
	fmut    sync.RWMutex
	folders map[string]FolderConfiguration
}

// NewModel subscribes a model to cfg.
func NewModel(cfg *Wrapper) *Model {
	m := &Model{cfg: cfg, folders: map[string]FolderConfiguration{}}
	cfg.Subscribe(m)
	return m
}

func (m *Model) VerifyConfiguration(from, to Configuration) error { return nil }

func (m *Model) CommitConfiguration(from, to Configuration) bool {
	folders := m.cfg.Folders()
	m.fmut.Lock()
	m.folders = folders
	m.fmut.Unlock()
	return true
}

// WrapperFixed is the fixed version: the committers run after the mutex is
// released, on a copy of the subscriber list.
type WrapperFixed struct {
	mut  sync.Mutex
	cfg  Configuration
	subs []Committer
}

// Subscribe registers c for changes.
func (w *WrapperFixed) Subscribe(c Committer) {
	w.mut.Lock()
	w.subs = append(w.subs, c)
	w.mut.Unlock()
}

// Folders returns the folders by ID.
func (w *WrapperFixed) Folders() map[string]FolderConfiguration {
	w.mut.Lock()
	defer w.mut.Unlock()
	m := make(map[string]FolderConfiguration, len(w.cfg.Folders))
	for _, f := range w.cfg.Folders {
		m[f.ID] = f
	}
	return m
}

// Replace swaps the config and notifies the subscribers.
func (w *WrapperFixed) Replace(to Configuration) error {
	w.mut.Lock()
	from := w.cfg
	subs := append([]Committer(nil), w.subs...)
	w.mut.Unlock()
	for _, s := range subs {
		if err := s.VerifyConfiguration(from, to); err != nil {
			return err
		}
	}
	w.mut.Lock()
	w.cfg = to
	w.mut.Unlock()
	for _, s := range subs {
		s.CommitConfiguration(from, to)
	}
	return nil
}

// ModelFixed is the model subscribed to the fixed wrapper.
type ModelFixed struct {
	cfg     *WrapperFixed
	fmut    sync.RWMutex
	folders map[string]FolderConfiguration
}

// NewModelFixed subscribes a model to cfg.
func NewModelFixed(cfg *WrapperFixed) *ModelFixed {
	m := &ModelFixed{cfg: cfg, folders: map[string]FolderConfiguration{}}
	cfg.Subscribe(m)
	return m
}

func (m *ModelFixed) VerifyConfiguration(from, to Configuration) error { return nil }

func (m *ModelFixed) CommitConfiguration(from, to Configuration) bool {
	folders := m.cfg.Folders()
	m.fmut.Lock()
	m.folders = folders
	m.fmut.Unlock()
	return true
}
