// Package lockorder defines an Analyzer that reports lock acquisitions that
// deadlock: a lock taken again while it is held, directly or through a
// callee, and two locks taken in opposite orders.
//
// # Analyzer lockorder
//
// lockorder: report double locking, read-lock upgrades and re-entry, lock-order inversions, lock leaks and double unlocks
//
// Go's sync.Mutex and sync.RWMutex are not reentrant. A method that calls
// another method of the same type while holding the lock that the callee
// takes deadlocks the goroutine on the spot:
//
//	func (c *Cache) Put(k string, v []byte) {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		if c.Len() > c.max { // Len locks c.mu: deadlock
//			c.evict()
//		}
//		c.items[k] = v
//	}
//
// The analyzer uses the same lock-state dataflow as heldcall, with function
// summaries that say which locks, named relative to their parameters, a
// function takes (across packages, as facts). It reports, where the lock is
// held on every path:
//
//   - double-lock: Lock (or RLock) of a lock already held for writing, or
//     Lock of a lock held, directly or through a call of a function that
//     takes it; a lock taken in a loop and released only by a defer,
//     which runs at the return, so the next iteration locks it again (a
//     lock of each iteration's element, a TryLock, and a turn that runs
//     in a func literal called in place are not reported); and a
//     sync.Once whose function calls Do on the same Once
//     again, directly or through its callees (c.once.Do(c.load) where load
//     reads an include through c.Get, which calls c.once.Do): the inner Do
//     waits for the outer one, which waits for its function, for ever. A
//     Once of another instance (a tree node's parent's) is not the same
//     Once, and a Once is no node of the lock-order graph: Do holds it only
//     while its own function runs. A func value handed to a callee of the
//     package that calls it while holding locks of its own (a visitor:
//     t.forEach(f) locks t.mu and calls f for each session) runs under
//     them: a func that locks t.mu again (removing an expired session from
//     inside the visit) deadlocks at once, and one that takes another lock
//     orders it after the visitor's. The callee's locks are known for the
//     package's own callees, not across packages;
//   - rlock-upgrade: Lock of a lock held for reading (RLock then Lock);
//   - rlock-reentry: RLock of a lock already held for reading: it deadlocks
//     as soon as a writer waits between the two, since a waiting writer
//     blocks new readers. An unexported RWMutex field that its package
//     only ever read-locks, and whose address it hands nowhere else, has
//     no writer, so its recursive read locks are not reported. One in a
//     _test.go file is a note: a writer queues between a test's two read
//     locks only if the test runs one concurrently. A call that
//     read-locks another lock of the held lock's class, through a method
//     of another type than the lock's owner (a store that asks its index,
//     which reads through its own store pointer), is a note: only the
//     class is known, but in practice it is the same instance. A parent
//     and its child, reached by the owner's own methods, are not reported;
//   - order-cycle: two locks taken in opposite orders in two places of the
//     package (A then B here, B then A there), at least one of them for
//     writing: two goroutines running both deadlock. Read locks alone in
//     both orders deadlock too when the package write-locks both locks:
//     sync.RWMutex lets no new reader in while a writer waits, so with a
//     writer queued on each lock each reader waits behind a writer that
//     waits for the other reader. Each package also
//     exports its lock-order edges between classes (a fact), so a package
//     whose edge closes a cycle with an edge of a package it imports
//     reports it, naming the other package's acquisition. The finding
//     carries both paths as related locations: for each edge, where the
//     first lock was taken, where the second was (or the call that leads
//     to it) and the calls down to the acquisition in the callee (up to
//     the first call into another package), the other package's half
//     included. A lock reached through a pointer is its object's own
//     (a replica's r.store.hbMu is the hbMu its store's methods take as
//     s.hbMu), and a per-key lock looked up in a map field (l, ok :=
//     r.locks[key], created on a miss, or returned by a helper) is an
//     element of that map: a registry's lock taken under a key's lock,
//     and a key's lock under the registry's, form a cycle. When the
//     package's own code takes two locks in one order and only a test
//     takes them in the other, the inversion is the test's: it is
//     reported at the test's acquisition only, and a test's orders are
//     not exported to importers. Two orders both taken under one gate
//     lock are no cycle: a lock of a third class, held for writing at
//     both acquisitions, in the function or by every caller of it, and a
//     field of the same object as the first lock (or a package-level
//     lock). A connection whose shutdown takes m then closeM, and whose
//     Reconnect takes closeM then m, both under its destructorM, cannot
//     deadlock: the second goroutine waits for destructorM first. Each
//     sync.Cond's L is its holder's lock (q.cond.L is the pool's, classed
//     by the field holding the Cond), not one lock of every Cond;
//   - same-class: two instances of one lock class, hanging off two
//     parameters, taken one while the other is held, when the function
//     never orders the two (a.id < b.id): transfer(a, b) beside
//     transfer(b, a) deadlocks;
//   - leak: a function (a closure too, such as a timer callback) that
//     returns with a lock it took still held on some paths, and released
//     on others: an early return before the Unlock (or before the defer
//     that would release it), an error path that forgets the RUnlock. The
//     next Lock of that lock waits forever. Reported at each leaking
//     return, with the acquisition as a related location. Not a leak: a
//     function that holds the lock on every return (a lock wrapper), one
//     whose name says it deals in locks (lockX, tryLock, xLocked), one
//     whose doc or receiver type's doc says so ("returns with mu held",
//     "the caller must unlock", "owns the lock until Close releases it"),
//     one whose result tells the caller it holds the lock (nil error
//     or true with it held, an error or false without; also a bool it
//     has branched on, if !ok { mu.Unlock() }; return c, ok), and one that
//     returns the lock it keeps (lock = &c.rlock) or its Unlock for the
//     caller to release; a return that hands back the kept lock's own
//     Unlock (return g.Unlock, false), or a new object that keeps the
//     lock's owner in a field through which a method of its type
//     releases the lock (an iterator whose Close read-unlocks its index),
//     releases it through the caller, as an Unlock would, so the returns
//     that keep it without handing it on are the leaks. Nor is a return a
//     closure the function defers may release the lock at (defer func()
//     { if !unlocked { mu.Unlock() } }()). A return reached along
//     paths that disagree is judged along each: a break that leaves the
//     lock held, into the return the loop's releasing end shares, is
//     reported at the break. So is a loop that goes round with the lock
//     held on one path (a continue before the Unlock) and released on
//     another, at the continue (or the end of the loop's body): a
//     double-lock when the next iteration locks the same instance again
//     (the receiver's lock), a leak when the lock is the iteration's own
//     (a range element's), unless the loop keeps the element beyond the
//     iteration (appended to a list, carried to the next turn hand over
//     hand). A traversal that locks the next node, unlocks the current one
//     and moves on (lock coupling: a sorted list's insert, a tree pruned
//     up its parents) holds one lock throughout, the current node's: the
//     lock taken before the loop and the one taken in its body are both
//     the loop variable's once it moves. Paths that cannot run do not
//     count: a branch on a false constant, and the default of a switch
//     whose cases name every constant the package declares of an
//     unexported type (an enum no other package can convert a number
//     to);
//   - double-unlock: a return after an explicit Unlock of a lock whose
//     deferred Unlock is still to run, and that is not locked again in
//     between (mu.Lock(); defer mu.Unlock(); ...; mu.Unlock(); return
//     err): the deferred Unlock is a fatal error ("sync: unlock of
//     unlocked mutex"), which no recover catches. Reported at the return,
//     with the defer as a related location.
//
// A deferred call runs at return, before the calls deferred ahead of it:
// after mu.Lock(); defer mu.Unlock(); defer t.report(), report runs with
// mu held, so its locks are checked (and its lock-order edges recorded)
// against the locks held at the defer whose release was deferred before
// it, or that the function never releases. A lock unlocked explicitly
// before the return is not held when deferred calls run.
//
// Except for leaks and double unlocks, the finding is reported at the
// second, deadlocking
// acquisition, or at the call that leads to it; the first acquisition is a
// related location.
//
// Formatting calls count as calls of the methods they run: fmt.Sprintf("%v",
// c), fmt.Print(c), fmt.Errorf("%w", err) and log.Printf call the String or
// Error method of a pointer argument that has one, for the verbs that use
// it (%v, %s, %q, %x, %X, %w; not %d or %p). So do the print and printf
// wrappers the printf analyzer infers, in any package (a tracer's Infof
// that hands its format and arguments on to fmt.Sprintf). A String method
// that locks what the caller holds deadlocks the caller.
//
// An interface method call runs one of the program's implementations: when
// an implementation among the package's types and its imports' (exported
// interfaces too) takes a lock of the class the caller holds, the call is
// reported as a note, since the instance it locks is not known. When the
// dispatch is closed (the field the value is loaded from only ever holds
// the package's own types, or only the module can implement the
// interface) and its implementations are all the package's own, they
// lock the receiver: their locks are checked, and make lock-order edges,
// as a static call's would, also when the interface call is made in a
// callee (a lock below an interface value is its dynamic value's own, so
// its edges join the class its methods lock it by). Open dispatch makes
// no edge.
//
// A call of a func value runs the functions the package puts there: a
// hook field set to a method value or a closure (w.onEvent =
// c.processEvent), also through an exported setter, where the package's
// own calls of the setter are what the program runs. Their locks make
// edges like a static call's; a lock they reach through a bound receiver
// or a captured variable is known only by its class, so its cycles are
// notes, except for a method value made in the function that calls it
// (n := r.count; n()), whose receiver is the value it was bound to. A
// callee that drops the caller's lock and takes it back
// (mu.Unlock(); time.Sleep(d); mu.Lock()) takes it while the caller's
// other locks are held: an edge from each of them. A function that
// releases a per-key lock its caller holds while it holds one it took
// itself took the latter with the former held (hugo's URLUnlock
// read-locks the URL map, then unlocks the URL's lock that URLLock
// returned with): an edge too, reported with the release as the first
// lock's place. A lock of its own may be released by another goroutine
// than its taker (a counted lock the last user releases), so only
// per-key locks count.
//
// What a callee takes depends on its arguments: a helper that locks only
// if !hasLock (or through closures guarded that way) does not deadlock a
// caller that passes true. A lock handed to a goroutine that releases it
// (mu.Lock(); go func() { ...; mu.Unlock() }(), or go e.update(unlock)
// with unlock a closure that releases it) is not held after the go
// statement; nor is one whose release a closure the function hands to
// other code performs, itself or from a goroutine of its own (a key
// provider, run later by a service, whose sender unlocks a local mutex
// when done): locking it again waits for that release, a signal, and a lock of an object no other goroutine can reach yet
// orders nothing.
//
// A lock's class is the field that holds it in a named struct type
// ((*pkg.Store).mu). A struct of locks only (type Mutex struct{
// sync.Mutex }, the wrapper a project uses to swap in a deadlock
// detector) names no class of its own: its lock takes the class of the
// field that holds the wrapper, (*types.PartSet).mtx.Mutex, or, reached
// from a parameter, the class of the caller's argument.
//
// An order-cycle is a warning when the instances along it are tied to each
// other: the same variable, parameter or receiver, a package-level lock, or
// an element of the other lock's object's container (a store and its
// replicas, a registry and its per-key locks; also the element a lookup
// helper of the package returns from it, r := s.lookup(id) where lookup
// returns s.ranges[id] or nil), in this package and, for a
// cycle across packages, in the other package's half too. A cycle known
// only between the lock classes (a client's lock, then another client's
// server's) may join disjoint instances: it is a note naming both
// instances. So is a cycle whose two locks of one class hang off pointer
// fields of two different struct types that each own what they point to
// (every store into the field is an object just made, stored nowhere
// else): a resource manager's peer scopes and connection scopes each embed
// a *resourceScope of their own, so a peer scope's lock taken under the
// manager's and a connection scope's lock held while it takes the
// manager's are never the same lock. The same holds across packages: each
// package's exported edges name the struct type whose owned field a lock
// hangs off, and an object a constructor of another package returns new
// (stripes.New(64)) is as much the field's own as one made in place, so a
// vector index's posting stripes and its graph's node stripes, two tables
// of one type, make no cycle. -severity note reports notes too.
// TryLock never deadlocks and is ignored. Instances of one class reached
// from one another (a parent and its child) are not reported, and two
// shards of one array are shardlock's business.
//
// A finding is silenced by a comment on its line or the line above:
//
//	//lockaudit:ignore lockorder the two paths never run concurrently
package lockorder
