package chancycle

import "sync"

// A hardware wallet serialises USB exchanges with a one-token channel
// used as a lock, taken and put back under the state lock.

type usbDevice struct{ serial string }

type usbWallet struct {
	stateLock sync.RWMutex
	comms     chan struct{}
	device    *usbDevice
}

func newUSBWallet(d *usbDevice) *usbWallet {
	w := &usbWallet{comms: make(chan struct{}, 1), device: d}
	w.comms <- struct{}{}
	go w.heartbeat()
	return w
}

// heartbeat takes the comms token under the state lock and puts it back:
// the put-back goes into the slot its own take freed. Only the take
// waits.
func (w *usbWallet) heartbeat() {
	for {
		w.stateLock.RLock()
		if w.device == nil {
			w.stateLock.RUnlock()
			return
		}
		<-w.comms // want `w.stateLock held across channel receive, whose sender \(tokens.go:\d+\) takes w.stateLock first \(locked at tokens.go:\d+\)`
		ok := w.device.serial != ""
		w.comms <- struct{}{}
		w.stateLock.RUnlock()
		if !ok {
			w.stateLock.Lock() // tear the wallet down
			w.device = nil
			w.stateLock.Unlock()
		}
	}
}

// Open hands the token in under the state lock without having taken it:
// with the token already in, it waits for a heartbeat that needs the lock.
func (w *usbWallet) Open(d *usbDevice) {
	w.stateLock.Lock()
	defer w.stateLock.Unlock()
	w.device = d
	w.comms <- struct{}{} // want `w.stateLock held across channel send, whose receiver \(tokens.go:\d+\) takes w.stateLock before it receives again \(locked at tokens.go:\d+, released by defer\)`
}

// Sign takes the comms token and puts it back in a deferred closure, with
// the state lock read-held: the put-back goes into the slot its own take
// freed, so it never waits for the heartbeat.
func (w *usbWallet) Sign(payload string) string {
	w.stateLock.RLock()
	defer w.stateLock.RUnlock()
	if w.device == nil {
		return ""
	}
	<-w.comms // want `w.stateLock held across channel receive, whose sender \(tokens.go:\d+\) takes w.stateLock first \(locked at tokens.go:\d+, released by defer\)`
	defer func() { w.comms <- struct{}{} }()
	return w.device.serial + payload
}
