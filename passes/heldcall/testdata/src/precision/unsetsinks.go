package precision

import (
	"errors"
	"sync"
)

// A message transport that a test harness drives: its sink is an
// optional copy of every frame written, which nothing in the program
// wires, so the send under the lock never runs. A recording transport
// of the same shape is given its sink by its constructor.

var errTransportClosed = errors.New("transport closed")

type loopbackTransport struct {
	mu     sync.Mutex
	sink   chan []byte
	closed bool
	frames int
}

// NewLoopbackTransport returns a transport with no sink.
func NewLoopbackTransport() *loopbackTransport { return &loopbackTransport{} }

// WriteMany copies each frame to the sink, if one is wired. Not a
// finding: no code sets sink.
func (t *loopbackTransport) WriteMany(frames ...[]byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errTransportClosed
	}
	for _, f := range frames {
		t.frames++
		if t.sink != nil {
			t.sink <- append([]byte(nil), f...)
		}
	}
	return nil
}

type recordingTransport struct {
	mu     sync.Mutex
	sink   chan []byte
	closed bool
}

// NewRecordingTransport wires the sink its caller reads.
func NewRecordingTransport(sink chan []byte) *recordingTransport {
	return &recordingTransport{sink: sink}
}

// WriteMany is its twin: the sink is the caller's channel, and the send
// waits for the reader with the lock held.
func (t *recordingTransport) WriteMany(frames ...[]byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errTransportClosed
	}
	for _, f := range frames {
		if t.sink != nil {
			t.sink <- append([]byte(nil), f...) // want `t.mu held across channel send \(locked at unsetsinks.go:\d+, released by defer\)`
		}
	}
	return nil
}
