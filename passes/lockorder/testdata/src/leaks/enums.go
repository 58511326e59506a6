package leaks

import "sync"

// An offset store reads a queue's offset from memory, from the broker, or
// from memory then the broker. The switch names all three read types, so
// its default, which would return with the read lock held, cannot run:
// readType is unexported, and the package declares only those three.

type readType int

const (
	readFromMemory readType = iota
	readFromStore
	readMemoryThenStore
)

type OffsetStore struct {
	mu      sync.RWMutex
	offsets map[string]int64
	fetch   func(queue string) (int64, error)
}

func (s *OffsetStore) Read(queue string, t readType) (int64, error) {
	s.mu.RLock()
	switch t {
	case readFromMemory, readMemoryThenStore:
		if off, ok := s.offsets[queue]; ok {
			s.mu.RUnlock()
			return off, nil
		}
		s.mu.RUnlock()
		return -1, nil
	case readFromStore:
		s.mu.RUnlock()
		return s.fetch(queue)
	default:
	}
	return -1, nil
}

// ReadMode is the exported twin of readType: other packages can convert
// any number to it, so a switch that names its three constants can still
// reach its default, and the default returns with the lock held.
type ReadMode int

const (
	ReadFromMemory ReadMode = iota
	ReadFromStore
	ReadMemoryThenStore
)

type ModeOffsetStore struct {
	mu      sync.RWMutex
	offsets map[string]int64
	fetch   func(queue string) (int64, error)
}

func (s *ModeOffsetStore) Read(queue string, t ReadMode) (int64, error) {
	s.mu.RLock()
	switch t {
	case ReadFromMemory, ReadMemoryThenStore:
		if off, ok := s.offsets[queue]; ok {
			s.mu.RUnlock()
			return off, nil
		}
		s.mu.RUnlock()
		return -1, nil
	case ReadFromStore:
		s.mu.RUnlock()
		return s.fetch(queue)
	default:
	}
	return -1, nil // want `return with s.mu held, but other paths of Read release it \(locked at enums.go:\d+\): the next Lock of it waits forever`
}
