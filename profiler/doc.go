// Package profiler is the runtime side of lockaudit: it collects mutex and
// block contention profiles (and fgprof wall-clock profiles), merges them,
// ranks the code that causes contention, and joins each hotspot to the
// static findings that explain it.
//
// # Collecting
//
//   - CollectTests builds one test binary per package (go test -c, each with
//     its own name, because go test refuses profile flags with several
//     packages) and runs each from its package directory with
//     -test.mutexprofile and -test.blockprofile. A package whose tests fail
//     or that has no tests becomes an error entry; the others go on. So
//     does one that outlives its -timeout, or that an interrupt stops:
//     CollectTests returns with every package that finished, and
//     TestOptions.OnPackage hears how each one ended.
//   - CollectURLs pulls delta profiles from live services:
//     /debug/pprof/mutex?seconds=N, /debug/pprof/block?seconds=N and, when
//     the service has it, /debug/fgprof?seconds=N&format=pprof (a 404 there
//     is skipped quietly). Handler serves all three.
//   - CollectFiles reads existing profile files.
//
// Every profile is read with size limits: a response or file larger than
// Limits.MaxBytes, or gzip data that decompresses to more than
// Limits.MaxDecompressed, is an error, never an allocation.
//
// # Telling the kinds apart
//
// Mutex and block profiles have identical headers (sample types
// contentions/count and delay/nanoseconds, period type contentions/count),
// so pprof's Merge would silently add one to the other. Profiles from test
// binaries and URLs have a known kind. A file is classified by Classify:
//
//  1. Sample types samples/count and time/nanoseconds, or period type
//     wallclock/nanoseconds: fgprof.
//  2. Sample types contentions/count and delay/nanoseconds: a contention
//     profile. For each sample, the frame nearest the leaf that is a
//     release (sync.(*Mutex).Unlock, sync.(*RWMutex).Unlock or RUnlock,
//     runtime.unlock, ...) votes mutex; one that is a wait
//     (sync.(*Mutex).Lock, RWMutex.Lock/RLock, runtime.chanrecv, chansend,
//     selectgo, sync.(*WaitGroup).Wait, sync.(*Cond).Wait, a semaphore
//     acquire, ...) votes block. The majority decides. When the stacks do
//     not (no sample, or a tie), the file name decides: a base name
//     containing "mutex" is a mutex profile, one containing "block" a block
//     profile. Otherwise the file is an error.
//  3. Anything else (a CPU or heap profile) is an error.
//
// # Ranking
//
// The mutex profile charges the lock holder (the stack at Unlock: the
// critical section that made others wait); the block profile charges the
// waiter (the stack at Lock, the channel operation, the Wait). A sample's
// hotspot is its first frame, from the leaf, outside the packages sync,
// runtime, internal/... and the test harness. A sample whose first such
// frame is in testing (or the generated test main) is a harness wait,
// such as testing.(*B).Run receiving from a channel or RunParallel's
// WaitGroup.Wait, and is left out of the ranking and the totals (not out of
// the merged profiles). Hotspots are grouped by kind and function and
// ranked by delay within each kind.
//
// # Joining
//
// Join attaches to each hotspot the static findings (from lockaudit check)
// whose package-qualified function is the hotspot's function, closures
// (f.func1) counting as their enclosing function, or whose file is the
// hotspot's file and whose enclosing function declaration contains the
// hotspot's line.
package profiler
