// Package shardlock defines an Analyzer that reports locks that serialise
// work meant to be independent: a lock held above a sharded structure's own
// shard locks, shards locked out of order, and (advisory) one RWMutex over a
// whole hot map.
//
// # Analyzer shardlock
//
// shardlock: report a global lock above shards, shards locked out of order, and one RWMutex over a hot map
//
// A hot cache behind one RWMutex over the whole map builds a convoy as soon
// as writers exist: a waiting writer blocks every reader that arrives after
// it. Sharding gives each slice of the key space its own lock. The benefit is
// lost again when one lock is put back above the shards, and two shards
// locked in no fixed order deadlock:
//
//	func (c *Cache) Get(k string) V {
//		c.mu.RLock() // one lock above the shards: every Get queues here again
//		defer c.mu.RUnlock()
//		sh := c.shardFor(k)
//		sh.mu.Lock()
//		defer sh.mu.Unlock()
//		return sh.items[k]
//	}
//
// A shard is a fixed partition of a key space, locked through the
// element's own lock: an element (a value, or what a pointer element
// points to) of an array field, or of a slice field the package only ever
// sets to a new slice (made directly, or returned by a constructor such
// as shardset.New) and never grows, trims or reslices, picked by an index
// that is not a constant, directly or through a selector such as
// shardFor. A selector is a function returning the element of a container
// that its first parameter owns (or is: a method of a named slice type);
// selectors, slice constructors and the fixed slice fields of exported
// types are exported as facts, so a selector of another package counts
// too. A per-key lock is the same for a map field (or a package-level
// map): the element itself when the map holds locks (locks
// map[string]*sync.Mutex), or the element's own lock (map[K]*entry), looked
// up (or looked up and inserted) by key, or taken in a range over the map.
// A map element whose type has methods that take that lock is an object
// with its own API (a server's client connection), not a per-key lock.
// A lock reached through a back-pointer out of an element, the guard of a
// growing collection (a log's segments), a named child locked under its
// parent, and a lock of an object other than the container's owner are
// not above shards. Nor is the owner's lock in a function that, with it
// held, updates the owner's own state while the element's lock is held
// (one atomic step over both) or replaces the container (a reload that
// retires the old elements), whether it takes the element's lock itself or
// through a callee (the old element's own close method).
//
// Categories:
//
//   - above-shards: a lock of the owner of a sharded structure or of a
//     map of per-key locks (or a package-level lock) held while a shard's
//     or a key's lock (a lock reached through an index or a key, such as
//     c.shards[i].mu or t.locks[k]) is taken, directly or through a
//     callee, for one key or in a loop over every shard or key (a Len or
//     an invalidation of the whole cache under the map-wide lock). A lock
//     table's guard held only to look up or insert a key's lock, and
//     released before that lock is taken, is the correct pattern and is
//     not reported. Reported at the acquisition of the outer lock.
//   - shard-order: two shard locks of one array or slice held at once, the
//     second taken without the function comparing their indices (locking in
//     index order, or ordering the pair first, is what makes it safe), or
//     the locks of a map's elements taken in a range over the map and held
//     together (map order is random: lock them in sorted key order).
//     Reported at the second shard's acquisition, or at the acquisition in
//     the range. Locking every shard of an array or slice in a loop, in
//     index order, is not reported.
//   - global-map (advisory, off unless enabled or joined with a profile):
//     one sync.RWMutex guarding a map field of its struct, read under RLock
//     in one place and written under Lock in another. Reported at the read
//     and write locks' acquisitions: the static findings that explain the
//     hotspots lockaudit profile ranks for such a cache. A shard's (or a
//     per-key entry's) own lock over its own map is not one lock over the
//     whole map.
//
// above-shards findings located in _test.go files are reported only with
// -tests: a test's lock above shards costs no production time. Shard-order
// findings are reported there too, since a deadlocking test hangs CI.
//
// A finding is silenced by a comment on its line or the line above:
//
//	//lockaudit:ignore shardlock/above-shards resizing needs every shard quiet
package shardlock
