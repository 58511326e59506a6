// Package digest hashes large inputs as a tree: spans are compressed in
// parallel, and each span compresses its chunks in parallel again (in
// package tree). A caller that holds a lock while it hashes waits only for
// that computation: the nested fork-join is not a wait on anything else.
// A span loaded from chunk files is a wait on the disk.
package digest

import (
	"sync"

	"digest/tree"
)

const spanSize = 1 << 20

// Sum hashes data, span by span, each span on its own goroutine.
func Sum(data []byte) [32]byte {
	roots := make([][32]byte, (len(data)+spanSize-1)/spanSize)
	var wg sync.WaitGroup
	for i := range roots {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			end := min((i+1)*spanSize, len(data))
			roots[i] = tree.CompressSpan(data[i*spanSize:end], 1024)
		}(i)
	}
	wg.Wait()
	return roots[0]
}

// SumFiles hashes spans stored as chunk files, one span per goroutine.
func SumFiles(spans [][]string) [32]byte {
	roots := make([][32]byte, len(spans))
	var wg sync.WaitGroup
	for i, paths := range spans {
		wg.Add(1)
		go func(i int, paths []string) {
			defer wg.Done()
			roots[i] = tree.LoadSpan(paths)
		}(i, paths)
	}
	wg.Wait()
	return roots[0]
}

// Keyring derives user keys from passwords under its lock.
type Keyring struct {
	mu   sync.Mutex
	keys map[string][32]byte
}

// Add derives the user's key: hashing is computation, not a finding.
func (k *Keyring) Add(user string, password []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[user] = Sum(password)
}

// AddFromFiles derives the key from key files, read while the lock is
// held.
func (k *Keyring) AddFromFiles(user string, spans [][]string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[user] = SumFiles(spans) // want `k.mu held across call of SumFiles, which blocks: SumFiles -> sync.\(\*WaitGroup\).Wait`
}
