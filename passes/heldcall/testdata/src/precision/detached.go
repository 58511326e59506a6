package precision

import (
	"reflect"
	"sync"

	"symcheck"
)

// schemaCache checks, under its lock, that a new schema version is equal
// to the cached one. symcheck waits for a goroutine it starts, which runs
// the comparison and reports on the channel it was handed: a join with a
// short step, not a wait.
type schemaCache struct {
	mu      sync.Mutex
	current reflect.Value
	equal   reflect.Value
	audit   string
}

func (c *schemaCache) unchanged(next reflect.Value) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return symcheck.Equal(c.equal, c.current, next)
}

// unchangedLogged is its twin whose goroutine writes a file before it
// answers: the wait lasts as long as the write.
func (c *schemaCache) unchangedLogged(next reflect.Value) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return symcheck.Logged(c.equal, c.current, next, c.audit) // want `c.mu held across call of symcheck.Logged, which blocks: symcheck.Logged -> channel receive \(locked at detached.go:30, released by defer\)`
}
