// Package containerd_reaper_subscribers reproduces containerd/containerd#3529
// (follow-up to #2748): the shim reaper hangs between Reap and Monitor.Wait.
//
// Reap holds the monitor lock while it delivers every reaped exit to every
// subscriber channel; a Wait that has found its own pid calls Unsubscribe, which
// needs the same lock, and stops draining, so once its buffer fills Reap blocks on
// the send forever with the lock held. The fix snapshots the subscribers under the
// lock and delivers outside it, giving up on a subscriber that has gone away.
package containerd_reaper_subscribers

import (
	"sync"
	"time"
)

const bufferSize = 32

type Exit struct {
	Timestamp time.Time
	Pid       int
	Status    int
}

type Monitor struct {
	sync.Mutex
	subscribers map[chan Exit]struct{}
}

func NewMonitor() *Monitor { return &Monitor{subscribers: map[chan Exit]struct{}{}} }

func (m *Monitor) Subscribe() chan Exit {
	c := make(chan Exit, bufferSize)
	m.Lock()
	m.subscribers[c] = struct{}{}
	m.Unlock()
	return c
}

func (m *Monitor) Unsubscribe(c chan Exit) {
	m.Lock()
	delete(m.subscribers, c)
	close(c)
	m.Unlock()
}

// Wait returns the status of pid once the reaper reports it.
func (m *Monitor) Wait(pid int, ec chan Exit) int {
	for e := range ec {
		if e.Pid == pid {
			m.Unsubscribe(ec)
			return e.Status
		}
	}
	return -1
}

// Reap is called on SIGCHLD with the exits collected by wait4.
func (m *Monitor) Reap(exits []Exit) {
	now := time.Now()
	m.Lock()
	for c := range m.subscribers {
		for _, e := range exits {
			e.Timestamp = now
			c <- e
		}
	}
	m.Unlock()
}

// ---- fixed twin ----

type subscriberFixed struct {
	c    chan Exit
	gone chan struct{}
}

type MonitorFixed struct {
	sync.Mutex
	subscribers map[chan Exit]*subscriberFixed
}

func (m *MonitorFixed) SubscribeFixed() chan Exit {
	s := &subscriberFixed{c: make(chan Exit, bufferSize), gone: make(chan struct{})}
	m.Lock()
	m.subscribers[s.c] = s
	m.Unlock()
	return s.c
}

func (m *MonitorFixed) UnsubscribeFixed(c chan Exit) {
	m.Lock()
	if s, ok := m.subscribers[c]; ok {
		delete(m.subscribers, c)
		close(s.gone)
	}
	m.Unlock()
}

func (m *MonitorFixed) ReapFixed(exits []Exit) {
	now := time.Now()
	m.Lock()
	subs := make([]*subscriberFixed, 0, len(m.subscribers))
	for _, s := range m.subscribers {
		subs = append(subs, s)
	}
	m.Unlock()
	for _, s := range subs {
		for _, e := range exits {
			e.Timestamp = now
			select {
			case s.c <- e:
			case <-s.gone:
			}
		}
	}
}
