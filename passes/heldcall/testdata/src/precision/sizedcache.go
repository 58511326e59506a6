package precision

import (
	"container/list"
	"os"
	"sync"
)

// A cache bounded by the total size of its entries measures each entry
// with a size function its user supplies: a measurement, pure by its
// role as a hash is, so calling it under the cache's lock is not a
// finding. The eviction hook the user supplies is foreign code, and
// calling it under the lock stays a finding.

type sizedEntry struct {
	key   string
	value []byte
}

// SizedCache is an LRU cache of at most maxSize bytes.
type SizedCache struct {
	mu      sync.Mutex
	size    func(key string, value []byte) int
	onEvict func(key string, value []byte)
	maxSize int
	curSize int
	order   *list.List
	entries map[string]*list.Element
}

// NewSizedCache returns a cache that measures entries with size and
// hands evicted ones to onEvict.
func NewSizedCache(maxSize int, size func(string, []byte) int, onEvict func(string, []byte)) *SizedCache {
	return &SizedCache{size: size, onEvict: onEvict, maxSize: maxSize, order: list.New(), entries: map[string]*list.Element{}}
}

// Put adds an entry, measured by the user's size function. Not a finding.
func (c *SizedCache) Put(key string, value []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.curSize += c.size(key, value)
	c.entries[key] = c.order.PushFront(&sizedEntry{key, value})
	for c.curSize > c.maxSize && c.order.Len() > 1 {
		e := c.order.Remove(c.order.Back()).(*sizedEntry)
		delete(c.entries, e.key)
		c.curSize -= c.size(e.key, e.value)
	}
}

// PutEvicting is Put, but it hands each evicted entry to the user's hook
// under the lock.
func (c *SizedCache) PutEvicting(key string, value []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.curSize += c.size(key, value)
	c.entries[key] = c.order.PushFront(&sizedEntry{key, value})
	for c.curSize > c.maxSize && c.order.Len() > 1 {
		e := c.order.Remove(c.order.Back()).(*sizedEntry)
		delete(c.entries, e.key)
		c.curSize -= c.size(e.key, e.value)
		c.onEvict(e.key, e.value) // want `c.mu held across call of func value c.onEvict`
	}
}

// DiskCache is bounded by the size of the files it keeps, which it
// measures itself: its size function is a method of its own that asks the
// file system, and the role of the name does not make that pure.
type DiskCache struct {
	mu      sync.Mutex
	size    func(key string, path []byte) int
	curSize int
	paths   map[string][]byte
}

// NewDiskCache returns a cache that measures entries by their files.
func NewDiskCache() *DiskCache {
	c := &DiskCache{paths: map[string][]byte{}}
	c.size = c.fileSize
	return c
}

func (c *DiskCache) fileSize(_ string, path []byte) int {
	f, err := os.Open(string(path))
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := f.Seek(0, 2)
	return int(n)
}

// Put adds a file, measured under the lock.
func (c *DiskCache) Put(key string, path []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paths[key] = path
	c.curSize += c.size(key, path) // want `c.mu held across call of func value c.size, which blocks`
}
