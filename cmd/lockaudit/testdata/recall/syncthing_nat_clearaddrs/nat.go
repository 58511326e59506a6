// Models syncthing#4829 (GoKer syncthing_4829): Service.RemoveMapping holds s.mut and calls Mapping.clearAddresses, which write-locks m.mut and, still holding it, calls m.notify, which read-locks m.mut (double lock W then R through a helper, reached from another type's method).
package syncthing_nat_clearaddrs

import (
	"sync"
	"time"
)

// Address is an external address.
type Address struct {
	IP   string
	Port int
}

// MappingChangeSubscriber is told about added and removed addresses.
type MappingChangeSubscriber func(m *Mapping, added, removed []Address)

// Mapping is one port mapping. Buggy version.
type Mapping struct {
	mut          sync.RWMutex
	extAddresses map[string]Address
	expires      time.Time
	subscribers  []MappingChangeSubscriber
}

func (m *Mapping) notify(added, removed []Address) {
	m.mut.RLock() // BUG: m.mut is write-locked by clearAddresses
	for _, subscriber := range m.subscribers {
		subscriber(m, added, removed)
	}
	m.mut.RUnlock()
}

func (m *Mapping) clearAddresses() {
	m.mut.Lock()
	var removed []Address
	for id, addr := range m.extAddresses {
		removed = append(removed, addr)
		delete(m.extAddresses, id)
	}
	m.expires = time.Time{}
	if len(removed) > 0 {
		m.notify(nil, removed) // BUG: called with m.mut held
	}
	m.mut.Unlock()
}

// Service manages all mappings.
type Service struct {
	mut      sync.RWMutex
	mappings []*Mapping
}

// NewMapping adds a mapping.
func (s *Service) NewMapping() *Mapping {
	m := &Mapping{extAddresses: map[string]Address{}}
	s.mut.Lock()
	s.mappings = append(s.mappings, m)
	s.mut.Unlock()
	return m
}

// RemoveMapping removes mapping and clears its addresses.
func (s *Service) RemoveMapping(mapping *Mapping) {
	s.mut.Lock()
	defer s.mut.Unlock()
	for i, existing := range s.mappings {
		if existing == mapping {
			mapping.clearAddresses()
			s.mappings = append(s.mappings[:i], s.mappings[i+1:]...)
			return
		}
	}
}

// MappingFixed is the fixed version: clearAddresses notifies after unlocking.
type MappingFixed struct {
	mut          sync.RWMutex
	extAddresses map[string]Address
	expires      time.Time
	subscribers  []func(m *MappingFixed, added, removed []Address)
}

func (m *MappingFixed) notify(added, removed []Address) {
	m.mut.RLock()
	for _, subscriber := range m.subscribers {
		subscriber(m, added, removed)
	}
	m.mut.RUnlock()
}

func (m *MappingFixed) clearAddresses() {
	m.mut.Lock()
	var removed []Address
	for id, addr := range m.extAddresses {
		removed = append(removed, addr)
		delete(m.extAddresses, id)
	}
	m.expires = time.Time{}
	m.mut.Unlock()
	if len(removed) > 0 {
		m.notify(nil, removed)
	}
}

// ServiceFixed manages all mappings.
type ServiceFixed struct {
	mut      sync.RWMutex
	mappings []*MappingFixed
}

// NewMapping adds a mapping.
func (s *ServiceFixed) NewMapping() *MappingFixed {
	m := &MappingFixed{extAddresses: map[string]Address{}}
	s.mut.Lock()
	s.mappings = append(s.mappings, m)
	s.mut.Unlock()
	return m
}

// RemoveMapping removes mapping and clears its addresses.
func (s *ServiceFixed) RemoveMapping(mapping *MappingFixed) {
	s.mut.Lock()
	defer s.mut.Unlock()
	for i, existing := range s.mappings {
		if existing == mapping {
			mapping.clearAddresses()
			s.mappings = append(s.mappings[:i], s.mappings[i+1:]...)
			return
		}
	}
}
