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
// sets to a new slice and never grows, trims or reslices, picked by an
// index that is not a constant or a loop variable, directly or through a
// selector such as shardFor. A lock reached through a back-pointer out of
// an element, the guard of a growing collection (a log's segments), and a
// lock of an object other than the container's owner are not above
// shards.
//
// Categories:
//
//   - above-shards: a lock of the owner of a sharded structure (or a
//     package-level lock) held while a shard's lock (a lock reached through
//     an index, such as c.shards[i].mu) is taken, directly or through a
//     callee. Reported at the acquisition of the outer lock.
//   - shard-order: two shard locks of one array or slice held at once, the
//     second taken without the function comparing their indices (locking in
//     index order, or ordering the pair first, is what makes it safe).
//     Reported at the second shard's acquisition. Locking every shard in a
//     loop, in index order, is not reported.
//   - global-map (advisory, off unless enabled or joined with a profile):
//     one sync.RWMutex guarding a map field of its struct, read under RLock
//     in one place and written under Lock in another. Reported at the read
//     and write locks' acquisitions: the static findings that explain the
//     hotspots lockaudit profile ranks for such a cache.
//
// A finding is silenced by a comment on its line or the line above:
//
//	//lockaudit:ignore shardlock/above-shards resizing needs every shard quiet
package shardlock
