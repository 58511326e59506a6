// Package moby_iopipe is modelled on a Moby (Docker) attach/log-stream
// deadlock on an io.Pipe: the stream copier writes each log chunk into the
// attach pipe while holding the stream config's mutex, and io.PipeWriter
// blocks until the other end reads. The attach goroutine on the other end
// takes that mutex to check whether the stream was closed before it reads
// the next chunk, so the writer and the reader wait for each other.
package moby_iopipe

import (
	"io"
	"sync"
)

// StreamConfig is a container's stdio plumbing. Buggy version.
type StreamConfig struct {
	mu     sync.Mutex
	closed bool
	pr     *io.PipeReader
	pw     *io.PipeWriter
	copied int64
}

// NewStreamConfig makes the attach pipe.
func NewStreamConfig() *StreamConfig {
	pr, pw := io.Pipe()
	return &StreamConfig{pr: pr, pw: pw}
}

// CopyChunk writes one chunk of the container's output to the attached client.
func (s *StreamConfig) CopyChunk(chunk []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return io.ErrClosedPipe
	}
	n, err := s.pw.Write(chunk) // BUG: blocks until Attach reads; Attach locks s.mu first
	s.copied += int64(n)
	return err
}

// Attach copies the stream to client until the stream is closed.
func (s *StreamConfig) Attach(client io.Writer) error {
	buf := make([]byte, 32*1024)
	for {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil
		}
		n, err := s.pr.Read(buf)
		if err != nil {
			return err
		}
		if _, err := client.Write(buf[:n]); err != nil {
			return err
		}
	}
}

// Close closes the stream.
func (s *StreamConfig) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.pw.Close()
}

// StreamConfigFixed is the fixed version: the closed check is done under
// the mutex and the pipe write after it is released.
type StreamConfigFixed struct {
	mu     sync.Mutex
	closed bool
	pr     *io.PipeReader
	pw     *io.PipeWriter
	copied int64
}

// NewStreamConfigFixed makes the attach pipe.
func NewStreamConfigFixed() *StreamConfigFixed {
	pr, pw := io.Pipe()
	return &StreamConfigFixed{pr: pr, pw: pw}
}

// CopyChunk writes one chunk of the container's output to the attached client.
func (s *StreamConfigFixed) CopyChunk(chunk []byte) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return io.ErrClosedPipe
	}
	n, err := s.pw.Write(chunk)
	s.mu.Lock()
	s.copied += int64(n)
	s.mu.Unlock()
	return err
}

// Attach copies the stream to client until the stream is closed.
func (s *StreamConfigFixed) Attach(client io.Writer) error {
	buf := make([]byte, 32*1024)
	for {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil
		}
		n, err := s.pr.Read(buf)
		if err != nil {
			return err
		}
		if _, err := client.Write(buf[:n]); err != nil {
			return err
		}
	}
}

// Close closes the stream.
func (s *StreamConfigFixed) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.pw.Close()
}
