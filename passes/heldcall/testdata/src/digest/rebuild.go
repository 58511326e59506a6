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

// auditTrail records which digests were recomputed, under its own lock.
type auditTrail struct {
	mu      sync.Mutex
	entries []string
}

var trail auditTrail

// RehashAudited is RehashTallied with the helper also writing to the
// audit trail: a lock the outer join can name does not make the ledger's
// lock, handed in by pointer, any less taken.
func (l *Ledger) RehashAudited(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = audited(&l.mu, &l.hashed, k, in) })
	}
	wg.Wait() // want `l.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at rebuild.go:\d+, released by defer\)`
}

// audited is tallied, with an entry in the audit trail.
func audited(mu *sync.Mutex, n *int, key string, in []byte) [32]byte {
	var wg sync.WaitGroup
	wg.Go(func() {
		trail.mu.Lock()
		trail.entries = append(trail.entries, key)
		trail.mu.Unlock()
		mu.Lock()
		*n++
		mu.Unlock()
	})
	wg.Wait()
	return Sum(in)
}

// RehashAuditedQuiet is RehashAudited whose helper only writes the audit
// trail, a lock the ledger's holder does not hold: not a finding.
func (l *Ledger) RehashAuditedQuiet(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = auditedOnly(k, in) })
	}
	wg.Wait()
}

// auditedOnly hashes in and records key in the audit trail.
func auditedOnly(key string, in []byte) [32]byte {
	var wg sync.WaitGroup
	wg.Go(func() {
		trail.mu.Lock()
		trail.entries = append(trail.entries, key)
		trail.mu.Unlock()
	})
	wg.Wait()
	return Sum(in)
}

// RehashChunked rehashes every input on its own goroutine under the
// lock, each input's chunks on goroutines of their own that collect
// their sums under a mutex of the helper's: a lock no caller can hold, so
// the nested fork-join is computation. Not a finding.
func (l *Ledger) RehashChunked(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = chunked(in, 1024) })
	}
	wg.Wait()
}

// chunked hashes in a chunk per goroutine and folds the chunk sums.
func chunked(in []byte, size int) [32]byte {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		sums [][32]byte
	)
	for off := 0; off < len(in); off += size {
		chunk := in[off:min(off+size, len(in))]
		wg.Go(func() {
			s := Sum(chunk)
			mu.Lock()
			sums = append(sums, s)
			mu.Unlock()
		})
	}
	wg.Wait()
	var all []byte
	for _, s := range sums {
		all = append(all, s[:]...)
	}
	return Sum(all)
}

func (l *Ledger) statsLock() *sync.Mutex { return &l.mu }

// RehashCounted is RehashAudited with the helper taking the ledger's lock
// through its accessor: a lock the helper did not make, which the caller
// holds.
func (l *Ledger) RehashCounted(inputs map[string][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wg sync.WaitGroup
	for k, in := range inputs {
		wg.Go(func() { l.digests[k] = l.counted(in) })
	}
	wg.Wait() // want `l.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at rebuild.go:\d+, released by defer\)`
}

// counted hashes in and counts it under the ledger's lock, on a goroutine
// of its own.
func (l *Ledger) counted(in []byte) [32]byte {
	mu := l.statsLock()
	var wg sync.WaitGroup
	wg.Go(func() {
		mu.Lock()
		l.hashed++
		mu.Unlock()
	})
	wg.Wait()
	return Sum(in)
}
