package precision

import (
	"net"
	"os"
	"sync"
)

// conn queues frames and flushes them when asked: the wait for the writer
// happens only when flush is true, and with the lock released.
type conn struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	frames [][]byte
	nc     net.Conn
}

func (c *conn) enqueue(frame []byte, flush bool) {
	c.frames = append(c.frames, frame)
	if flush {
		c.mu.Unlock()
		c.wg.Wait()
		c.mu.Lock()
	}
}

// Send queues without flushing: enqueue cannot block here. Not a finding.
func (c *conn) Send(frame []byte) {
	c.mu.Lock()
	c.enqueue(frame, false)
	c.mu.Unlock()
}

// writeOut writes the queued frames to the network if asked to.
func (c *conn) writeOut(now bool) error {
	if !now {
		return nil
	}
	for _, f := range c.frames {
		if _, err := c.nc.Write(f); err != nil {
			return err
		}
	}
	c.frames = nil
	return nil
}

// FlushHeld writes under the lock: now is true.
func (c *conn) FlushHeld() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeOut(true) // want `c.mu held across call of \(\*conn\).writeOut, which blocks: \(\*conn\).writeOut -> net.Conn.Write \(locked at conditions.go:50, released by defer\)`
}

// Queue is its twin: the same helper, asked not to write.
func (c *conn) Queue(frame []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frames = append(c.frames, frame)
	return c.writeOut(false)
}

// segment persists itself once it is open: a fresh segment has no file.
type segment struct {
	f    *os.File
	open bool
	buf  []byte
}

func (s *segment) sync() error {
	if !s.open {
		return nil
	}
	return s.f.Sync()
}

func (s *segment) attach(f *os.File) { s.f, s.open = f, true }

// Log appends segments under its lock.
type Log struct {
	mu   sync.Mutex
	segs []*segment
	cur  *segment
}

// Roll starts a fresh segment and syncs it under the lock: a fresh
// segment is not open, so sync does nothing. Not a finding.
func (l *Log) Roll() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &segment{}
	if err := s.sync(); err != nil {
		return err
	}
	l.segs = append(l.segs, s)
	l.cur = s
	return nil
}

// SyncHeld syncs the current, open segment under the lock.
func (l *Log) SyncHeld() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur.sync() // want `l.mu held across call of \(\*segment\).sync, which blocks: \(\*segment\).sync -> os.\(\*File\).Sync \(locked at conditions.go:102, released by defer\)`
}

// broadcast fans watch responses out; a watcher added to a broadcast that
// has already sent responses gets the latest one at once.
type broadcast struct {
	mu        sync.Mutex
	responses int
	watchers  map[chan []byte]bool
	last      []byte
}

func (b *broadcast) add(w chan []byte) {
	b.watchers[w] = true
	if b.responses > 0 {
		w <- b.last
	}
}

// newBroadcast adds the first watcher to a new broadcast: it has sent no
// responses, so add does not send. Not a finding.
func (h *hub) newBroadcast(w chan []byte) *broadcast {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := &broadcast{watchers: map[chan []byte]bool{}}
	b.add(w)
	h.all = append(h.all, b)
	return b
}

// JoinHeld adds a watcher to an existing broadcast under the hub's lock:
// the send can wait for the watcher.
func (h *hub) JoinHeld(i int, w chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.all[i].add(w) // want `h.mu held across call of \(\*broadcast\).add, which blocks: \(\*broadcast\).add -> channel send \(locked at conditions.go:137, released by defer\)`
}

type hub struct {
	mu  sync.Mutex
	all []*broadcast
}

// send delivers a response to every watcher and counts it.
func (b *broadcast) send(resp []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.responses++
	b.last = resp
	for w := range b.watchers {
		select {
		case w <- resp:
		default:
		}
	}
}

// startBroadcast adds the first watcher, then starts the goroutine that
// feeds the broadcast and counts its responses: when add runs, none has
// been sent, so add does not send. Not a finding.
func (h *hub) startBroadcast(w chan []byte, feed <-chan []byte) *broadcast {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := &broadcast{watchers: map[chan []byte]bool{}}
	b.add(w)
	go func() {
		for resp := range feed {
			b.send(resp)
		}
	}()
	h.all = append(h.all, b)
	return b
}

// startBroadcastEarly starts the feeding goroutine first: by the time add
// runs, responses may have been sent, and add sends the last one to the
// new watcher under the hub's lock.
func (h *hub) startBroadcastEarly(w chan []byte, feed <-chan []byte) *broadcast {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := &broadcast{watchers: map[chan []byte]bool{}}
	go func() {
		for resp := range feed {
			b.send(resp)
		}
	}()
	b.add(w) // want `h.mu held across call of \(\*broadcast\).add, which blocks`
	h.all = append(h.all, b)
	return b
}
