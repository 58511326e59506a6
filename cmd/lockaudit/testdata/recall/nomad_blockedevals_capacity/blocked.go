// Package nomad_blockedevals_capacity is modelled on Nomad's BlockedEvals
// (nomad/blocked_evals.go; from memory, the issue number is not recalled;
// upstream now sends on capacityChangeCh after releasing b.l): Unblock,
// called for every node update, records the class's unblock index under
// the tracker's lock and, still holding it, queues a capacity update on a
// buffered channel. The watchCapacity goroutine drains that channel and
// handles each update in unblock, which takes the same lock. Once a burst
// of node updates fills the buffer, Unblock blocks in the send holding the
// lock and the only receiver waits for the lock: the leader's plan and
// node endpoints stall.
package nomad_blockedevals_capacity

import "sync"

const unblockBuffer = 8096

// Evaluation is a blocked scheduling evaluation.
type Evaluation struct {
	ID    string
	Class string
}

type capacityUpdate struct {
	computedClass string
	index         uint64
}

// BlockedEvals tracks evaluations blocked on capacity. Buggy version.
type BlockedEvals struct {
	l                sync.RWMutex
	enabled          bool
	captured         map[string]*Evaluation
	unblockIndexes   map[string]uint64
	capacityChangeCh chan *capacityUpdate
	stopCh           chan struct{}
	ready            []*Evaluation
}

// NewBlockedEvals returns a disabled tracker.
func NewBlockedEvals() *BlockedEvals {
	return &BlockedEvals{
		captured:         map[string]*Evaluation{},
		unblockIndexes:   map[string]uint64{},
		capacityChangeCh: make(chan *capacityUpdate, unblockBuffer),
	}
}

// SetEnabled starts or stops the tracker when leadership changes.
func (b *BlockedEvals) SetEnabled(enabled bool) {
	b.l.Lock()
	defer b.l.Unlock()
	if b.enabled == enabled {
		return
	}
	b.enabled = enabled
	if enabled {
		b.stopCh = make(chan struct{})
		go b.watchCapacity(b.stopCh)
	} else {
		close(b.stopCh)
	}
}

// Block tracks an evaluation.
func (b *BlockedEvals) Block(ev *Evaluation) {
	b.l.Lock()
	defer b.l.Unlock()
	b.captured[ev.ID] = ev
}

// Unblock is called when capacity of a class changes.
func (b *BlockedEvals) Unblock(computedClass string, index uint64) {
	b.l.Lock()
	defer b.l.Unlock()
	if !b.enabled {
		return
	}
	b.unblockIndexes[computedClass] = index
	b.capacityChangeCh <- &capacityUpdate{computedClass: computedClass, index: index} // BUG: blocks under b.l once the buffer is full
}

func (b *BlockedEvals) watchCapacity(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case update := <-b.capacityChangeCh:
			b.unblock(update.computedClass, update.index)
		}
	}
}

func (b *BlockedEvals) unblock(computedClass string, index uint64) {
	b.l.Lock()
	defer b.l.Unlock()
	for id, ev := range b.captured {
		if ev.Class == computedClass {
			b.ready = append(b.ready, ev)
			delete(b.captured, id)
		}
	}
}

// BlockedEvalsFixed is the fixed version: the update is queued after the
// lock is released.
type BlockedEvalsFixed struct {
	l                sync.RWMutex
	enabled          bool
	captured         map[string]*Evaluation
	unblockIndexes   map[string]uint64
	capacityChangeCh chan *capacityUpdate
	stopCh           chan struct{}
	ready            []*Evaluation
}

// NewBlockedEvalsFixed returns a disabled tracker.
func NewBlockedEvalsFixed() *BlockedEvalsFixed {
	return &BlockedEvalsFixed{
		captured:         map[string]*Evaluation{},
		unblockIndexes:   map[string]uint64{},
		capacityChangeCh: make(chan *capacityUpdate, unblockBuffer),
	}
}

// SetEnabled starts or stops the tracker when leadership changes.
func (b *BlockedEvalsFixed) SetEnabled(enabled bool) {
	b.l.Lock()
	defer b.l.Unlock()
	if b.enabled == enabled {
		return
	}
	b.enabled = enabled
	if enabled {
		b.stopCh = make(chan struct{})
		go b.watchCapacity(b.stopCh)
	} else {
		close(b.stopCh)
	}
}

// Block tracks an evaluation.
func (b *BlockedEvalsFixed) Block(ev *Evaluation) {
	b.l.Lock()
	defer b.l.Unlock()
	b.captured[ev.ID] = ev
}

// Unblock is called when capacity of a class changes.
func (b *BlockedEvalsFixed) Unblock(computedClass string, index uint64) {
	b.l.Lock()
	if !b.enabled {
		b.l.Unlock()
		return
	}
	b.unblockIndexes[computedClass] = index
	b.l.Unlock()
	b.capacityChangeCh <- &capacityUpdate{computedClass: computedClass, index: index}
}

func (b *BlockedEvalsFixed) watchCapacity(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case update := <-b.capacityChangeCh:
			b.unblock(update.computedClass, update.index)
		}
	}
}

func (b *BlockedEvalsFixed) unblock(computedClass string, index uint64) {
	b.l.Lock()
	defer b.l.Unlock()
	for id, ev := range b.captured {
		if ev.Class == computedClass {
			b.ready = append(b.ready, ev)
			delete(b.captured, id)
		}
	}
}
