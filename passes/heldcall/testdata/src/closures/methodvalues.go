package closures

import (
	"os"
	"path/filepath"
	"sync"
)

// Manifests loads the plugin manifests of a directory on first use and
// keeps them; Reload reads them again for each plugin it is given.
type Manifests struct {
	mu    sync.Mutex
	once  sync.Once
	dir   string
	byKey map[string][]byte
	hits  int
}

func (m *Manifests) load() {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m.byKey[e.Name()] = nil
	}
}

func (m *Manifests) reload(name string) {
	b, err := os.ReadFile(filepath.Join(m.dir, name))
	if err == nil {
		m.byKey[name] = b
	}
}

// each calls f for every plugin name known.
func (m *Manifests) each(f func(name string)) {
	for name := range m.byKey {
		f(name)
	}
}

// GetHeld reads the directory through the method value m.load the first
// time, with the table locked: every other Get waits for the disk.
func (m *Manifests) GetHeld(name string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.once.Do(m.load) // want `m.mu held across call of sync.\(\*Once\).Do with a func that blocks: \(\*Manifests\).load -> os.ReadDir \(locked at methodvalues.go:46, released by defer\)`
	m.hits++
	return m.byKey[name]
}

// Get is its twin: the one-time load runs before the table is locked.
func (m *Manifests) Get(name string) []byte {
	m.once.Do(m.load)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hits++
	return m.byKey[name]
}

// ReloadHeld hands the method value m.reload to a helper that calls it
// for every plugin, with the table locked.
func (m *Manifests) ReloadHeld() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.each(m.reload) // want `m.mu held across call of \(\*Manifests\).each with a func that blocks: \(\*Manifests\).reload -> os.ReadFile \(locked at methodvalues.go:65, released by defer\)`
}

// ReloadClosureHeld does the same through a closure.
func (m *Manifests) ReloadClosureHeld() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.each(func(name string) { m.reload(name) }) // want `m.mu held across call of \(\*Manifests\).each with a func that blocks: \(\*Manifests\).ReloadClosureHeld.func1 -> \(\*Manifests\).reload -> os.ReadFile \(locked at methodvalues.go:72, released by defer\)`
}

// Reload is their twin: it copies the names under the lock, reads the
// files without it, and stores each result under the lock again.
func (m *Manifests) Reload() {
	m.mu.Lock()
	var names []string
	m.each(func(name string) { names = append(names, name) })
	m.mu.Unlock()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(m.dir, name))
		if err != nil {
			continue
		}
		m.mu.Lock()
		m.byKey[name] = b
		m.mu.Unlock()
	}
}

// RefreshHeld refreshes every manifest with the table locked, through a
// helper that hands the method value m.refresh to each; refresh reads the
// disk through fetch, declared after it.
func (m *Manifests) RefreshHeld() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refreshAll() // want `m.mu held across call of \(\*Manifests\).refreshAll, which blocks: \(\*Manifests\).refreshAll -> \(\*Manifests\).refresh -> \(\*Manifests\).fetch -> os.ReadFile \(locked at methodvalues.go:99, released by defer\)`
}

// Refresh is its twin: the files are read with the table unlocked.
func (m *Manifests) Refresh() {
	m.refreshAll()
	m.mu.Lock()
	m.hits = 0
	m.mu.Unlock()
}

func (m *Manifests) refreshAll() { m.each(m.refresh) }

func (m *Manifests) refresh(name string) { m.byKey[name] = m.fetch(name) }

func (m *Manifests) fetch(name string) []byte {
	b, _ := os.ReadFile(filepath.Join(m.dir, name))
	return b
}

// unlocked runs f with m.mu released; the caller holds m.mu.
func (m *Manifests) unlocked(f func()) {
	m.mu.Unlock()
	f()
	m.mu.Lock()
}

// LoadWindowed loads inside the unlock window: the disk is read with
// m.mu released. Not a finding.
func (m *Manifests) LoadWindowed(name string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hits++
	m.unlocked(m.load)
	return m.byKey[name]
}
