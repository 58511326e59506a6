// Package grpc_controlbuf is modelled on a grpc-go HTTP/2 client transport
// deadlock: closing a stream under the transport's mutex queues a
// RST_STREAM frame for the writer goroutine through two helper calls, and
// the queue is an unbuffered channel. The loopy writer takes the same
// mutex to check that a frame's stream is still active before it goes
// back to the queue, so CloseStream and the writer wait for each other.
package grpc_controlbuf

import (
	"errors"
	"io"
	"sync"
)

type controlFrame struct {
	streamID uint32
	kind     string
}

// Stream is one RPC on the transport.
type Stream struct {
	id  uint32
	err error
}

// http2Client is the client side of a connection. Buggy version.
type http2Client struct {
	mu            sync.Mutex
	nextID        uint32
	activeStreams map[uint32]*Stream
	controlBuf    chan controlFrame
	conn          io.Writer
}

func newHTTP2Client(conn io.Writer) *http2Client {
	t := &http2Client{
		nextID:        1,
		activeStreams: make(map[uint32]*Stream),
		controlBuf:    make(chan controlFrame),
		conn:          conn,
	}
	go t.loopyWriter()
	return t
}

// NewStream opens a stream.
func (t *http2Client) NewStream() *Stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &Stream{id: t.nextID}
	t.nextID += 2
	t.activeStreams[s.id] = s
	return s
}

// CloseStream ends s with err and tells the peer.
func (t *http2Client) CloseStream(s *Stream, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.activeStreams[s.id]; !ok {
		return
	}
	delete(t.activeStreams, s.id)
	t.finishStream(s, err)
}

func (t *http2Client) finishStream(s *Stream, err error) {
	if err == nil {
		err = errors.New("stream closed")
	}
	s.err = err
	t.writeRST(s.id)
}

func (t *http2Client) writeRST(id uint32) {
	t.controlBuf <- controlFrame{streamID: id, kind: "RST_STREAM"} // BUG: t.mu held by CloseStream
}

func (t *http2Client) loopyWriter() {
	for f := range t.controlBuf {
		t.mu.Lock()
		_, active := t.activeStreams[f.streamID]
		t.mu.Unlock()
		if f.kind != "RST_STREAM" && !active {
			continue
		}
		if _, err := t.conn.Write([]byte(f.kind)); err != nil {
			return
		}
	}
}

// http2ClientFixed is the fixed version: the stream is removed under the
// mutex, the frame is queued after it is released.
type http2ClientFixed struct {
	mu            sync.Mutex
	nextID        uint32
	activeStreams map[uint32]*Stream
	controlBuf    chan controlFrame
	conn          io.Writer
}

func newHTTP2ClientFixed(conn io.Writer) *http2ClientFixed {
	t := &http2ClientFixed{
		nextID:        1,
		activeStreams: make(map[uint32]*Stream),
		controlBuf:    make(chan controlFrame),
		conn:          conn,
	}
	go t.loopyWriter()
	return t
}

// NewStream opens a stream.
func (t *http2ClientFixed) NewStream() *Stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &Stream{id: t.nextID}
	t.nextID += 2
	t.activeStreams[s.id] = s
	return s
}

// CloseStream ends s with err and tells the peer.
func (t *http2ClientFixed) CloseStream(s *Stream, err error) {
	t.mu.Lock()
	if _, ok := t.activeStreams[s.id]; !ok {
		t.mu.Unlock()
		return
	}
	delete(t.activeStreams, s.id)
	t.mu.Unlock()
	t.finishStream(s, err)
}

func (t *http2ClientFixed) finishStream(s *Stream, err error) {
	if err == nil {
		err = errors.New("stream closed")
	}
	s.err = err
	t.writeRST(s.id)
}

func (t *http2ClientFixed) writeRST(id uint32) {
	t.controlBuf <- controlFrame{streamID: id, kind: "RST_STREAM"}
}

func (t *http2ClientFixed) loopyWriter() {
	for f := range t.controlBuf {
		t.mu.Lock()
		_, active := t.activeStreams[f.streamID]
		t.mu.Unlock()
		if f.kind != "RST_STREAM" && !active {
			continue
		}
		if _, err := t.conn.Write([]byte(f.kind)); err != nil {
			return
		}
	}
}

// Dial returns both clients, so that the package is used.
func Dial(conn io.Writer) (*http2Client, *http2ClientFixed) {
	return newHTTP2Client(conn), newHTTP2ClientFixed(conn)
}
