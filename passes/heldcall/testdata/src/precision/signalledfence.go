package precision

import (
	"context"
	"errors"
	"sync"
)

var errDispatcherStopped = errors.New("dispatcher stopped")

// TaskDispatcher serves agents' long-lived sessions. Each session holds
// the read side of rpcRW for its whole life, as an in-flight count; Stop
// cancels the context every session waits on, then takes the write side
// to wait for the sessions to drain. A session's wait holds up only the
// closer, which has told it to end.
type TaskDispatcher struct {
	rpcRW   sync.RWMutex
	ctx     context.Context
	cancel  context.CancelFunc
	updates chan []string
	nodes   map[string]bool
}

func NewTaskDispatcher() *TaskDispatcher {
	ctx, cancel := context.WithCancel(context.Background())
	return &TaskDispatcher{ctx: ctx, cancel: cancel, updates: make(chan []string), nodes: map[string]bool{}}
}

func (d *TaskDispatcher) Session(node string, send func([]string) error) error {
	d.rpcRW.RLock()
	defer d.rpcRW.RUnlock()
	for {
		select { // want `d.rpcRW held across blocking select \(locked at signalledfence.go:30, released by defer\) \(plausible: d.rpcRW is read-locked, and only teardown locks it for writing, after it signals shutdown\)`
		case tasks := <-d.updates:
			// The caller's func keeps the warning: it need not heed
			// the cancel.
			if err := send(tasks); err != nil { // want `d.rpcRW held across call of func value send \(locked at signalledfence.go:30, released by defer\)`
				return err
			}
		case <-d.ctx.Done():
			return errDispatcherStopped
		}
	}
}

func (d *TaskDispatcher) Stop() {
	d.cancel()
	d.rpcRW.Lock()
	clear(d.nodes)
	d.rpcRW.Unlock()
}

// LogHub is its twin whose Stop takes the write side first and cancels
// after: a session waiting for the next batch keeps the read side, and
// Stop waits for it for ever.
type LogHub struct {
	rpcRW   sync.RWMutex
	ctx     context.Context
	cancel  context.CancelFunc
	batches chan []string
	subs    map[string]bool
}

func (h *LogHub) Subscribe(out chan<- []string) error {
	h.rpcRW.RLock()
	defer h.rpcRW.RUnlock()
	for {
		select { // want `h.rpcRW held across blocking select \(locked at signalledfence.go:\d+, released by defer\)`
		case b := <-h.batches:
			out <- b // want `h.rpcRW held across channel send \(locked at signalledfence.go:\d+, released by defer\)`
		case <-h.ctx.Done():
			return h.ctx.Err()
		}
	}
}

func (h *LogHub) Stop() {
	h.rpcRW.Lock()
	clear(h.subs)
	h.rpcRW.Unlock()
	h.cancel()
}

// MetricsHub is its twin whose Stop signals on one path only: when the
// hub was never started it takes the write side without cancelling.
type MetricsHub struct {
	rpcRW   sync.RWMutex
	ctx     context.Context
	cancel  context.CancelFunc
	samples chan float64
	series  map[string]float64
}

func (h *MetricsHub) Stream(out chan<- float64) error {
	h.rpcRW.RLock()
	defer h.rpcRW.RUnlock()
	for {
		select { // want `h.rpcRW held across blocking select \(locked at signalledfence.go:\d+, released by defer\)`
		case s := <-h.samples:
			select {
			case out <- s:
			default:
			}
		case <-h.ctx.Done():
			return h.ctx.Err()
		}
	}
}

func (h *MetricsHub) Stop() {
	if h.cancel != nil {
		h.cancel()
	}
	h.rpcRW.Lock()
	clear(h.series)
	h.rpcRW.Unlock()
}
