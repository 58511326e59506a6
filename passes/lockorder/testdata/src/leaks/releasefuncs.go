package leaks

import (
	"errors"
	"sync"
)

// A volume server lets a load of a volume run only when no copy of it is
// in flight: the volume's copy guard is taken for the load and handed back
// with its Unlock, which the load calls once it has registered the volume.

type copyGuard struct {
	sync.Mutex
	copying bool
}

// forLoad takes the guard for a load; on success its Unlock goes back with
// it.
func (g *copyGuard) forLoad() (release func(), skip bool) {
	if !g.TryLock() {
		return func() {}, true
	}
	if g.copying {
		g.Unlock()
		return func() {}, true
	}
	return g.Unlock, false
}

// errCopying says a copy of the volume is in flight.
var errCopying = errors.New("volume copy in flight")

// forLoadLost is its twin, with a leak on the copy path: the error return
// forgets the guard.
func (g *copyGuard) forLoadLost() (release func(), err error) {
	g.Lock()
	if g.copying {
		return nil, errCopying // want `return with g.Mutex held, but other paths of forLoadLost release it`
	}
	return g.Unlock, nil
}
