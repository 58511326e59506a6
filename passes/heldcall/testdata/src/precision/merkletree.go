package precision

import (
	"crypto/sha256"
	"sync"
)

// A Merkle tree rehashes its changed nodes under its commit lock, a
// subtree per goroutine while a slot of its buffer pool is free: each
// worker hashes its subtree the same way, recursively, and hands its key
// buffer back to the pool, which takes the pool's own lock. The waits are
// for computation the commit started itself. The hashing is done by the
// configured NodeHasher, which callers may supply: a hasher is pure by
// its role, as hash.Hash is. Workers that take the commit lock, or a
// node sink that is not a hasher, keep the finding. Each positive is next
// to its silent twin.

// NodeHasher computes a node's digest; callers may configure their own.
type NodeHasher interface {
	HashNode(n *merkleNode) [32]byte
}

// NodeSink receives each hashed node; callers may configure their own.
type NodeSink interface {
	Visit(n *merkleNode)
}

type sha256Hasher struct{}

func (sha256Hasher) HashNode(n *merkleNode) [32]byte { return sha256.Sum256(n.key) }

type merkleNode struct {
	key      []byte
	children []*merkleNode
	id       [32]byte
}

// keyBufferPool lends key buffers, at most cap(slots) at a time.
type keyBufferPool struct {
	slots chan struct{}
	mu    sync.Mutex
	free  [][]byte
}

func (p *keyBufferPool) TryAcquire() ([]byte, bool) {
	select {
	case p.slots <- struct{}{}:
	default:
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		return make([]byte, 0, 64), true
	}
	b := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return b, true
}

func (p *keyBufferPool) Release(b []byte) {
	p.mu.Lock()
	p.free = append(p.free, b[:0])
	p.mu.Unlock()
	select {
	case <-p.slots:
	default:
		panic("release of a buffer the pool did not lend")
	}
}

// MerkleTree is a hashed tree of keys.
type MerkleTree struct {
	commitLock sync.Mutex
	hasher     NodeHasher
	sink       NodeSink
	pool       *keyBufferPool
	root       *merkleNode
}

// NewMerkleTree returns a tree hashed by h, or by SHA-256 when h is nil.
func NewMerkleTree(h NodeHasher, sink NodeSink) *MerkleTree {
	if h == nil {
		h = sha256Hasher{}
	}
	return &MerkleTree{hasher: h, sink: sink, pool: &keyBufferPool{slots: make(chan struct{}, 8)}}
}

func (t *MerkleTree) rehash(n *merkleNode) [32]byte {
	var wg sync.WaitGroup
	for _, c := range n.children {
		if len(c.children) == 0 {
			c.id = t.hasher.HashNode(c)
			continue
		}
		if buf, ok := t.pool.TryAcquire(); ok {
			wg.Add(1)
			go func(c *merkleNode, buf []byte) {
				defer wg.Done()
				c.id = t.rehash(c)
				t.pool.Release(append(buf, c.key...))
			}(c, buf)
		} else {
			c.id = t.rehash(c)
		}
	}
	wg.Wait()
	return t.hasher.HashNode(n)
}

// Commit rehashes the tree under the commit lock. Not a finding.
func (t *MerkleTree) Commit() [32]byte {
	t.commitLock.Lock()
	defer t.commitLock.Unlock()
	return t.rehash(t.root)
}

// rehashAudited is rehash, but each subtree's worker records the root it
// saw under the commit lock, which Commit holds while it waits.
func (t *MerkleTree) rehashAudited(n *merkleNode) [32]byte {
	var wg sync.WaitGroup
	for _, c := range n.children {
		if buf, ok := t.pool.TryAcquire(); ok {
			wg.Add(1)
			go func(c *merkleNode, buf []byte) {
				defer wg.Done()
				c.id = t.rehashAudited(c)
				t.commitLock.Lock()
				t.root.id = c.id
				t.commitLock.Unlock()
				t.pool.Release(buf)
			}(c, buf)
		}
	}
	wg.Wait()
	return t.hasher.HashNode(n)
}

// CommitAudited waits, holding the commit lock, for workers that take it.
func (t *MerkleTree) CommitAudited() [32]byte {
	t.commitLock.Lock()
	defer t.commitLock.Unlock()
	return t.rehashAudited(t.root) // want `t.commitLock held across call of \(\*MerkleTree\).rehashAudited, which blocks: \(\*MerkleTree\).rehashAudited -> sync.\(\*WaitGroup\).Wait`
}

