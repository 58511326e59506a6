// Package volumestore holds the cases of a project's own logger: a log
// line written under the store's lock through a package that is a logger
// by its name and its exported verbs is not a finding, as for the
// well-known logging modules; a write-ahead log in a package named log is.
package volumestore

import (
	"sync"

	"volumestore/glog"
	"volumestore/log"
)

type Volume struct {
	ID   uint32
	Size int64
}

// A Store keeps the server's mounted volumes.
type Store struct {
	mu      sync.Mutex
	volumes map[uint32]*Volume
	wal     *log.Log
}

// Mount logs the mount under the lock through the server's own logger:
// silent.
func (s *Store) Mount(v *Volume) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.volumes[v.ID]; ok {
		glog.Warningf("volume %d already mounted", v.ID)
		return
	}
	s.volumes[v.ID] = v
	glog.Infof("mounted volume %d (%d bytes)", v.ID, v.Size)
}

// Delete records the deletion in the write-ahead log under the lock: the
// append is a file write every Mount waits behind.
func (s *Store) Delete(id uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.volumes, id)
	return s.wal.Append([]byte{byte(id)}) // want `s.mu held across call of log.\(\*Log\).Append, which blocks: log.\(\*Log\).Append -> os.\(\*File\).Write \(locked at volumestore.go:42, released by defer\)`
}

// DeleteLogged is Delete's twin: the record is appended after the lock is
// released, and only the log line stays under it.
func (s *Store) DeleteLogged(id uint32) error {
	s.mu.Lock()
	delete(s.volumes, id)
	glog.Infof("deleted volume %d", id)
	s.mu.Unlock()
	return s.wal.Append([]byte{byte(id)})
}
