// Package consul_tombstone_expire reproduces hashicorp/consul#3700 (fixed by
// PR #3701, "Gives back the lock before writing to the expire channel").
//
// A tombstone-GC timer fires in its own goroutine, takes the TombstoneGC lock and,
// still holding it, sends the expired index on expireCh; the leader loop that
// drains expireCh is at that moment applying a KV delete whose FSM path calls
// Hint, which needs the same lock, so every KV write on the leader hangs. The fix
// releases the lock before the send.
package consul_tombstone_expire

import (
	"sync"
	"time"
)

type expireInterval struct {
	maxIndex uint64
	timer    *time.Timer
}

type TombstoneGC struct {
	sync.Mutex
	ttl      time.Duration
	expires  map[time.Time]*expireInterval
	expireCh chan uint64
}

func NewTombstoneGC(ttl time.Duration) *TombstoneGC {
	return &TombstoneGC{ttl: ttl, expires: map[time.Time]*expireInterval{}, expireCh: make(chan uint64)}
}

func (t *TombstoneGC) ExpireCh() <-chan uint64 { return t.expireCh }

// Hint is called by the state store for every tombstone it creates.
func (t *TombstoneGC) Hint(index uint64) {
	expires := time.Now().Add(t.ttl).Truncate(time.Second)
	t.Lock()
	defer t.Unlock()
	if exp, ok := t.expires[expires]; ok {
		exp.maxIndex = max(exp.maxIndex, index)
		return
	}
	exp := &expireInterval{maxIndex: index}
	exp.timer = time.AfterFunc(time.Until(expires), func() { t.expireTime(expires) })
	t.expires[expires] = exp
}

func (t *TombstoneGC) expireTime(expires time.Time) {
	t.Lock()
	defer t.Unlock()
	exp := t.expires[expires]
	delete(t.expires, expires)
	t.expireCh <- exp.maxIndex
}

// Leader runs the leader loop: it applies raft log entries and reaps tombstones.
type Leader struct {
	gc      *TombstoneGC
	applyCh chan uint64
	reaped  uint64
}

func (l *Leader) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case idx := <-l.gc.ExpireCh():
			l.reaped = idx
		case idx := <-l.applyCh:
			l.gc.Hint(idx) // FSM apply of a KV delete
		}
	}
}

// ---- fixed twin ----

type TombstoneGCFixed struct {
	sync.Mutex
	ttl      time.Duration
	expires  map[time.Time]*expireInterval
	expireCh chan uint64
}

func (t *TombstoneGCFixed) HintFixed(index uint64) {
	expires := time.Now().Add(t.ttl).Truncate(time.Second)
	t.Lock()
	defer t.Unlock()
	if exp, ok := t.expires[expires]; ok {
		exp.maxIndex = max(exp.maxIndex, index)
		return
	}
	exp := &expireInterval{maxIndex: index}
	exp.timer = time.AfterFunc(time.Until(expires), func() { t.expireTimeFixed(expires) })
	t.expires[expires] = exp
}

func (t *TombstoneGCFixed) expireTimeFixed(expires time.Time) {
	t.Lock()
	exp := t.expires[expires]
	delete(t.expires, expires)
	t.Unlock()
	t.expireCh <- exp.maxIndex
}
