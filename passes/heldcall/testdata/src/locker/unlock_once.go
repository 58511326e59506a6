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
	lock     sync.Mutex
	started  bool
	listener net.Listener
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
	if srv.listener == nil {
		return errors.New("no listener")
	}
	srv.started = true
	unlock()
	return srv.serve()
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
