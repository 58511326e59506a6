package callbacks

import "sync"

// A stream reassembles frames in order. Each queued frame carries the
// function that returns its buffer to the pool once it is read; only the
// stream queues frames, so the function is always that one.

type frameBuf struct{ data []byte }

var framePool = sync.Pool{New: func() any { return new(frameBuf) }}

func (f *frameBuf) PutBack() { framePool.Put(f) }

type queuedFrame struct {
	Data   []byte
	DoneCb func()
}

type frameQueue struct {
	frames map[int64]queuedFrame
	next   int64
}

func (q *frameQueue) push(off int64, f *frameBuf) {
	q.frames[off] = queuedFrame{Data: f.data, DoneCb: f.PutBack}
}

func (q *frameQueue) pop() ([]byte, func()) {
	e, ok := q.frames[q.next]
	if !ok {
		return nil, nil
	}
	delete(q.frames, q.next)
	q.next += int64(len(e.Data))
	return e.Data, e.DoneCb
}

type ReceiveStream struct {
	mu        sync.Mutex
	queue     frameQueue
	frameDone func()
}

// Read hands the previous frame's buffer back under the stream lock: the
// callback is the pool's PutBack. Not a finding.
func (s *ReceiveStream) Read(p []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frameDone != nil {
		s.frameDone()
	}
	var data []byte
	data, s.frameDone = s.queue.pop()
	return copy(p, data)
}

// A delivery entry's exported OnAck field is set by the package's users
// through the exported Delivery type that embeds it.

type ackHook struct {
	OnAck func(id int64)
}

type Delivery struct {
	ackHook
	ID int64
}

type Inbox struct {
	mu    sync.Mutex
	acked map[int64]bool
}

// Ack runs the user's hook under the inbox lock.
func (in *Inbox) Ack(d *Delivery) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.acked[d.ID] = true
	d.OnAck(d.ID) // want `in.mu held across call of func value d.OnAck \(locked at frames.go:\d+, released by defer\)`
}
