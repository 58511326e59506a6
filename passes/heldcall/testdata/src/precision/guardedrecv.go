package precision

import (
	"sync"
	"time"
)

// A broker connection is throttled by the server: the throttle timer is
// re-armed under its lock, and requests wait for it.

type throttledConn struct {
	throttleMu sync.Mutex
	throttle   *time.Timer
}

// SetThrottle re-arms the timer, draining a tick that fired: Stop reports
// false only for a fired timer, whose tick is there to take. Not a finding.
func (c *throttledConn) SetThrottle(d time.Duration) {
	c.throttleMu.Lock()
	defer c.throttleMu.Unlock()
	if c.throttle != nil {
		if !c.throttle.Stop() {
			<-c.throttle.C
		}
	}
	c.throttle = time.NewTimer(d)
}

// WaitThrottled waits for the timer under the lock: SetThrottle callers
// wait for the whole throttle time.
func (c *throttledConn) WaitThrottled() {
	c.throttleMu.Lock()
	defer c.throttleMu.Unlock()
	if c.throttle != nil {
		<-c.throttle.C // want `c.throttleMu held across channel receive \(locked at guardedrecv.go:32, released by defer\)`
		c.throttle = nil
	}
}

// A paused consumer keeps the messages it was handed in a buffered channel
// and hands them on when resumed; both sides take the consumer's lock.

type pausableConsumer struct {
	mu         sync.Mutex
	paused     bool
	suppressed chan string
	out        []string
}

func (p *pausableConsumer) Yield(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		select {
		case p.suppressed <- msg:
		default:
		}
		return
	}
	p.out = append(p.out, msg)
}

// Resume hands on what was kept while paused: the length check under the
// lock every sender takes sees each value it receives. Not a finding.
func (p *pausableConsumer) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	for len(p.suppressed) > 0 {
		p.out = append(p.out, <-p.suppressed)
	}
}

// ResumeFirst hands on one kept message when no more than one was kept,
// with the constant on the left: 1 >= len(ch) holds for an empty channel
// too, so the receive can wait for a Yield that needs the lock.
func (p *pausableConsumer) ResumeFirst() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if 1 >= len(p.suppressed) {
		p.out = append(p.out, <-p.suppressed) // want `p.mu held across channel receive \(locked at guardedrecv.go:\d+, released by defer\)`
	}
}

// ResumeOne waits for a kept message under the lock whether or not one was
// kept: with none, it waits for a Yield that needs the lock.
func (p *pausableConsumer) ResumeOne() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = false
	p.out = append(p.out, <-p.suppressed) // want `p.mu held across channel receive \(locked at guardedrecv.go:\d+, released by defer\)`
}

type brokerConn struct {
	mu   sync.Mutex
	conn *throttledConn
	sent int
}

// HandleThrottle re-arms the throttle under the broker lock: SetThrottle's
// drain does not wait, so nothing blocks. Not a finding.
func (b *brokerConn) HandleThrottle(d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent++
	b.conn.SetThrottle(d)
}

// HoldThrottled waits out the throttle under the broker lock.
func (b *brokerConn) HoldThrottled() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.conn.WaitThrottled() // want `b.mu held across call of \(\*throttledConn\).WaitThrottled, which blocks: \(\*throttledConn\).WaitThrottled -> channel receive \(locked at guardedrecv.go:\d+, released by defer\)`
}
