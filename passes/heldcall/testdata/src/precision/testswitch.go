package precision

import "sync"

// A cleaner deletes obsolete files in the background. Tests make every
// deletion wait for the cleaner, through a switch only they set; users
// get a switch of their own in the options.

type cleanerOptions struct {
	// WaitForCleanup makes deletions wait for the cleaner: users set it.
	WaitForCleanup bool
	private        struct {
		testingAlwaysWait bool // set by tests only
	}
}

type cleaner struct {
	mu   sync.Mutex
	opts cleanerOptions
	jobs sync.WaitGroup
	todo []string
}

func (c *cleaner) wait() { c.jobs.Wait() }

// DeleteObsolete waits for the cleaner under c.mu only when a test asked
// for it. Not a finding.
func (c *cleaner) DeleteObsolete(names []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.todo = append(c.todo, names...)
	if c.opts.private.testingAlwaysWait {
		c.wait()
	}
}

// DeleteObsoleteSync waits whenever the user's option says so.
func (c *cleaner) DeleteObsoleteSync(names []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.todo = append(c.todo, names...)
	if c.opts.WaitForCleanup {
		c.wait() // want `c.mu held across call of \(\*cleaner\).wait, which blocks: \(\*cleaner\).wait -> sync.\(\*WaitGroup\).Wait \(locked at testswitch.go:39, released by defer\)`
	}
}

// synchronizeRefreshForTest makes refreshes wait for the verifier to be
// built: only tests set it.
var synchronizeRefreshForTest = false

// syncRefreshes is a package switch that the program itself turns on.
var syncRefreshes = false

// EnableSyncRefreshes makes every refresh wait for its verifier.
func EnableSyncRefreshes() { syncRefreshes = true }

// verifierCache builds token verifiers in the background.
type verifierCache struct {
	mu    sync.Mutex
	ready chan struct{}
	keys  []string
}

// Refresh waits for the new verifier under the lock only when a test
// asked for it. Not a finding.
func (v *verifierCache) Refresh(keys []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.keys = keys
	if synchronizeRefreshForTest {
		<-v.ready
	}
}

// RefreshSync waits whenever the program's own switch is on.
func (v *verifierCache) RefreshSync(keys []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.keys = keys
	if syncRefreshes {
		<-v.ready // want `v.mu held across channel receive \(locked at testswitch.go:\d+, released by defer\)`
	}
}

// waitForVerifier starts true: the program waits unless a test turns it
// off, so it is no test switch.
var waitForVerifier = true

// RefreshWaiting waits under the lock by default.
func (v *verifierCache) RefreshWaiting(keys []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.keys = keys
	if waitForVerifier {
		<-v.ready // want `v.mu held across channel receive \(locked at testswitch.go:\d+, released by defer\)`
	}
}