// rehashVisited is rehash, but each worker also hands its subtree's root
// to the configured sink, code the tree's users supply.
func (t *MerkleTree) rehashVisited(n *merkleNode) [32]byte {
	var wg sync.WaitGroup
	for _, c := range n.children {
		if buf, ok := t.pool.TryAcquire(); ok {
			wg.Add(1)
			go func(c *merkleNode, buf []byte) {
				defer wg.Done()
				c.id = t.rehashVisited(c)
				t.sink.Visit(c)
				t.pool.Release(buf)
			}(c, buf)
		}
	}
	wg.Wait()
	return t.hasher.HashNode(n)
}

// CommitVisited waits, holding the commit lock, for workers that run the
// sink.
func (t *MerkleTree) CommitVisited() [32]byte {
	t.commitLock.Lock()
	defer t.commitLock.Unlock()
	return t.rehashVisited(t.root) // want `t.commitLock held across call of \(\*MerkleTree\).rehashVisited, which blocks: \(\*MerkleTree\).rehashVisited -> sync.\(\*WaitGroup\).Wait`
}

// lazyWaitGroup is a WaitGroup that allocates only when a goroutine is
// added: a tree whose nodes are mostly leaves never starts one. The
// group it keeps is the package's alone: made in Add, and handed only to
// the workers the package starts.
type lazyWaitGroup struct {
	wg *sync.WaitGroup
}

func (g *lazyWaitGroup) Add(delta int) {
	if g.wg == nil {
		g.wg = new(sync.WaitGroup)
	}
	g.wg.Add(delta)
}

func (g *lazyWaitGroup) Wait() {
	if g.wg != nil {
		g.wg.Wait()
	}
}

func (t *MerkleTree) rehashLazy(n *merkleNode) [32]byte {
	var wg lazyWaitGroup
	for _, c := range n.children {
		if buf, ok := t.pool.TryAcquire(); ok {
			wg.Add(1)
			go func(wg *sync.WaitGroup, c *merkleNode, buf []byte) {
				c.id = t.rehashLazy(c)
				t.pool.Release(buf)
				wg.Done()
			}(wg.wg, c, buf)
		} else {
			c.id = t.rehashLazy(c)
		}
	}
	wg.Wait()
	return t.hasher.HashNode(n)
}

// CommitLazy rehashes the tree under the commit lock, waiting through the
// lazy group. Not a finding.
func (t *MerkleTree) CommitLazy() [32]byte {
	t.commitLock.Lock()
	defer t.commitLock.Unlock()
	return t.rehashLazy(t.root)
}

// auditGroup is lazyWaitGroup for the audited rehash. A wrapper's Wait
// joins the workers of every group its field holds, so a wrapper shared
// with rehashLazy would make CommitLazy's wait one for these workers too.
type auditGroup struct {
	wg *sync.WaitGroup
}

func (g *auditGroup) Add(delta int) {
	if g.wg == nil {
		g.wg = new(sync.WaitGroup)
	}
	g.wg.Add(delta)
}

func (g *auditGroup) Wait() {
	if g.wg != nil {
		g.wg.Wait()
	}
}

// rehashLazyAudited is rehashLazy, but each worker records the root it
// saw under the commit lock.
func (t *MerkleTree) rehashLazyAudited(n *merkleNode) [32]byte {
	var wg auditGroup
	for _, c := range n.children {
		if buf, ok := t.pool.TryAcquire(); ok {
			wg.Add(1)
			go func(wg *sync.WaitGroup, c *merkleNode, buf []byte) {
				c.id = t.rehashLazyAudited(c)
				t.commitLock.Lock()
				t.root.id = c.id
				t.commitLock.Unlock()
				t.pool.Release(buf)
				wg.Done()
			}(wg.wg, c, buf)
		}
	}
	wg.Wait()
	return t.hasher.HashNode(n)
}

// CommitLazyAudited waits, holding the commit lock, for workers that take
// it.
func (t *MerkleTree) CommitLazyAudited() [32]byte {
	t.commitLock.Lock()
	defer t.commitLock.Unlock()
	return t.rehashLazyAudited(t.root) // want `t.commitLock held across call of \(\*MerkleTree\).rehashLazyAudited, which blocks: \(\*MerkleTree\).rehashLazyAudited -> \(\*auditGroup\).Wait -> sync.\(\*WaitGroup\).Wait`
}
