// Package heldcall defines an Analyzer that reports calls and operations
// that can block, or that run code the critical section does not control,
// executed while a lock is held.
//
// # Analyzer heldcall
//
// heldcall: report blocking calls and foreign code executed while a lock is held
//
// A lock held across a call serialises everything the call does. A worker
// pool that pops a job under its queue's mutex and runs the job before
// unlocking runs one job at a time, however many workers it has:
//
//	q.mu.Lock()
//	job := q.pop()
//	job() // q.mu held across call of func value job
//	q.mu.Unlock()
//
// The fix is to release the lock before the call:
//
//	q.mu.Lock()
//	job := q.pop()
//	q.mu.Unlock()
//	job()
//
// The analyzer tracks the set of locks held at every instruction (a
// flow-sensitive dataflow over SSA that understands defer, TryLock branches,
// sync.Cond.Wait, sync.Locker, embedded mutexes, lock wrappers, closures
// invoked in place and generics) and reports, while a lock is held for
// certain on every path:
//
//   - callback: a call of a func value, a func field or a method value;
//   - interface: a call of an interface method, unless the method is known
//     to be cheap (error.Error, fmt.Stringer, context.Context, hash.Hash,
//     sort.Interface, loggers, metrics, ...) or pure by the interface's
//     role, named as a hasher or a comparator (a tree's NodeHasher, a
//     Comparer): a digest or an order is computation, whoever supplies it;
//   - chan: a channel send or receive. A send on a channel the package
//     always makes with a capacity is quiet, unless a receiver of that
//     channel in the package takes the held lock before it receives
//     again (a background loop that receives, then locks): once the
//     buffer is full the two wait for each other, and the finding names
//     the receiver. So does a call of a helper that makes such a send,
//     when the receiver is a loop the package starts as a goroutine (a
//     keeper whose ticker case calls a hook that takes the lock). A
//     channel whose every send is followed at once by its close (a
//     waiter's one result) never fills, nor does a queue made with room
//     for at least 65,536 values (a constant, or a package variable only
//     tests change); and a token put back into a channel used as a lock
//     (<-w.comms ... w.comms <- token, also from a deferred closure, or
//     after a select whose chosen case took the token) goes into the
//     slot its own receive freed. A channel read out of a list
//     of waiters kept in a map (m[k] = append(m[k], ch)) counts as made
//     with a capacity when every list holds only channels the package
//     makes so and the notifier deletes the entry it notified: each
//     waiter gets one value. A blocking select with a send case on such a
//     channel is quiet in the same way (the plain send's hand-off, with a
//     way out on quit), unless the case sends an empty struct, which is
//     a semaphore slot that waits while every slot is taken. A receive
//     whose sender or closer in the package takes
//     the held lock first (a shutdown that waits for a loop's done channel
//     with the lock the loop needs) names that sender or closer. A select
//     of one case is reported at the select. A receive from a context's
//     Done channel is quiet when the context is done on every path to it:
//     the function received from it before (or took it in a select case),
//     or called the cancel func of the same context.WithCancel call;
//   - select: a select statement without a default case;
//   - sleep: time.Sleep;
//   - wait: sync.WaitGroup.Wait, a sync.Cond.Wait that keeps another lock
//     held, errgroup.Group.Wait, reflect.Select (an event feed sending to
//     its subscribers' channels), ...;
//   - net, file, exec, db: network, file-system, child-process and
//     database/sql calls from the blocking catalogue;
//   - blocks: a call of a function that blocks transitively, in this
//     package or another one; the message gives the chain of calls.
//
// Logging packages never make a caller block: the well-known logging
// modules, and any package named like a logger (log, glog, klog, logger,
// logging, ...) that exports at least three logging verbs (Infof,
// Warningf, Errorf, Debug, Printf, ...), such as a project's own copy of
// glog, whose own findings stay. A write-ahead log in a package named log
// exports no such verbs and stays I/O.
//
// A task handed to an executor goroutine of the package (a loop that
// receives tasks from an inbox and calls each task's func) while the
// caller waits for its done channel runs as if called in place: the
// caller's caller judges the func it passes. The wait for the loop is a
// note (plausible: it waits behind the tasks queued before it) unless the
// loop does I/O or waits of its own between tasks; a receive from a
// channel only such tasks close, after the hand-off, is not a wait. A
// closure sent to such a loop runs while its sender waits: its blocking
// is the sender's, and the receive of the answer it sends itself is the
// hand-off's wait, not another. So is the answer to a request struct that
// carries its reply channel, when the loop hands every request to a
// handler that answers before each of its returns.
//
// A functional option applied to an object the function has just made,
// of a struct type of the package with no exported field, is
// configuration (a note): a user's own option could set nothing on it. So
// is one of a named option type (a func type called ...Option, ...Opt or
// ...OptionFunc over a pointer to a struct, returning nothing or an
// error) applied to a fresh config, directly or through a helper that
// applies the options it is handed and returns the config; an event
// handed to a hook stays proven.
//
// A call of package os that opens or reads the source file the runtime
// names for a stack frame (runtime.Caller's file, FileLine's, or a field
// the package sets only to those: go-errors' StackFrame.File, read to
// print a bug's stack trace) is debugging output, not file I/O.
//
// A call of an I/O helper (fmt.Fprintf, io.WriteString, io.Copy,
// io.ReadFull) is judged by the reader or writer it is given: a net.Conn
// or an *os.File makes it a net or file finding, a bytes.Buffer (or
// os.Stdout, like a logger) does not; nor does a Write on os.Stdout or
// os.Stderr itself, nor a short constant reply written to an
// http.ResponseWriter (w.Write([]byte("ok")), io.WriteString(w,
// http.StatusText(code)): net/http buffers it and sends it after the
// handler returns. A send on a channel the function took out of an
// interface value by a type assertion (a decoder filling whatever it is
// handed: ch := v.(chan<- byte)) runs only when the caller passes a
// channel, and is a note. Nor does a call of package os on a path seen to be
// under /proc or /sys (a constant, or a concatenation, fmt.Sprintf or
// filepath.Join starting with one): a sysctl or a kernel flag, answered
// by the kernel without a disk.
//
// What a call runs is resolved before it is judged. A func value is
// followed through every assignment in the package (package variables,
// struct fields, parameters at every call site, results, captured
// variables, container elements); when the package decides every value,
// the call is judged by what those functions do. A func value handed to a
// callee that calls it (once.Do(s.load), a helper given a closure or a
// method value) is judged by what it does. One the package's users supply
// that is named, or typed, as a comparator, hash, key or index function,
// clock or converter (less, hashFn, keyFunc, cache.IndexFunc, now,
// convert, parse, decode), or as a sizer whose one result is an integer
// (a cache's size func(K, V) int, cost, weigher; a method the package
// itself stores there is judged by what it does), is pure by convention,
// like sort.Interface's Less, and not reported; one shaped as a comparator (two parameters of
// one type that is not an interface, any others plain data, and a bool
// result: changed(cluster string, old, new *Namespace)) is pure by
// contract too, a note, and so is a sort routine (func(sort.Interface),
// a search request's replacement for sort.Sort); one named or
// typed as a log sink (a LogHandler, a logf field) is logging, as the
// logging methods of any interface are. A func field of an options or
// configuration struct (Options, Config, Settings...) that takes no
// parameters and returns one value, or that looks a setting up by name
// (parameters of plain data, one of them text; results by value, no error
// and no interface: GetChannelOptions func(channel string)
// ChannelOptions), is a getter of a setting, and so is each element of
// such a field's list of them (factories: PropertyCollectors []func()
// PropertyCollector). An interface that only the
// module can implement (unexported, in an internal package, or sealed by an
// unexported method) is resolved to its implementations in the program:
// the package and what its non-test files import, not the helpers only
// its tests import. The exported
// fields of an unexported struct that the exported API never hands out,
// and values of an unexported func type the API never takes in (an
// option func), or of a func type whose parameter is an unexported type of
// the package (an exported type Option func(*options), or a generic
// opt[T] func(*opts[T])), can only be set or made by the package: they
// are resolved through its own stores and conversions (to any
// instantiation, for a generic type). A call of a method of an
// instantiated generic type is judged by the generic method's summary.
// A wait only an option turns on (gRPC's DialContext under WithBlock) is
// no wait when the caller's options list holds only the package's other
// option constructors: an option flag is an unexported bool or nilable
// field set only in func literals of exported constructors the package
// never calls, tested in a function that configures a fresh object from
// its options parameter.
// Function summaries
// depend on constant arguments and on fresh objects' zero fields, so a
// callee that blocks only if flush, or only once c.started (or only in a
// range over a map it fills only if err != nil), does not block
// when called with false (or nil) or on a new object (also one built in a variable
// and handed to its options, w := Writer{}; opt(&w)). A field is the new
// object's zero value unless the function sets it or hands the object to
// code of the package that may: a function that writes the field, or
// calls one that does (w.start(); w.Reset()), a func value of a type some
// writing function or closure has, or, for an exported field, another
// package. So is an unexported field of a struct another struct holds by
// value in a field, when nothing in the package writes it there: no store
// through an address of that field, or through a parameter such an
// address is passed to (a ring buffer that waits only once its maxLen is
// set, held by a consumer that never sets it). So is a field of an object
// a call returns fresh: at every return the callee can reach with the
// call's arguments, it returns nil, an object it allocates with the field
// zero, or another such call's result; the field is unexported and its
// package writes it only into objects it is building (bbolt's Begin(false)
// returns a transaction that is not writable, so a read-only View's
// rollback never rescans the free pages). Other packages learn it from the
// facts. A branch taken only when an
// unexported bool field or package variable is true that only _test.go
// files set (a testing knob in the options, synchronizeForTest), or only
// when an unexported field that can be nil is set that no production code
// sets (if t.sink != nil { t.sink <- b }, a test transport's optional
// copy of its frames), does not run in the program. A lock of an object
// that no other goroutine can reach yet (allocated here, not yet stored,
// sent, passed or captured) is uncontended and not reported, also inside
// a func literal called in place that captured it (err := func() error {
// fs.mu.Lock(); ... }()); the lock must lie inside that object, not behind
// one of its pointers (a new follower's fl.log.mu is the shared log's
// lock). Nor is one that a callee left held for ever: a shutdown gate of
// another package that returns with its unexported mutex locked, which no
// function can unlock afterwards (syncwg's WaitAndBlock), through every
// caller that returns it held in turn: whoever waits for it waits for
// good, whatever runs under it. Nor is one
// that only the object's own background work can want: a constructor that
// started the object's flush loop (go s.flushLoop()) or timer
// (time.AfterFunc(d, s.expire)), code of the package that does not publish
// the object, delays only that work, unless it waits for another goroutine
// while holding the lock (a channel, a select, a WaitGroup), which can be
// that work. The same goes for an object whose last reference the package
// has just dropped (past if c.refs.Add(-1) == 0, atomic.AddInt32(&c.refs,
// -1) == 0, or c.refs--; c.refs == 0), and for the objects it alone points
// to (fields and slices only ever set to objects just made: a cache's
// shards), in the functions only such code calls: no user is left to wait
// for their locks. An object the package keeps in a map, slice, array or
// channel is not released that way: a registry can hand it out, and its
// count raise, again. Waiting there for the object's own workers is reported
// only if one of them takes the lock.
//
// A wait on a start barrier, a WaitGroup of the function that each
// goroutine it starts marks done as its very first step, lasts until they
// are scheduled and is not a wait. A wait on the package's own worker
// goroutines (started by its go statements, its time.AfterFunc and
// context.AfterFunc calls, the Go and TryGo methods of a
// sync.WaitGroup or an errgroup.Group, whose Wait waits for them, or a
// starter: a function of any package that runs a func it is handed on a
// goroutine of its own, such as k8s.io/apimachinery's wait.Group.Start,
// in a go statement, in a literal a go statement runs, or through another
// starter) is a join, not an
// unbounded wait, when the workers only ever wait for what the waiter has
// already signalled (a stop channel it closed, a stream it closed, a send
// it is making) and call nothing that blocks: a stop handshake with a
// sweeper, the result of an index rebuild, a WaitGroup.Wait for
// goroutines that only compute. A worker that calls a function which
// itself forks and joins such workers (a hash that compresses a long
// input's spans in parallel, each span's chunks in parallel again, as
// lukechampine.com/blake3 does; a Merkle tree that rehashes each subtree
// on a worker of its own, recursively, and returns the worker's buffer to
// a pool under the pool's lock) still only computes: the locks the nested
// workers take count as the outer workers', so a caller holding one of
// them still waits. Workers that take a lock with no class make the
// wait no join, nested or not, whatever named locks they take too: a mutex
// handed in by pointer, returned by an accessor or looked up in a lock
// table may be a caller's, and so may a lock reached through a pointer or
// sync.Locker field the package sets to more than one lock. A mutex the
// forking function itself declares for its workers' results, and does not
// hold at the wait, is no caller's, and its fork-join still is one. An
// Add whose delta may be negative is a Done (wg.Add(-1), a wrapper's
// Add(delta) its users or its own Done call with -1): a lease the
// package's users end by hand is the wait's other side.
// A group counts only when the package sees every goroutine added to it:
// one handed to another package or to an exported helper, kept in a
// field other packages reach, or whose Go is handed on as a func value,
// is waited on as any WaitGroup is. A group a wrapper of the package
// keeps by pointer (a waitGroup that makes its *sync.WaitGroup on the
// first Add, waits through it in its Wait, and hands it to each worker it
// starts: go func(wg *sync.WaitGroup) { ...; wg.Done() }(g.wg)) counts
// too, when the field holds only groups made for it and every use of it
// is the package's own; a wait through the field joins the workers of
// every group it holds. A _test.go file that marks a group done by hand
// (a benchmark of the wrapper) is no other side of the waits of code
// that ships. A func handed to time.AfterFunc or
// context.AfterFunc is such a worker only past a stop that came too late
// (if !stop() { wg.Wait() }): before it, the wait lasts until the timer
// fires or the context ends.
// In a select, one such case is enough: a
// publisher's select { case s.pubch <- a: case <-ctx.Done(): } hands off
// to a pump that always receives from pubch. A lock the pump takes only on
// its way out of its loop (unregistering itself once its context is done)
// does not count when the select has a receive case of its own to leave
// by. A channel a helper reaches through a pointer parameter (a generic
// inputEvent(r, ctx, &r.startCh, ev) that hands every event to an actor's
// run loop) is each channel its callers point it at, and each needs such
// a pump. A goroutine body that reports on a
// channel parameter is the other side of every channel its starters hand
// it (go-cmp's detectRaces, started by two functions, each with a channel
// of its own), and a channel read out of a map kept in a field is each
// channel the package puts into such maps: a loop that closes every
// channel of the map (for tag, in := range s.feeds { close(in) }) stops
// the workers that range over them, so the WaitGroup.Wait after it is a
// join. A closer that finds a stream already
// claimed and waits for the first closer to finish (if already done,
// <-s.done) joins that closer. It is reported only under a lock the
// workers take, where it deadlocks. A receive that a dominating branch
// shows ready does not wait: the tick of a timer whose Stop reported
// false (if !t.Stop() { <-t.C }), a value after len(ch) > 0, or after a
// len(ch) == 0 branch that can only die (log.Panicf("BUG: ...")). A send on a
// slot taken out of a waiter list whose every slot the package made with
// a capacity is a hand-off. A send right after a non-blocking
// receive emptied the same channel (a latest-value mailbox) and a send on
// the channel a Prometheus registry hands Collect are hand-offs. What
// blocks on a path that can only end in a panic or an exit (os.Exit,
// log.Fatal, a fatal-error helper of the program, and any other package's
// Fatal, Fatalf, Panic or Panicf... taking only a message, which loggers
// that decide it from the level at run time end in by contract) is not
// reported: it happens on the way to a crash.
//
// When several reasons can apply at a call (a constructor that loads
// credentials at different depths for different options), the finding
// names the nearest: a proven reason before a plausible one, then the
// shortest chain.
//
// Each finding has a confidence. A warning is proven: the operation blocks
// directly or through a chain whose every step is resolved, or the func
// value comes from data the package's callers supply (a queued job, a
// registered hook). A note is plausible, and its message ends with
// "(plausible: why)": code of open origin (an interface users implement, a
// func value the package does not decide, or one whose type names a type
// of an internal package, which only the module can write), a supplied
// func value that computes a number from a key or a value (a sizer, a
// hash, a weigher: plain-data parameters, one of them a string or bytes
// or a generic key, a type parameter constrained only by comparable, and
// numeric results; a func() int or a function of numbers stays
// proven, since it can read or commit shared state) or a predicate over
// values (a single bool result from parameters passed by value: an
// expiry test, a status filter; one handed a pointer or an interface
// stays proven), a finding in test-support code outside _test.go files
// (a package of test doubles such as mocks, fake... or testing, a test
// tree with a path element test, tests or e2e, a file of test doubles
// such as mock_....go, ..._fake.go or testing.go, a test double's method
// or constructor (FakeWatcher, mockConn, NewFakeClock), or a function
// named TestOnly..., ...ForTesting or NewTest...) unless it is a
// channel deadlock, a call of a func value that reaches it from outside
// only through a parameter of such a function (a client factory that only
// NewTestEngine takes), a step taken only when an environment variable
// is set (os.Getenv(k) != "" or os.LookupEnv's found flag, tested in the
// function that takes the step: a debug switch such as SSLKEYLOGFILE) or
// a bool package variable or field with "debug" in its name is true
// (if IsDebugFileReadWrite), binding or resolving an address (net.Listen, net.ResolveTCPAddr: a name server is
// asked only for a host name), or a lock that guards nothing
// but the operation it is held across (a write mutex held only across
// conn.Write, where conn is set before the object is shared), or the read
// side of a close fence held across file I/O or a sleep: an unexported
// RWMutex field that the package locks for writing only in teardown
// (functions named Close, Stop, Shutdown..., methods that set their
// receiver's closed, stopped or aborted flag to true and never back to
// false, and the helpers only
// they call), and whose address is only ever locked and unlocked. Readers share
// it, and the closer waits for the work in flight anyway; a read side held
// across a channel operation or a wait stays proven, since it can keep the
// closer waiting for ever. A lock that serialises only its object's life
// makes a note too: an unexported or embedded mutex, only ever locked and
// unlocked, that the package holds only in functions named Start...,
// Stop, Close, Shutdown... and the helpers only they call, and that no
// goroutine the package starts takes (a main loop that stops its object
// on an error would deadlock, and keeps the finding). Stop holding it
// across the wait for its loop delays only a concurrent Start or Stop.
// So does a lock that only its object's one background goroutine takes:
// a mutex field, only ever locked and unlocked, held only in a method of
// its owner that the package runs only as a goroutine started once on an
// object it has just made (go w.watch() in New), or in the helpers only
// that method calls. No other goroutine can be waiting for it. Nor can
// one be waiting for a lock that is only ever taken under another lock of
// the same object (or a package-level lock) held for writing, when every
// caller of the function holding it holds that outer lock at the call: an
// unexported mutex field, only ever locked and unlocked, whose every
// acquisition in the package has the outer lock held there or by all the
// callers of the acquiring function (a snapshot lock taken only under its
// node's lock). A goroutine that wants it must first take the outer lock,
// so the wait is for the outer lock, and the callers' finding names it.
// Nor for a private mutex the package only ever takes with TryLock, none
// of them in a loop (a "loop already running" flag): whoever finds it
// held goes on without it. A TryLock spun on until it succeeds waits, and
// keeps the finding. The same holds for teardown when the package takes
// the mutex with Lock only in methods of the lock's owner that end its
// life (Close, Stop and the helpers only they call) and with TryLock
// everywhere else, in functions no caller retries in a loop: a Close that
// holds it across the final flush delays nobody, and it is a note.
// The -severity flag (warning, the
// default, or note) is the lowest confidence reported. Findings in
// _test.go files are reported only with -tests: a test usually holds a
// lock because the helper it calls requires it.
//
// Taking another lock while one is held is not reported here (see lockorder
// and shardlock). A sync.Cond.Wait on the Cond whose L is the held lock
// releases it and is not reported, also in a helper the Cond is handed to
// (waitSequential(&fh.cond, ...), with fh.cond made on fh.mu): the
// caller's argument tells which lock the helper's Wait releases. A Cond a
// constructor makes on the lock it is passed (sync.NewCond(mtx)) is tied
// to the field its caller keeps that lock in, and two Conds of one object
// made on the very same mutex share it: waiting on one releases a lock
// taken through the other's L. A condition variable of the module's own
// counts as a sync.Cond: a struct with one sync.Locker field and a Wait
// method whose wait happens with that Locker released (a cancellable
// Cond: c.L.Unlock(); defer c.L.Lock(); select { ... }), made by a
// constructor whose one sync.Locker parameter is the held lock
// (lock.NewCond(&m.mu)) or by a literal that sets the field. A Wait that
// keeps the Locker held, or blocks again once it has taken it back, is
// reported as any wait is, and so is a wait in a callee on a Cond made on
// a lock the callee took itself, by name or through the Cond's L (dst.Put
// waiting for room in dst releases dst's lock, not the caller's src lock
// of the same type). A Cond made on a lock wrapper whose Lock and Unlock
// are promoted from a sync.Mutex or RWMutex it embeds by value (Cilium's
// lock.Mutex) releases that inner lock. An unlock function a helper
// returns (a func literal whose calls all release locks it captured:
// miekg/dns's unlockOnce, func() { once.Do(l.Unlock) }) releases the lock
// where the caller calls it. A wait releases
// a held lock of the Cond's class only when one held lock has that class: hand over hand, holding a stage's
// lock and the next stage's while waiting on the next stage's Cond, both
// stay held. A wait under the read
// side of a fence that its writers end first is not reported: a select or
// receive that listens on a channel field of the object whose unexported
// RWMutex is read-locked, when every write lock of that mutex in the
// package comes, on every path, after a close of the same object's
// channel, set only while the object is built (neither may be
// package-level) (a queue's Close closes closing, then takes the write side to
// drain; its producers hold the read side while they wait for room or
// for closing). Readers share the read side, and every writer has woken
// the reader before it waits. A deferred cleanup that runs
// only on an error (if retErr != nil { ... }), deferred after the last
// step that can fail, never runs: every return after the defer leaves the
// tested variable nil. Starting a goroutine under a lock is not
// reported.
//
// The blocking catalogue can be extended with the -block flag, a
// comma-separated list of name=category pairs where name is written as
// types.Func.FullName prints it:
//
//	-heldcall.block='example.com/store.(*Client).Fetch=net,example.com/store.Flush=file'
//
// Where moving an explicit Unlock above the offending call is provably
// safe (the call is the last statement before the Unlock, its operands are
// local variables or constants of basic type, and nothing else is held), a
// suggested fix does so.
//
// A finding is silenced by a comment on its line or the line above:
//
//	//lockaudit:ignore heldcall the callback is documented to be cheap
package heldcall
