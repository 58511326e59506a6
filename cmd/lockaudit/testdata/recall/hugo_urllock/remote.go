// Models hugo#3251 (GoKer hugo_3251): URLLock holds the map's RWMutex while it blocks on the per-URL mutex, and URLUnlock needs the map's read lock to release that per-URL mutex (hold A, wait B; B's holder needs A).
package hugo_urllock

import (
	"errors"
	"strings"
	"sync"
)

// remoteLock serialises downloads of the same URL. Buggy version.
type remoteLock struct {
	sync.RWMutex
	m map[string]*sync.Mutex
}

var remoteURLLock = &remoteLock{m: make(map[string]*sync.Mutex)}

// URLLock locks url for a download.
func (l *remoteLock) URLLock(url string) {
	l.Lock()
	if _, ok := l.m[url]; !ok {
		l.m[url] = &sync.Mutex{}
	}
	l.m[url].Lock() // BUG: waits for the URL's holder while holding l
	l.Unlock()
}

// URLUnlock releases url.
func (l *remoteLock) URLUnlock(url string) {
	l.RLock()
	defer l.RUnlock()
	if um, ok := l.m[url]; ok {
		um.Unlock()
	}
}

// resGetRemote downloads url once per concurrent caller.
func resGetRemote(url string, fetch func(string) ([]byte, error)) ([]byte, error) {
	if !strings.HasPrefix(url, "http") {
		return nil, errors.New("not a remote URL")
	}
	remoteURLLock.URLLock(url)
	defer func() { remoteURLLock.URLUnlock(url) }()
	return fetch(url)
}

// remoteLockFixed is the fixed version: it looks the URL's mutex up under
// l and locks it after releasing l (as hugo did).
type remoteLockFixed struct {
	sync.RWMutex
	m map[string]*sync.Mutex
}

var remoteURLLockFixed = &remoteLockFixed{m: make(map[string]*sync.Mutex)}

// URLLock locks url for a download.
func (l *remoteLockFixed) URLLock(url string) {
	l.Lock()
	lock, ok := l.m[url]
	if !ok {
		lock = &sync.Mutex{}
		l.m[url] = lock
	}
	l.Unlock()
	lock.Lock()
}

// URLUnlock releases url.
func (l *remoteLockFixed) URLUnlock(url string) {
	l.RLock()
	defer l.RUnlock()
	if um, ok := l.m[url]; ok {
		um.Unlock()
	}
}

// resGetRemoteFixed downloads url once per concurrent caller.
func resGetRemoteFixed(url string, fetch func(string) ([]byte, error)) ([]byte, error) {
	if !strings.HasPrefix(url, "http") {
		return nil, errors.New("not a remote URL")
	}
	remoteURLLockFixed.URLLock(url)
	defer func() { remoteURLLockFixed.URLUnlock(url) }()
	return fetch(url)
}
