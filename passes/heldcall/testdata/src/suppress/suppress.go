// Package suppress holds suppression comments: //lockaudit:ignore for
// heldcall (or one of its categories, or all rules) and //nolint:lockaudit
// silence a finding on their line or the line below; a suppression of
// another rule, category or linter does not. Each positive (a suppression
// that does not apply) is next to its twin (one that does).
package suppress

import (
	"sync"
	"time"
)

// Notifier fans events out to a hook documented as cheap.
type Notifier struct {
	mu     sync.Mutex
	seq    int
	hook   func(seq int)
	events chan int
}

// NotifyOtherRule carries a suppression for lockorder: it does not silence
// heldcall.
func (n *Notifier) NotifyOtherRule() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seq++
	//lockaudit:ignore lockorder the hook takes no locks of ours
	n.hook(n.seq) // want `n.mu held across call of func value n.hook \(locked at suppress.go:24, released by defer\) \(plausible: the func value can be field hook, which the package never sets\)`
}

// Notify carries a heldcall suppression on the line above, with a reason.
func (n *Notifier) Notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seq++
	//lockaudit:ignore heldcall the hook only bumps an atomic counter
	n.hook(n.seq)
}

// NotifySameLineOtherRule has a same-line suppression of another rule.
func (n *Notifier) NotifySameLineOtherRule() {
	n.mu.Lock()
	n.seq++
	n.hook(n.seq) //lockaudit:ignore shardlock not a shard // want `n.mu held across call of func value n.hook \(locked at suppress.go:42\) \(plausible: the func value can be field hook, which the package never sets\)`
	n.mu.Unlock()
}

// NotifySameLine carries the heldcall suppression on the same line.
func (n *Notifier) NotifySameLine() {
	n.mu.Lock()
	n.seq++
	n.hook(n.seq) //lockaudit:ignore heldcall the hook only bumps an atomic counter
	n.mu.Unlock()
}

// SendNolintOther has a nolint for another linter.
func (n *Notifier) SendNolintOther() {
	n.mu.Lock()
	n.seq++
	n.events <- n.seq //nolint:errcheck // want `n.mu held across channel send \(locked at suppress.go:58\)`
	n.mu.Unlock()
}

// SendNolint carries golangci-lint's nolint for lockaudit.
func (n *Notifier) SendNolint() {
	n.mu.Lock()
	n.seq++
	n.events <- n.seq //nolint:lockaudit // events is buffered and drained by a dedicated goroutine
	n.mu.Unlock()
}

// SendNolintList names lockaudit among other linters.
func (n *Notifier) SendNolintList() {
	n.mu.Lock()
	n.seq++
	//nolint:errcheck,lockaudit // events is buffered and drained by a dedicated goroutine
	n.events <- n.seq
	n.mu.Unlock()
}

// PaceOtherCategory silences heldcall/chan, but the finding is a sleep.
func (n *Notifier) PaceOtherCategory() {
	n.mu.Lock()
	defer n.mu.Unlock()
	//lockaudit:ignore heldcall/chan only the channel send is accepted here
	time.Sleep(time.Millisecond) // want `n.mu held across call of time.Sleep \(locked at suppress.go:83, released by defer\)`
}

// Pace silences the sleep category of heldcall.
func (n *Notifier) Pace() {
	n.mu.Lock()
	defer n.mu.Unlock()
	//lockaudit:ignore heldcall/sleep pacing the producers is the point of this lock
	time.Sleep(time.Millisecond)
}

// PaceTooFar has the suppression two lines above the finding: it covers
// its own line and the next one only.
func (n *Notifier) PaceTooFar() {
	n.mu.Lock()
	defer n.mu.Unlock()
	//lockaudit:ignore heldcall pacing the producers is the point of this lock
	n.seq++
	time.Sleep(time.Millisecond) // want `n.mu held across call of time.Sleep \(locked at suppress.go:100, released by defer\)`
}

// PaceAll silences every lockaudit rule, and several rules listed
// together silence each of them.
func (n *Notifier) PaceAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	//lockaudit:ignore all pacing the producers is the point of this lock
	time.Sleep(time.Millisecond)
	//lockaudit:ignore lockorder,heldcall pacing again after the bookkeeping
	time.Sleep(time.Millisecond)
}
