// Package syncthing_doublelock_helpers is modelled on a Syncthing model
// self-deadlock two calls deep: Close holds the model's connection mutex
// while it tears a device's connection down through closeConn, which
// records the disconnect through deviceWasSeen, which takes the same
// mutex to update the device statistics.
package syncthing_doublelock_helpers

import (
	"io"
	"sync"
	"time"
)

// Model tracks the connected devices. Buggy version.
type Model struct {
	pmut     sync.Mutex
	conns    map[string]io.Closer
	lastSeen map[string]time.Time
}

// NewModel returns a model with no connections.
func NewModel() *Model {
	return &Model{conns: map[string]io.Closer{}, lastSeen: map[string]time.Time{}}
}

// AddConnection registers device's connection.
func (m *Model) AddConnection(device string, c io.Closer) {
	m.pmut.Lock()
	m.conns[device] = c
	m.pmut.Unlock()
}

// Close disconnects device.
func (m *Model) Close(device string) {
	m.pmut.Lock()
	defer m.pmut.Unlock()
	c, ok := m.conns[device]
	if !ok {
		return
	}
	delete(m.conns, device)
	m.closeConn(device, c)
}

func (m *Model) closeConn(device string, c io.Closer) {
	_ = c
	m.deviceWasSeen(device)
}

func (m *Model) deviceWasSeen(device string) {
	m.pmut.Lock() // BUG: already held by Close
	m.lastSeen[device] = time.Now()
	m.pmut.Unlock()
}

// ModelFixed is the fixed version: the connection is removed under the
// mutex, and the statistics are updated after it is released.
type ModelFixed struct {
	pmut     sync.Mutex
	conns    map[string]io.Closer
	lastSeen map[string]time.Time
}

// NewModelFixed returns a model with no connections.
func NewModelFixed() *ModelFixed {
	return &ModelFixed{conns: map[string]io.Closer{}, lastSeen: map[string]time.Time{}}
}

// AddConnection registers device's connection.
func (m *ModelFixed) AddConnection(device string, c io.Closer) {
	m.pmut.Lock()
	m.conns[device] = c
	m.pmut.Unlock()
}

// Close disconnects device.
func (m *ModelFixed) Close(device string) {
	m.pmut.Lock()
	c, ok := m.conns[device]
	delete(m.conns, device)
	m.pmut.Unlock()
	if !ok {
		return
	}
	m.closeConn(device, c)
}

func (m *ModelFixed) closeConn(device string, c io.Closer) {
	_ = c
	m.deviceWasSeen(device)
}

func (m *ModelFixed) deviceWasSeen(device string) {
	m.pmut.Lock()
	m.lastSeen[device] = time.Now()
	m.pmut.Unlock()
}
