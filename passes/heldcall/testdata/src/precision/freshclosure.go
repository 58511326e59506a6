package precision

import (
	"os"
	"strings"
	"sync"
)

// fieldIndex maps measurements to their fields; it is persisted to a file
// and loaded when it is built.
type fieldIndex struct {
	mu     sync.RWMutex
	path   string
	fields map[string][]string
}

// newFieldIndex builds an index and loads it before anyone else can see
// it.
func newFieldIndex(path string) (*fieldIndex, error) {
	fx := &fieldIndex{path: path, fields: map[string][]string{}}
	return fx, fx.load()
}

// load reads the file under the lock, inside a func literal called in
// place, on the index newFieldIndex has just made: the lock is
// uncontended. Not a finding.
func (fx *fieldIndex) load() error {
	err := func() error {
		fx.mu.Lock()
		defer fx.mu.Unlock()
		b, err := os.ReadFile(fx.path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			name, fields, _ := strings.Cut(line, " ")
			fx.fields[name] = strings.Fields(fields)
		}
		return nil
	}()
	return err
}

// reload is its twin: the same literal, but on an index the shards and
// the query path already share.
func (fx *fieldIndex) reload() error {
	err := func() error {
		fx.mu.Lock()
		defer fx.mu.Unlock()
		b, err := os.ReadFile(fx.path) // want `fx.mu held across call of os.ReadFile \(locked at freshclosure.go:48, released by defer\)`
		if err != nil {
			return err
		}
		fx.fields = map[string][]string{"": strings.Fields(string(b))}
		return nil
	}()
	return err
}

// Fields returns a measurement's fields.
func (fx *fieldIndex) Fields(name string) []string {
	fx.mu.RLock()
	defer fx.mu.RUnlock()
	return fx.fields[name]
}

// indexes holds the open field indexes.
var indexes struct {
	sync.Mutex
	byPath map[string]*fieldIndex
}

// OpenFieldIndex builds the index and publishes it; Reload re-reads it.
func OpenFieldIndex(path string) (*fieldIndex, error) {
	fx, err := newFieldIndex(path)
	if err != nil {
		return nil, err
	}
	indexes.Lock()
	indexes.byPath[path] = fx
	indexes.Unlock()
	return fx, nil
}

// Reload re-reads every open index.
func Reload() error {
	indexes.Lock()
	open := make([]*fieldIndex, 0, len(indexes.byPath))
	for _, fx := range indexes.byPath {
		open = append(open, fx)
	}
	indexes.Unlock()
	for _, fx := range open {
		if err := fx.reload(); err != nil {
			return err
		}
	}
	return nil
}

// rotatedLog is a log that writers append to and followers read.
type rotatedLog struct {
	fsopMu sync.RWMutex
	name   string
}

// follower tails one rotatedLog; each reader makes its own.
type follower struct {
	file *rotatedLog
	f    *os.File
}

// Follow makes a follower of a shared log and opens the file.
func Follow(lf *rotatedLog) (*follower, error) {
	fl := &follower{file: lf}
	return fl, fl.reopen()
}

// reopen reopens the file under the log's lock, in a func literal called
// in place, on the follower Follow has just made. The follower is new,
// but the lock is the log's, which writers take to rotate it.
func (fl *follower) reopen() error {
	var err error
	func() {
		fl.file.fsopMu.RLock()
		defer fl.file.fsopMu.RUnlock()
		fl.f, err = os.Open(fl.file.name) // want `fl.file.fsopMu held across call of os.Open \(locked at freshclosure.go:\d+, released by defer\)`
	}()
	return err
}
