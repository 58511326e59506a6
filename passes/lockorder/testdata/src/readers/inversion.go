package readers // want package:"6 lock-order edges"

import "sync"

// A model keeps folders and peers under two read-write locks. Readers
// share both; but sync.RWMutex lets no new reader in while a writer
// waits, so two readers taking the two read locks in opposite orders
// deadlock once a writer is queued on each lock: each reader waits behind
// a writer that waits for the other reader.

type Model struct {
	foldersMu sync.RWMutex
	folders   map[string][]string // folder -> peers sharing it
	peersMu   sync.RWMutex
	peers     map[string]bool // peer -> connected
}

func (m *Model) AddFolder(id string, peers []string) {
	m.foldersMu.Lock()
	m.folders[id] = peers
	m.foldersMu.Unlock()
}

func (m *Model) SetConnected(peer string, up bool) {
	m.peersMu.Lock()
	m.peers[peer] = up
	m.peersMu.Unlock()
}

// ConnectedSharers lists the connected peers of a folder: folders, then
// peers.
func (m *Model) ConnectedSharers(folder string) []string {
	m.foldersMu.RLock()
	defer m.foldersMu.RUnlock()
	m.peersMu.RLock() // want `m.peersMu locked while holding m.foldersMu \(locked at inversion.go:\d+\); the opposite order is taken at inversion.go:\d+: lock-order inversion of read locks, which deadlocks once a writer waits on each`
	defer m.peersMu.RUnlock()
	var out []string
	for _, p := range m.folders[folder] {
		if m.peers[p] {
			out = append(out, p)
		}
	}
	return out
}

// SharedWith lists the folders a connected peer shares: peers, then
// folders, the opposite order.
func (m *Model) SharedWith(peer string) []string {
	m.peersMu.RLock()
	defer m.peersMu.RUnlock()
	if !m.peers[peer] {
		return nil
	}
	m.foldersMu.RLock() // want `m.foldersMu locked while holding m.peersMu \(locked at inversion.go:\d+\); the opposite order is taken at inversion.go:\d+: lock-order inversion of read locks, which deadlocks once a writer waits on each`
	defer m.foldersMu.RUnlock()
	var out []string
	for id, ps := range m.folders {
		for _, p := range ps {
			if p == peer {
				out = append(out, id)
			}
		}
	}
	return out
}

// An ordered model is the same model whose readers all take folders,
// then peers: no inversion, whatever the writers do.
type OrderedModel struct {
	foldersMu sync.RWMutex
	folders   map[string][]string
	peersMu   sync.RWMutex
	peers     map[string]bool
}

func (m *OrderedModel) AddFolder(id string, peers []string) {
	m.foldersMu.Lock()
	m.folders[id] = peers
	m.foldersMu.Unlock()
}

func (m *OrderedModel) SetConnected(peer string, up bool) {
	m.peersMu.Lock()
	m.peers[peer] = up
	m.peersMu.Unlock()
}

func (m *OrderedModel) ConnectedSharers(folder string) []string {
	m.foldersMu.RLock()
	defer m.foldersMu.RUnlock()
	m.peersMu.RLock()
	defer m.peersMu.RUnlock()
	var out []string
	for _, p := range m.folders[folder] {
		if m.peers[p] {
			out = append(out, p)
		}
	}
	return out
}

func (m *OrderedModel) SharedWith(peer string) []string {
	m.foldersMu.RLock()
	defer m.foldersMu.RUnlock()
	m.peersMu.RLock()
	defer m.peersMu.RUnlock()
	if !m.peers[peer] {
		return nil
	}
	var out []string
	for id, ps := range m.folders {
		for _, p := range ps {
			if p == peer {
				out = append(out, id)
			}
		}
	}
	return out
}

// A catalog is built before it is shared and only read afterwards: its
// read lock never has a writer queued, so the opposite orders of its
// readers cannot deadlock.
type Catalog struct {
	kindsMu sync.RWMutex
	kinds   map[string]string
	namesMu sync.RWMutex
	names   map[string]string
}

func (c *Catalog) SetName(id, name string) {
	c.namesMu.Lock()
	c.names[id] = name
	c.namesMu.Unlock()
}

func (c *Catalog) KindOfName(name string) string {
	c.kindsMu.RLock()
	defer c.kindsMu.RUnlock()
	c.namesMu.RLock()
	defer c.namesMu.RUnlock()
	for id, n := range c.names {
		if n == name {
			return c.kinds[id]
		}
	}
	return ""
}

func (c *Catalog) NameOfKind(kind string) string {
	c.namesMu.RLock()
	defer c.namesMu.RUnlock()
	c.kindsMu.RLock()
	defer c.kindsMu.RUnlock()
	for id, k := range c.kinds {
		if k == kind {
			return c.names[id]
		}
	}
	return ""
}
