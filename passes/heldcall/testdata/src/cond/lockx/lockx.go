// Package lockx has mutexes that add deadlock detection in debug builds,
// in the shape of Cilium's pkg/lock: the sync lock is embedded twice down,
// and Lock and Unlock are promoted from it.
package lockx

import "sync"

type internalMutex struct{ sync.Mutex }

// UnlockIgnoreTime unlocks without reporting the hold time.
func (i *internalMutex) UnlockIgnoreTime() { i.Mutex.Unlock() }

// Mutex is a sync.Mutex with debugging hooks.
type Mutex struct{ internalMutex }
