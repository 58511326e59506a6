package precision

import (
	"context"
	"os"
	"sync"
)

// A relay manager is an actor: its run loop owns its state and receives
// events on its inbox channels, restarted on demand. Its callers hand an
// event over with one generic helper, given a pointer to the inbox field
// (&r.startCh), while they hold their own locks. The loop only updates
// its maps, so the hand-off lasts one short step of it.

type relayManager struct {
	initOnce  sync.Once
	startCh   chan string
	cancelCh  chan string
	stoppedCh chan struct{}
	work      map[string]bool
}

func (r *relayManager) init() {
	r.initOnce.Do(func() {
		r.startCh = make(chan string)
		r.cancelCh = make(chan string)
		r.work = map[string]bool{}
		r.stoppedCh = make(chan struct{}, 1)
		r.stoppedCh <- struct{}{}
	})
}

func (r *relayManager) runLoop() {
	defer func() { r.stoppedCh <- struct{}{} }()
	for {
		select {
		case ep := <-r.startCh:
			r.work[ep] = true
		case ep := <-r.cancelCh:
			delete(r.work, ep)
			if len(r.work) == 0 {
				return
			}
		}
	}
}

// inputEvent hands ev to the run loop through the inbox eventCh points
// at, starting the loop when it has stopped.
func inputEvent[T any](r *relayManager, ctx context.Context, eventCh *chan T, ev T) {
	r.init()
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	for {
		select {
		case <-done:
			return
		case *eventCh <- ev:
			return
		case <-r.stoppedCh:
			go r.runLoop()
		}
	}
}

func (r *relayManager) startDiscovery(ep string) { inputEvent(r, nil, &r.startCh, ep) }
func (r *relayManager) stopWork(ep string)       { inputEvent(r, nil, &r.cancelCh, ep) }

// MagicConn calls into its relay manager under its lock. Not a finding.
type MagicConn struct {
	mu    sync.Mutex
	peers map[string]bool
	relay relayManager
}

func (c *MagicConn) AddPeer(ep string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.peers[ep] = true
	c.relay.startDiscovery(ep)
}

func (c *MagicConn) RemovePeer(ep string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.peers, ep)
	c.relay.stopWork(ep)
}

// An audit relay is its twin whose loop appends every event to a file
// before it receives the next: each hand-off waits for the disk.

type auditRelay struct {
	initOnce  sync.Once
	eventCh   chan string
	stoppedCh chan struct{}
	log       *os.File
}

func (r *auditRelay) init() {
	r.initOnce.Do(func() {
		r.eventCh = make(chan string)
		r.stoppedCh = make(chan struct{}, 1)
		r.stoppedCh <- struct{}{}
	})
}

func (r *auditRelay) runLoop() {
	defer func() { r.stoppedCh <- struct{}{} }()
	for ev := range r.eventCh {
		r.log.WriteString(ev + "\n")
	}
}

func auditEvent[T any](r *auditRelay, eventCh *chan T, ev T) {
	r.init()
	for {
		select {
		case *eventCh <- ev:
			return
		case <-r.stoppedCh:
			go r.runLoop()
		}
	}
}

type AuditedConn struct {
	mu    sync.Mutex
	peers map[string]bool
	audit auditRelay
}

func (c *AuditedConn) AddPeer(ep string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.peers[ep] = true
	auditEvent(&c.audit, &c.audit.eventCh, "add "+ep) // want `c.mu held across call of auditEvent, which blocks: auditEvent -> select`
}
