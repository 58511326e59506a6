package haslock

import "testing"

// A deadlocking test hangs CI: lockorder reports it in _test.go files too.
func TestExpire(t *testing.T) {
	s := &Stream{msgs: map[uint64][]byte{1: nil}}
	s.mu.Lock()
	s.removeMsg(1, true) // want `s.mu locked again through call of \(\*Stream\).removeMsg while held \(locked at haslock_test.go:8\)`
	s.mu.Unlock()
}
