// Package closures holds function literals and locks: closures invoked in
// place run under their caller's locks, closures that take and release a
// lock themselves scope it, and closures merely created under a lock do
// not run there. Each positive is next to its correct twin.
package closures

import (
	"sync"
	"time"
)

// Tenant is a customer of a multi-tenant service.
type Tenant struct {
	ID    string
	Quota int
}

// Tenants keeps the tenant table and notifies on quota changes.
type Tenants struct {
	mu       sync.Mutex
	byID     map[string]*Tenant
	onChange func(t Tenant)
	changes  chan Tenant
}

// SetQuotaHeld validates inside a function literal that it invokes in
// place, with the table locked: the hook runs under t.mu.
func (t *Tenants) SetQuotaHeld(id string, quota int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ten, ok := t.byID[id]
	if !ok {
		return false
	}
	func() {
		ten.Quota = quota
		t.onChange(*ten) // want `t.mu held across call of func value t.onChange, which blocks: \(\*Tenants\).Watch.func1 -> time.Sleep \(locked at closures.go:29, released by defer\)`
	}()
	return true
}

// SetQuota applies the change in a scoped closure that takes and releases
// the lock itself; the hook runs after it returns.
func (t *Tenants) SetQuota(id string, quota int) bool {
	updated, ok := func() (Tenant, bool) {
		t.mu.Lock()
		defer t.mu.Unlock()
		ten, ok := t.byID[id]
		if !ok {
			return Tenant{}, false
		}
		ten.Quota = quota
		return *ten, true
	}()
	if ok {
		t.onChange(updated)
	}
	return ok
}

// PublishHeld binds a local closure and calls it with the table locked.
func (t *Tenants) PublishHeld(id string) {
	send := func(ten Tenant) {
		t.changes <- ten // want `t.mu held across channel send \(locked at closures.go:66\)`
	}
	t.mu.Lock()
	if ten, ok := t.byID[id]; ok {
		send(*ten)
	}
	t.mu.Unlock()
}

// Publish calls the same kind of closure after unlocking.
func (t *Tenants) Publish(id string) {
	send := func(ten Tenant) {
		t.changes <- ten
	}
	t.mu.Lock()
	ten, ok := t.byID[id]
	var cp Tenant
	if ok {
		cp = *ten
	}
	t.mu.Unlock()
	if ok {
		send(cp)
	}
}

// Watch registers a closure under the lock; the closure runs later,
// without the lock, so nothing in it is a finding here.
func (t *Tenants) Watch(id string) func() {
	t.mu.Lock()
	defer t.mu.Unlock()
	ten := *t.byID[id]
	t.onChange = func(nt Tenant) {
		time.Sleep(time.Millisecond)
		t.changes <- nt
	}
	return func() { t.changes <- ten }
}

// RenameHeld takes the lock inside a closure and calls the hook before
// releasing it.
func (t *Tenants) RenameHeld(oldID, newID string) {
	rename := func() {
		t.mu.Lock()
		ten := t.byID[oldID]
		delete(t.byID, oldID)
		ten.ID = newID
		t.byID[newID] = ten
		t.onChange(*ten) // want `t.mu held across call of func value t.onChange, which blocks: \(\*Tenants\).Watch.func1 -> time.Sleep \(locked at closures.go:107\)`
		t.mu.Unlock()
	}
	rename()
}

func (t *Tenants) Rename(oldID, newID string) {
	rename := func() Tenant {
		t.mu.Lock()
		defer t.mu.Unlock()
		ten := t.byID[oldID]
		delete(t.byID, oldID)
		ten.ID = newID
		t.byID[newID] = ten
		return *ten
	}
	t.onChange(rename())
}

// Janitor expires idle sessions.
type Janitor struct {
	mu       sync.Mutex
	lastSeen map[string]time.Time
	expire   func(id string)
}

// SweepHeld nests in-place closures; the innermost still runs under j.mu.
func (j *Janitor) SweepHeld(maxIdle time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := time.Now()
	func() {
		for id, seen := range j.lastSeen {
			if now.Sub(seen) > maxIdle {
				delete(j.lastSeen, id)
				func() {
					j.expire(id) // want `j.mu held across call of func value j.expire \(locked at closures.go:140, released by defer\) \(plausible: the func value can be field expire, which the package never sets\)`
				}()
			}
		}
	}()
}

// Sweep collects the idle sessions in an in-place closure under the lock
// and expires them after.
func (j *Janitor) Sweep(maxIdle time.Duration) {
	now := time.Now()
	var idle []string
	j.mu.Lock()
	func() {
		for id, seen := range j.lastSeen {
			if now.Sub(seen) > maxIdle {
				delete(j.lastSeen, id)
				idle = append(idle, id)
			}
		}
	}()
	j.mu.Unlock()
	for _, id := range idle {
		j.expire(id)
	}
}

// SweepAsync starts the expiry on a goroutine from under the lock: the
// goroutine does not hold j.mu.
func (j *Janitor) SweepAsync(maxIdle time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := time.Now()
	for id, seen := range j.lastSeen {
		if now.Sub(seen) > maxIdle {
			delete(j.lastSeen, id)
			go func(id string) { j.expire(id) }(id)
		}
	}
}
