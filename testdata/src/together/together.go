// Package together has a finding for each of lockaudit's analyzers, which
// TestAnalyzersTogether runs in one driver, as go vet and golangci-lint do:
// they share the lockfacts result and query it at the same time.
package together

import (
	"hash/fnv"
	"os"
	"sync"
)

type shard struct {
	mu   sync.Mutex
	keys map[string][]byte
}

// Index is sharded, with one lock put back above the shards.
type Index struct {
	mu     sync.Mutex
	shards [16]shard
	log    *os.File
	onPut  func(key string)
}

func New(log *os.File, onPut func(key string)) *Index {
	ix := &Index{log: log, onPut: onPut}
	for i := range ix.shards {
		ix.shards[i].keys = map[string][]byte{}
	}
	return ix
}

func (ix *Index) shardFor(key string) *shard {
	h := fnv.New32a()
	h.Write([]byte(key))
	return &ix.shards[h.Sum32()%16]
}

// Put holds the index lock above the shard's (shardlock), writes the log
// and calls the user's hook under it (heldcall).
func (ix *Index) Put(key string, v []byte) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	sh := ix.shardFor(key)
	sh.mu.Lock()
	sh.keys[key] = v
	sh.mu.Unlock()
	ix.log.Write(v)
	ix.onPut(key)
}

// Len locks the index again while Put's caller holds it (lockorder).
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.shards)
}

func (ix *Index) PutAndCount(key string, v []byte) int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.shards[0].keys[key] = v
	return ix.Len()
}
