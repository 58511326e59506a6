// Models kubernetes#6632 (GoKer kubernetes_6632; spdystream idle monitor): WriteFrame holds writeLock while it sends on resetChan to reset the idle timer; when the buffer is full and the connection closes, monitor's close case needs writeLock to close resetChan (lock held across a buffered send; the receiver takes the lock in one case of a multi-case select loop).
package k8s_spdy_idleframer

import (
	"errors"
	"sync"
	"time"
)

// Frame is one SPDY frame.
type Frame struct {
	StreamID uint32
	Data     []byte
}

type frameWriter struct{ out [][]byte }

func (w *frameWriter) write(f Frame) error { w.out = append(w.out, f.Data); return nil }

// Connection is a SPDY connection.
type Connection struct {
	closeChan chan struct{}
	closeOnce sync.Once
}

// Close closes the connection.
func (c *Connection) Close() { c.closeOnce.Do(func() { close(c.closeChan) }) }

// idleAwareFramer closes the connection after idleTimeout without frames.
// Buggy version.
type idleAwareFramer struct {
	f           *frameWriter
	conn        *Connection
	writeLock   sync.Mutex
	resetChan   chan struct{}
	idleTimeout time.Duration
}

func newIdleAwareFramer(conn *Connection, timeout time.Duration) *idleAwareFramer {
	return &idleAwareFramer{f: &frameWriter{}, conn: conn, resetChan: make(chan struct{}, 2), idleTimeout: timeout}
}

func (i *idleAwareFramer) monitor() {
	timer := time.NewTimer(i.idleTimeout)
	resetChan := i.resetChan
Loop:
	for {
		select {
		case <-timer.C:
			i.conn.Close()
		case <-resetChan:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timer.Reset(i.idleTimeout)
		case <-i.conn.closeChan:
			timer.Stop()
			i.writeLock.Lock()
			close(resetChan)
			i.resetChan = nil
			i.writeLock.Unlock()
			break Loop
		}
	}
}

// WriteFrame writes frame and resets the idle timer.
func (i *idleAwareFramer) WriteFrame(frame Frame) error {
	i.writeLock.Lock()
	defer i.writeLock.Unlock()
	if i.resetChan == nil {
		return errors.New("spdy: connection closed")
	}
	if err := i.f.write(frame); err != nil {
		return err
	}
	i.resetChan <- struct{}{} // BUG: blocks when full; monitor needs writeLock to close the channel
	return nil
}

// idleAwareFramerFixed is the fixed version (as spdystream did): on close,
// monitor starts a goroutine that drains resetChan before it takes writeLock.
type idleAwareFramerFixed struct {
	f           *frameWriter
	conn        *Connection
	writeLock   sync.Mutex
	resetChan   chan struct{}
	idleTimeout time.Duration
}

func newIdleAwareFramerFixed(conn *Connection, timeout time.Duration) *idleAwareFramerFixed {
	return &idleAwareFramerFixed{f: &frameWriter{}, conn: conn, resetChan: make(chan struct{}, 2), idleTimeout: timeout}
}

func (i *idleAwareFramerFixed) monitor() {
	timer := time.NewTimer(i.idleTimeout)
	resetChan := i.resetChan
Loop:
	for {
		select {
		case <-timer.C:
			i.conn.Close()
		case <-resetChan:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timer.Reset(i.idleTimeout)
		case <-i.conn.closeChan:
			timer.Stop()
			go func() {
				for range resetChan {
				}
			}()
			i.writeLock.Lock()
			close(resetChan)
			i.resetChan = nil
			i.writeLock.Unlock()
			break Loop
		}
	}
}

// WriteFrame writes frame and resets the idle timer.
func (i *idleAwareFramerFixed) WriteFrame(frame Frame) error {
	i.writeLock.Lock()
	defer i.writeLock.Unlock()
	if i.resetChan == nil {
		return errors.New("spdy: connection closed")
	}
	if err := i.f.write(frame); err != nil {
		return err
	}
	i.resetChan <- struct{}{}
	return nil
}
