package locker

import (
	"errors"
	"net"
	"sync"
	"time"
)

// A DNS-style server: its start takes the server's lock and hands out an
// unlock function that releases it once, so that the explicit unlock
// before serving and the deferred one on the error paths do not unlock
// twice.
type dnsServer struct {
	lock       sync.Mutex
	started    bool
	listener   net.Listener
	packetConn net.PacketConn
}

func unlockOnce(l sync.Locker) func() {
	var once sync.Once
	return func() { once.Do(l.Unlock) }
}

func unlocker(l sync.Locker) func() {
	return func() { l.Unlock() }
}

var errStarted = errors.New("server already started")

func (srv *dnsServer) activateAndServe() error {
	unlock := unlockOnce(&srv.lock)
	srv.lock.Lock()
	defer unlock()
	if srv.started {
		return errStarted
	}
	if srv.packetConn != nil {
		srv.started = true
		unlock()
		return srv.servePackets()
	}
	if srv.listener == nil {
		return errors.New("no listener")
	}
	srv.started = true
	unlock()
	return srv.serve()
}

func (srv *dnsServer) servePackets() error {
	buf := make([]byte, 512)
	for {
		if _, _, err := srv.packetConn.ReadFrom(buf); err != nil {
			return err
		}
	}
}

func (srv *dnsServer) serve() error {
	for {
		c, err := srv.listener.Accept()
		if err != nil {
			return err
		}
		c.Close()
	}
}

// listen retries the start: no lock of the server's is held while it
// sleeps, the start released it.
func (srv *dnsServer) listen() {
	for i := 0; i < 5; i++ {
		if err := srv.activateAndServe(); err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return
	}
}

// restart backs off with the lock still held: the unlock function has
// not run yet.
func (srv *dnsServer) restart() {
	unlock := unlockOnce(&srv.lock)
	srv.lock.Lock()
	defer unlock()
	time.Sleep(100 * time.Millisecond) // want `srv.lock held across call of time.Sleep`
	srv.started = false
	unlock()
}

// reset releases through a plain unlock function before it waits.
func (srv *dnsServer) reset() {
	srv.lock.Lock()
	unlock := unlocker(&srv.lock)
	srv.started = false
	unlock()
	time.Sleep(100 * time.Millisecond)
}

// A Once the server keeps: after the first stop it has run, and later
// calls unlock nothing.
type zoneServer struct {
	mu       sync.Mutex
	stopOnce sync.Once
	zones    map[string]string
}

func (z *zoneServer) stopLocked() { z.stopOnce.Do(z.mu.Unlock) }

func (z *zoneServer) reload() {
	z.mu.Lock()
	z.zones = map[string]string{}
	z.stopLocked()
	time.Sleep(100 * time.Millisecond) // want `z.mu held across call of time.Sleep`
}

// An unlock function called twice: the second call unlocks nothing.
func (srv *dnsServer) restartTwice() {
	unlock := unlockOnce(&srv.lock)
	srv.lock.Lock()
	srv.started = false
	unlock()
	srv.lock.Lock()
	srv.started = true
	unlock()
	time.Sleep(100 * time.Millisecond) // want `srv.lock held across call of time.Sleep`
}

// handOver returns a func that releases the server's lock and takes the
// zone lock: not a mere unlock function.
func handOver(srvLock, zoneLock sync.Locker) func() {
	return func() {
		srvLock.Unlock()
		zoneLock.Lock()
	}
}

func (srv *dnsServer) transfer(z *zoneServer) {
	srv.lock.Lock()
	next := handOver(&srv.lock, &z.mu)
	next()
	time.Sleep(100 * time.Millisecond) // want `(srv.lock|z.mu) held across call of time.Sleep`
	z.mu.Unlock()
}

// A read lock's unlock function, called with the write lock held: the
// lock stays held (and the program dies at run time).
type cacheTable struct {
	rw    sync.RWMutex
	table map[string]int
}

func (t *cacheTable) refresh() {
	t.rw.Lock()
	unlock := unlockOnce(t.rw.RLocker())
	t.table = map[string]int{}
	unlock()
	time.Sleep(100 * time.Millisecond) // want `t.rw held across call of time.Sleep`
}

// readers release the read side through the same helper.
func (t *cacheTable) get(k string) int {
	t.rw.RLock()
	unlock := unlockOnce(t.rw.RLocker())
	v := t.table[k]
	unlock()
	time.Sleep(time.Millisecond)
	return v
}

// A Once-guarded unlock closure called in place, once per item: from the
// second item on it unlocks nothing.
func (z *zoneServer) pushAll(names []string) {
	var once sync.Once
	unlock := func() { once.Do(z.mu.Unlock) }
	for _, n := range names {
		z.mu.Lock()
		z.zones[n] = ""
		unlock()
		time.Sleep(time.Millisecond) // want `z.mu held across call of time.Sleep`
	}
}

// serverUnlock hands on unlockOnce's function: still a first-call-only
// release.
func serverUnlock(srv *dnsServer) func() { return unlockOnce(&srv.lock) }

func (srv *dnsServer) flip() {
	unlock := serverUnlock(srv)
	srv.lock.Lock()
	unlock()
	srv.lock.Lock()
	unlock()
	time.Sleep(time.Millisecond) // want `srv.lock held across call of time.Sleep`
}

// A zone router whose unlock function reads the current zone when it is
// called: swapped in between, the old zone stays locked.
type zoneRouter struct {
	cur *zoneServer
}

func (r *zoneRouter) unlockCurrent() func() { return func() { r.cur.mu.Unlock() } }

func (r *zoneRouter) swap(next *zoneServer) {
	unlock := r.unlockCurrent()
	r.cur.mu.Lock()
	r.cur = next
	unlock()
	time.Sleep(time.Millisecond) // want `held across call of time.Sleep`
}
