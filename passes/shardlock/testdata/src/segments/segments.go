// Package segments holds locks that look like shards but are not: each is
// next to a real shard lock under its owner's lock, which is reported.
package segments

import (
	"hash/fnv"
	"sync"
)

// Log is a write-ahead log: each segment points back at the log's file
// set, whose lock is one global lock, not a shard's.
type Log struct {
	mu    sync.Mutex
	files *FileSet
	segs  []*Segment
}

type FileSet struct {
	mu    sync.Mutex
	count int
}

type Segment struct {
	mu    sync.Mutex
	owner *FileSet
	data  []byte
}

// Rotate holds the log's lock while a segment's back-pointer lock is
// taken: the file set's lock is not a shard lock. Not a finding.
func (l *Log) Rotate(i int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.segs[i].owner.mu.Lock()
	l.segs[i].owner.count++
	l.segs[i].owner.mu.Unlock()
}

// Append grows the segment list under the log's lock: the lock is the
// collection's own guard, the segments a growing list, not a fixed
// partition. Locking the newest segment under it is not a finding.
func (l *Log) Append(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.segs) == 0 || len(l.segs[len(l.segs)-1].data) > 1<<20 {
		l.segs = append(l.segs, &Segment{owner: l.files})
	}
	n := len(l.segs) - 1
	l.segs[n].mu.Lock()
	l.segs[n].data = append(l.segs[n].data, b...)
	l.segs[n].mu.Unlock()
}

// Trim drops old segments under the same guard.
func (l *Log) Trim(keep int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.segs) > keep {
		l.segs = l.segs[len(l.segs)-keep:]
	}
}

// Index is a sharded map: a slice of shard pointers built once, picked by
// hash.
type Index struct {
	mu     sync.RWMutex
	shards []*shard // want shards:"shardlock\\(fixed partition\\)"
	frozen bool
}

type shard struct {
	mu   sync.Mutex
	keys map[string]int
}

func NewIndex(n int) *Index {
	ix := &Index{shards: make([]*shard, n)}
	for i := range ix.shards {
		ix.shards[i] = &shard{keys: map[string]int{}}
	}
	return ix
}

func (ix *Index) shardFor(key string) *shard {
	h := fnv.New32a()
	h.Write([]byte(key))
	return ix.shards[h.Sum32()%uint32(len(ix.shards))]
}

// PutHeld keeps the index-wide lock above the shard's.
func (ix *Index) PutHeld(key string, v int) {
	ix.mu.RLock() // want `ix.mu is held above the shard lock sh.mu \(taken at segments.go:98\): one lock serialises the shards again`
	defer ix.mu.RUnlock()
	if ix.frozen {
		return
	}
	sh := ix.shardFor(key)
	sh.mu.Lock()
	sh.keys[key] = v
	sh.mu.Unlock()
}

// Put is its twin: the frozen flag is read, and the index lock released,
// before the shard's lock is taken.
func (ix *Index) Put(key string, v int) {
	ix.mu.RLock()
	frozen := ix.frozen
	ix.mu.RUnlock()
	if frozen {
		return
	}
	sh := ix.shardFor(key)
	sh.mu.Lock()
	sh.keys[key] = v
	sh.mu.Unlock()
}

// Stats belongs to another object: holding its lock while a shard of the
// index is locked is lockorder's business, not a lock above the shards.
type Stats struct {
	mu   sync.Mutex
	puts int
	ix   *Index
}

func (s *Stats) Put(key string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	sh := s.ix.shardFor(key)
	sh.mu.Lock()
	sh.keys[key] = v
	sh.mu.Unlock()
}
