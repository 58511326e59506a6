package readers // want package:"10 lock-order edges"

import "sync"

// A block store keeps its blocks in sets, each with its own RWMutex. A
// set's lookup read-locks it again as it recurses into the set's
// resolution levels. The set is written only by the store's addBlock and
// removeBlock, under the store's lock held for writing, and read by the
// store's queries under its read side: no writer of a set can queue
// between a query's two read locks, so the recursion cannot deadlock. A
// store that also adds blocks without its lock keeps the finding.

type blockSet struct {
	mtx    sync.RWMutex
	blocks [][]string
}

func (s *blockSet) add(level int, id string) {
	s.mtx.Lock()
	defer s.mtx.Unlock()
	for len(s.blocks) <= level {
		s.blocks = append(s.blocks, nil)
	}
	s.blocks[level] = append(s.blocks[level], id)
}

func (s *blockSet) getFor(level int) []string {
	s.mtx.RLock()
	defer s.mtx.RUnlock()
	if level >= len(s.blocks) {
		return nil
	}
	out := s.blocks[level]
	if len(out) == 0 && level > 0 {
		out = s.getFor(level - 1)
	}
	return out
}

// BlockStore serves queries over its block sets.
type BlockStore struct {
	mtx  sync.RWMutex
	sets map[string]*blockSet
}

// AddBlock adds a block under the store's lock.
func (st *BlockStore) AddBlock(tenant string, level int, id string) {
	st.mtx.Lock()
	defer st.mtx.Unlock()
	set := st.sets[tenant]
	if set == nil {
		set = &blockSet{}
		st.sets[tenant] = set
	}
	set.add(level, id)
}

// Series reads a tenant's blocks under the store's read lock. Not a
// finding.
func (st *BlockStore) Series(tenant string, level int) []string {
	st.mtx.RLock()
	defer st.mtx.RUnlock()
	if set := st.sets[tenant]; set != nil {
		return set.getFor(level)
	}
	return nil
}

type chunkSet struct {
	mtx    sync.RWMutex
	chunks [][]string
}

func (s *chunkSet) add(level int, id string) {
	s.mtx.Lock()
	defer s.mtx.Unlock()
	for len(s.chunks) <= level {
		s.chunks = append(s.chunks, nil)
	}
	s.chunks[level] = append(s.chunks[level], id)
}

func (s *chunkSet) getFor(level int) []string {
	s.mtx.RLock()
	defer s.mtx.RUnlock()
	if level >= len(s.chunks) {
		return nil
	}
	out := s.chunks[level]
	if len(out) == 0 && level > 0 {
		out = s.getFor(level - 1) // want `s.mtx read-locked again through call of \(\*chunkSet\).getFor while held \(locked at blocksets.go:\d+\)`
	}
	return out
}

// ChunkStore is BlockStore whose Backfill adds chunks without the store's
// lock: a writer of a set can queue between a query's read locks.
type ChunkStore struct {
	mtx  sync.RWMutex
	sets map[string]*chunkSet
}

// AddChunk adds a chunk under the store's lock.
func (st *ChunkStore) AddChunk(tenant string, level int, id string) {
	st.mtx.Lock()
	defer st.mtx.Unlock()
	st.sets[tenant].add(level, id)
}

// Backfill adds a chunk with the store's lock not held.
func (st *ChunkStore) Backfill(set *chunkSet, level int, id string) {
	set.add(level, id)
}

// Series reads a tenant's chunks under the store's read lock.
func (st *ChunkStore) Series(tenant string, level int) []string {
	st.mtx.RLock()
	defer st.mtx.RUnlock()
	if set := st.sets[tenant]; set != nil {
		return set.getFor(level)
	}
	return nil
}
