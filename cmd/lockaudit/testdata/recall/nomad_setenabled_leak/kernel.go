// Package nomad_setenabled_leak reproduces hashicorp/nomad PR #1231: "Fix periodic
// dispatch and blocked evals not releasing lock".
//
// BlockedEvals.SetEnabled returns early, with b.l still locked, when it is asked
// for the state it is already in; a leader that revokes leadership twice (or is
// re-established) leaves the tracker locked, and the next Block, Flush or capacity
// unblock waits forever. The fix releases the lock on the early return.
package nomad_setenabled_leak

import "sync"

type Evaluation struct {
	ID               string
	ClassEligibility map[string]bool
}

type BlockedEvals struct {
	l                sync.RWMutex
	enabled          bool
	captured         map[string]*Evaluation
	capacityChangeCh chan string
	stopCh           chan struct{}
	ready            []*Evaluation
}

func (b *BlockedEvals) SetEnabled(enabled bool) {
	b.l.Lock()
	if b.enabled == enabled {
		// Do nothing
		return
	}
	b.enabled = enabled
	if enabled {
		b.stopCh = make(chan struct{})
		go b.watchCapacity(b.stopCh, b.capacityChangeCh)
	} else {
		close(b.stopCh)
	}
	b.l.Unlock()
	if !enabled {
		b.Flush()
	}
}

func (b *BlockedEvals) Block(e *Evaluation) {
	b.l.Lock()
	defer b.l.Unlock()
	if b.enabled {
		b.captured[e.ID] = e
	}
}

func (b *BlockedEvals) watchCapacity(stopCh <-chan struct{}, changeCh <-chan string) {
	for {
		select {
		case <-stopCh:
			return
		case class := <-changeCh:
			b.unblock(class)
		}
	}
}

func (b *BlockedEvals) unblock(class string) {
	b.l.Lock()
	defer b.l.Unlock()
	for id, e := range b.captured {
		if elig, ok := e.ClassEligibility[class]; !ok || elig {
			b.ready = append(b.ready, e)
			delete(b.captured, id)
		}
	}
}

func (b *BlockedEvals) Flush() {
	b.l.Lock()
	defer b.l.Unlock()
	b.captured = make(map[string]*Evaluation)
	b.ready = nil
}

// ---- fixed twin ----

func (b *BlockedEvals) SetEnabledFixed(enabled bool) {
	b.l.Lock()
	if b.enabled == enabled {
		b.l.Unlock()
		return
	}
	b.enabled = enabled
	if enabled {
		b.stopCh = make(chan struct{})
		go b.watchCapacity(b.stopCh, b.capacityChangeCh)
	} else {
		close(b.stopCh)
	}
	b.l.Unlock()
	if !enabled {
		b.Flush()
	}
}
