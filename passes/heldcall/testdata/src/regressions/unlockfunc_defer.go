package regressions

import "sync"

// From a lock wrapper that returns its unlock function, used as
// defer c.locked()(): the lock is released by a defer.

// Quotas tracks per-tenant quotas.
type Quotas struct {
	mu       sync.Mutex
	used     map[string]int
	onExceed func(tenant string)
}

// locked takes q.mu and returns the function that releases it.
func (q *Quotas) locked() func() {
	q.mu.Lock()
	return q.mu.Unlock
}

func (q *Quotas) ChargeHeld(tenant string, n, limit int) {
	defer q.locked()()
	q.used[tenant] += n
	if q.used[tenant] > limit {
		q.onExceed(tenant) // want `q.mu held across call of func value q.onExceed \(locked at unlockfunc_defer.go:22, released by defer\) \(plausible: the func value can be field onExceed, which the package never sets\)`
	}
}

func (q *Quotas) Charge(tenant string, n, limit int) {
	unlock := q.locked()
	q.used[tenant] += n
	over := q.used[tenant] > limit
	unlock()
	if over {
		q.onExceed(tenant)
	}
}
