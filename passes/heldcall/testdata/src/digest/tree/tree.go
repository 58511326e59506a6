// Package tree compresses the chunks of a span in parallel: each chunk on
// a goroutine of its own, joined before the span's root is returned.
package tree

import (
	"crypto/sha256"
	"os"
	"sync"
)

// CompressSpan hashes each chunk of span on its own goroutine and folds
// the chunk hashes into one root.
func CompressSpan(span []byte, chunk int) [32]byte {
	n := (len(span) + chunk - 1) / chunk
	sums := make([][32]byte, n)
	var wg sync.WaitGroup
	for i := range sums {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			end := min((i+1)*chunk, len(span))
			sums[i] = sha256.Sum256(span[i*chunk : end])
		}(i)
	}
	wg.Wait()
	return fold(sums)
}

// LoadSpan is CompressSpan over chunk files: each goroutine reads its
// chunk from disk before it hashes it.
func LoadSpan(paths []string) [32]byte {
	sums := make([][32]byte, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func(i int, p string) {
			defer wg.Done()
			b, _ := os.ReadFile(p)
			sums[i] = sha256.Sum256(b)
		}(i, p)
	}
	wg.Wait()
	return fold(sums)
}

func fold(sums [][32]byte) [32]byte {
	h := sha256.New()
	for _, s := range sums {
		h.Write(s[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
