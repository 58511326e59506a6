package precision

import (
	"crypto/sha256"
	"os"
	"sync"
)

// A config watcher: its one event loop, started on each new watcher,
// re-hashes the watched files under a lock nothing else takes.

type ConfigWatcher struct {
	events   chan string
	mu       sync.Mutex
	hashes   map[string][32]byte
	onChange func()
}

func NewConfigWatcher(files []string, onChange func()) *ConfigWatcher {
	w := &ConfigWatcher{events: make(chan string), hashes: map[string][32]byte{}, onChange: onChange}
	for _, f := range files {
		w.hashes[f] = [32]byte{}
	}
	go w.watch()
	return w
}

func (w *ConfigWatcher) Notify(file string) { w.events <- file }

func (w *ConfigWatcher) watch() {
	for range w.events {
		changed := false
		w.mu.Lock()
		for file, old := range w.hashes {
			if sum := hashConfig(file); sum != old { // want `w.mu held across call of hashConfig, which blocks: hashConfig -> os.ReadFile \(locked at workeronly.go:\d+\) \(plausible: w.mu is taken only by its object's one background goroutine\)`
				w.hashes[file], changed = sum, true
			}
		}
		w.mu.Unlock()
		if changed {
			w.onChange()
		}
	}
}

func hashConfig(file string) [32]byte {
	b, _ := os.ReadFile(file)
	return sha256.Sum256(b)
}

// The same watcher, whose hashes its users also read: they wait for the
// loop's file reads.

type SharedWatcher struct {
	events chan string
	mu     sync.Mutex
	hashes map[string][32]byte
}

func NewSharedWatcher(files []string) *SharedWatcher {
	w := &SharedWatcher{events: make(chan string), hashes: map[string][32]byte{}}
	for _, f := range files {
		w.hashes[f] = [32]byte{}
	}
	go w.watch()
	return w
}

func (w *SharedWatcher) Hash(file string) [32]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hashes[file]
}

func (w *SharedWatcher) watch() {
	for range w.events {
		w.mu.Lock()
		for file := range w.hashes {
			w.hashes[file] = hashConfig(file) // want `w.mu held across call of hashConfig, which blocks: hashConfig -> os.ReadFile \(locked at workeronly.go:\d+\)$`
		}
		w.mu.Unlock()
	}
}

// A watcher whose loop its users may start more than once: two loops
// contend for the lock.

type RestartableWatcher struct {
	events chan string
	mu     sync.Mutex
	hashes map[string][32]byte
}

func (w *RestartableWatcher) Start() { go w.watch() }

func (w *RestartableWatcher) watch() {
	for range w.events {
		w.mu.Lock()
		for file := range w.hashes {
			w.hashes[file] = hashConfig(file) // want `w.mu held across call of hashConfig, which blocks: hashConfig -> os.ReadFile \(locked at workeronly.go:\d+\)$`
		}
		w.mu.Unlock()
	}
}
