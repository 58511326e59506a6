package digest

import (
	"crypto/sha256"
	"os"
	"sync"
)

// A fork-join nested in a worker is computation only while nothing it
// starts takes a lock or waits: a second join in the same helper whose
// goroutines record stats under the keyring's lock, or a helper handed
// that lock, deadlocks a caller holding it, and a fork-join over files is
// a wait on the disk whatever order the package declares things in.

// Ledger keeps key digests and statistics about them.
type Ledger struct {
	mu      sync.Mutex
	digests map[string][32]byte
	hashed  int
	wg      sync.WaitGroup
	paths   []string
}

// Close waits for the background loads Load started, with the ledger
// locked: they read files.
func (l *Ledger) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wg.Wait() // want `l.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at rebuild.go:\d+, released by defer\)`
	l.digests = nil
}

// Load reads and hashes the ledger's files in the background.
func (l *Ledger) Load() {
	l.wg.Go(func() { _ = readAll(l.paths) })
}

// readAll reads every file on a goroutine of its own.
func readAll(paths []string) [][]byte {
	out := make([][]byte, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() { out[i], _ = os.ReadFile(p) })
	}
	wg.Wait()
	return out
}

// Rehash recomputes every digest on its own goroutine under the lock.
// Each goroutine hashes (a free fork-join), then counts its work on
// goroutines that take the ledger's lock: they never get it.
func (l *Ledger) Rehash(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = l.hashCounted(in) })
	}
	wg.Wait() // want `l.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at rebuild.go:\d+, released by defer\)`
}

// hashCounted hashes in on a goroutine, then adds to the ledger's count
// on another: two joins, the first free, the second taking the lock.
func (l *Ledger) hashCounted(in []byte) [32]byte {
	var sum [32]byte
	var hashing sync.WaitGroup
	hashing.Go(func() { sum = sha256.Sum256(in) })
	hashing.Wait()
	var counting sync.WaitGroup
	counting.Go(func() {
		l.mu.Lock()
		l.hashed++
		l.mu.Unlock()
	})
	counting.Wait()
	return sum
}

// RehashTallied is Rehash with the counting helper handed the lock: the
// same deadlock, through a parameter.
func (l *Ledger) RehashTallied(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = tallied(&l.mu, &l.hashed, in) })
	}
	wg.Wait() // want `l.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at rebuild.go:\d+, released by defer\)`
}

// tallied hashes in and counts it under mu, on a goroutine of its own.
func tallied(mu *sync.Mutex, n *int, in []byte) [32]byte {
	var wg sync.WaitGroup
	wg.Go(func() {
		mu.Lock()
		*n++
		mu.Unlock()
	})
	wg.Wait()
	return Sum(in)
}

// RehashQuiet is the silent twin: the workers only hash, and the count is
// kept by the caller, who holds the lock.
func (l *Ledger) RehashQuiet(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	sums := make([][32]byte, 0, len(inputs))
	var sumsMu sync.Mutex
	for _, in := range inputs {
		wg.Go(func() {
			s := Sum(in)
			sumsMu.Lock()
			sums = append(sums, s)
			sumsMu.Unlock()
		})
	}
	wg.Wait()
	l.hashed += len(sums)
}
