// Package etcd_mvcc_restore reproduces etcd-io/etcd PR #11817 ("mvcc: fix
// deadlock bug"), a hang between snapshot restore and a pending compaction.
//
// store.Restore takes s.mu and then stops the FIFO scheduler, which waits for the
// running job to return; that job's compactBarrier sees its context cancelled and
// takes s.mu to reschedule itself, so Restore waits for the job and the job waits
// for Restore. The upstream fix checks stopc before taking s.mu, so a job
// cancelled by Restore returns without touching the lock.
package etcd_mvcc_restore

import (
	"context"
	"sync"
)

// fifo is etcd's pkg/schedule FIFO scheduler: jobs run one at a time on a
// single goroutine, and Schedule never blocks.
type fifo struct {
	jobs   chan func(context.Context)
	ctx    context.Context
	cancel context.CancelFunc
	donec  chan struct{}
}

func newFIFO() *fifo {
	f := &fifo{jobs: make(chan func(context.Context), 1024), donec: make(chan struct{})}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	go func() {
		defer close(f.donec)
		for {
			select {
			case j := <-f.jobs:
				j(f.ctx)
			case <-f.ctx.Done():
				return
			}
		}
	}()
	return f
}

func (f *fifo) Schedule(j func(context.Context)) { f.jobs <- j }

// Stop cancels the scheduler and waits for the running job to return.
func (f *fifo) Stop() {
	f.cancel()
	<-f.donec
}

type store struct {
	mu        sync.RWMutex
	fifoSched *fifo
	stopc     chan struct{}
}

func (s *store) compactBarrier(ctx context.Context, ch chan struct{}) {
	if ctx == nil || ctx.Err() != nil {
		s.mu.Lock()
		select {
		case <-s.stopc:
		default:
			s.fifoSched.Schedule(func(ctx context.Context) { s.compactBarrier(ctx, ch) })
		}
		s.mu.Unlock()
		return
	}
	close(ch)
}

func (s *store) Compact() chan struct{} {
	ch := make(chan struct{})
	s.fifoSched.Schedule(func(ctx context.Context) { s.compactBarrier(ctx, ch) })
	return ch
}

func (s *store) Restore() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.stopc)
	s.fifoSched.Stop()
	s.fifoSched = newFIFO()
	s.stopc = make(chan struct{})
}

// ---- fixed twin (the upstream fix: check stopc before taking s.mu) ----

func (s *store) compactBarrierFixed(ctx context.Context, ch chan struct{}) {
	if ctx == nil || ctx.Err() != nil {
		select {
		case <-s.stopc:
		default:
			s.mu.Lock()
			s.fifoSched.Schedule(func(ctx context.Context) { s.compactBarrierFixed(ctx, ch) })
			s.mu.Unlock()
		}
		return
	}
	close(ch)
}

func (s *store) CompactFixed() chan struct{} {
	ch := make(chan struct{})
	s.fifoSched.Schedule(func(ctx context.Context) { s.compactBarrierFixed(ctx, ch) })
	return ch
}

// RestoreFixed is unchanged upstream.
func (s *store) RestoreFixed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.stopc)
	s.fifoSched.Stop()
	s.fifoSched = newFIFO()
	s.stopc = make(chan struct{})
}
