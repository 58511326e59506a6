// Package cmtsync wraps the sync package's mutexes, as projects do that
// swap in a deadlock detector under a build tag.
package cmtsync

import "sync"

// Mutex is a sync.Mutex.
type Mutex struct{ sync.Mutex }

// RWMutex is a sync.RWMutex.
type RWMutex struct{ sync.RWMutex }
