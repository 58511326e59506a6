package keylocks // want package:"7 lock-order edges"

import "sync"

// URLLocks serialises the downloads of each URL: LockURL returns with the
// URL's lock held, and the download's UnlockURL releases it.
type URLLocks struct {
	mu    sync.RWMutex
	byURL map[string]*sync.Mutex
}

// LockURL waits for the URL's lock while holding the map's: the map's
// lock, then the URL's.
func (l *URLLocks) LockURL(url string) {
	l.mu.Lock()
	if _, ok := l.byURL[url]; !ok {
		l.byURL[url] = &sync.Mutex{}
	}
	l.byURL[url].Lock() // want `l.byURL\[url\] locked while holding l.mu \(locked at handoff.go:15\); the opposite order is taken at handoff.go:27: lock-order inversion`
	l.mu.Unlock()
}

// UnlockURL read-locks the map to find the URL's lock, which its caller
// holds: the URL's lock, then the map's. A download that finishes while
// LockURL waits for its URL, holding the map, never gets the map.
func (l *URLLocks) UnlockURL(url string) {
	l.mu.RLock() // want `l.mu locked while holding um \(held from the caller, released at handoff.go:30\); the opposite order is taken at handoff.go:19: lock-order inversion`
	defer l.mu.RUnlock()
	if um, ok := l.byURL[url]; ok {
		um.Unlock()
	}
}

// FileLocks is its twin: LockFile releases the map's lock before it waits
// for the file's, so the map's lock is never held while a file's is
// awaited, and UnlockFile's order is the only one.
type FileLocks struct {
	mu     sync.RWMutex
	byPath map[string]*sync.Mutex
}

// LockFile looks the file's lock up under the map's, then waits for it.
func (l *FileLocks) LockFile(path string) {
	l.mu.Lock()
	lock, ok := l.byPath[path]
	if !ok {
		lock = &sync.Mutex{}
		l.byPath[path] = lock
	}
	l.mu.Unlock()
	lock.Lock()
}

// UnlockFile releases the file's lock, found under the map's.
func (l *FileLocks) UnlockFile(path string) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if lock, ok := l.byPath[path]; ok {
		lock.Unlock()
	}
}

// Forks counts the goroutines forking: the first takes the exec lock for
// all of them and the last releases it, each under the counter's lock.
// The releaser need not be the goroutine that took the exec lock, so its
// release orders nothing: not an inversion.
type Forks struct {
	countMu sync.Mutex
	forking int
	execMu  sync.RWMutex
}

// Acquire takes the exec lock for the first forker: the counter's lock,
// then the exec lock.
func (f *Forks) Acquire() {
	f.countMu.Lock()
	defer f.countMu.Unlock()
	if f.forking > 0 {
		f.forking++
		return
	}
	f.execMu.Lock()
	f.forking++
}

// Release lets the last forker release the exec lock.
func (f *Forks) Release() {
	f.countMu.Lock()
	defer f.countMu.Unlock()
	f.forking--
	if f.forking == 0 {
		f.execMu.Unlock()
	}
}
