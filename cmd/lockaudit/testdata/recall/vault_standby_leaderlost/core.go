// Models hashicorp/vault PR #5189 ("Fix potential deadlock"): while active,
// the standby goroutine waits in a select for leadership loss, a stop
// request from sealInternal, or a manual step-down. sealInternal holds
// c.stateLock, closes the stop channel and waits for the goroutine to exit;
// the stop case therefore skips taking stateLock. When leadership is lost at
// the same time as the seal, the select may take the leader-lost case, which
// then takes c.stateLock to step down while sealInternal holds it and waits
// for this goroutine (a select without default picks a branch that takes a
// lock whose holder waits, in a channel receive, for this goroutine).
package vault_standby_leaderlost

import (
	"sync"
	"sync/atomic"
)

// HALock is the HA backend's leadership lock.
type HALock interface {
	// Lock acquires leadership; the returned channel is closed on loss.
	Lock(stopCh <-chan struct{}) (<-chan struct{}, error)
	Unlock() error
}

// Core is Vault's core. Buggy version.
type Core struct {
	stateLock sync.RWMutex
	sealed    bool
	standby   bool
	haLock    HALock

	standbyStopCh chan struct{}
	standbyDoneCh chan struct{}
	stepDownCh    chan struct{}
	stepDowns     int64
}

// NewCore returns an unsealed core running in standby mode.
func NewCore(l HALock) *Core {
	c := &Core{haLock: l, standby: true, standbyStopCh: make(chan struct{}), standbyDoneCh: make(chan struct{}), stepDownCh: make(chan struct{})}
	go c.runStandby(c.standbyDoneCh, c.stepDownCh, c.standbyStopCh)
	return c
}

func (c *Core) runStandby(doneCh chan struct{}, manualStepDownCh, stopCh chan struct{}) {
	defer close(doneCh)
	for {
		select {
		case <-stopCh:
			return
		default:
		}
		leaderLostCh, err := c.haLock.Lock(stopCh)
		if err != nil || leaderLostCh == nil {
			return
		}
		c.stateLock.Lock()
		c.standby = false
		c.stateLock.Unlock()

		grabStateLock := true
		stopped := false
		select {
		case <-leaderLostCh:
			// leadership lost, stopping active operation
		case <-stopCh:
			// sealInternal holds the state lock already
			grabStateLock = false
			stopped = true
		case <-manualStepDownCh:
		}
		if grabStateLock {
			c.stateLock.Lock() // BUG: sealInternal may hold it, waiting for doneCh
		}
		c.standby = true
		atomic.AddInt64(&c.stepDowns, 1)
		if grabStateLock {
			c.stateLock.Unlock()
		}
		c.haLock.Unlock()
		if stopped {
			return
		}
	}
}

// Seal seals the vault.
func (c *Core) Seal() error {
	c.stateLock.Lock()
	defer c.stateLock.Unlock()
	return c.sealInternal()
}

func (c *Core) sealInternal() error {
	if c.sealed {
		return nil
	}
	c.sealed = true
	close(c.standbyStopCh)
	<-c.standbyDoneCh // waits for runStandby with stateLock held
	return nil
}

// Sealed reports whether the vault is sealed.
func (c *Core) Sealed() bool {
	c.stateLock.RLock()
	defer c.stateLock.RUnlock()
	return c.sealed
}

// CoreFixed is the fixed version: after a leadership loss the standby
// goroutine takes the state lock with grabLockOrStopFixed, which gives up
// when the stop channel closes.
type CoreFixed struct {
	stateLock sync.RWMutex
	sealed    bool
	standby   bool
	haLock    HALock

	standbyStopCh chan struct{}
	standbyDoneCh chan struct{}
	stepDownCh    chan struct{}
	stepDowns     int64
}

// NewCoreFixed returns an unsealed core running in standby mode.
func NewCoreFixed(l HALock) *CoreFixed {
	c := &CoreFixed{haLock: l, standby: true, standbyStopCh: make(chan struct{}), standbyDoneCh: make(chan struct{}), stepDownCh: make(chan struct{})}
	go c.runStandbyFixed(c.standbyDoneCh, c.stepDownCh, c.standbyStopCh)
	return c
}

// grabLockOrStopFixed takes the lock with lockFunc unless stopCh closes
// first; it reports whether it stopped (in which case the lock is not held).
func grabLockOrStopFixed(lockFunc, unlockFunc func(), stopCh <-chan struct{}) (stopped bool) {
	var mu sync.Mutex
	grabbed, abandoned := false, false
	grabbedCh := make(chan struct{})
	go func() {
		lockFunc()
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			unlockFunc()
			return
		}
		grabbed = true
		close(grabbedCh)
	}()
	select {
	case <-grabbedCh:
		return false
	case <-stopCh:
		mu.Lock()
		defer mu.Unlock()
		if grabbed {
			unlockFunc()
		}
		abandoned = true
		return true
	}
}

func (c *CoreFixed) runStandbyFixed(doneCh chan struct{}, manualStepDownCh, stopCh chan struct{}) {
	defer close(doneCh)
	for {
		select {
		case <-stopCh:
			return
		default:
		}
		leaderLostCh, err := c.haLock.Lock(stopCh)
		if err != nil || leaderLostCh == nil {
			return
		}
		c.stateLock.Lock()
		c.standby = false
		c.stateLock.Unlock()

		grabStateLock := true
		stopped := false
		select {
		case <-leaderLostCh:
		case <-stopCh:
			grabStateLock = false
			stopped = true
		case <-manualStepDownCh:
		}
		if grabStateLock {
			if grabLockOrStopFixed(c.stateLock.Lock, c.stateLock.Unlock, stopCh) {
				grabStateLock = false
				stopped = true
			}
		}
		c.standby = true
		atomic.AddInt64(&c.stepDowns, 1)
		if grabStateLock {
			c.stateLock.Unlock()
		}
		c.haLock.Unlock()
		if stopped {
			return
		}
	}
}

// Seal seals the vault.
func (c *CoreFixed) Seal() error {
	c.stateLock.Lock()
	defer c.stateLock.Unlock()
	return c.sealInternalFixed()
}

func (c *CoreFixed) sealInternalFixed() error {
	if c.sealed {
		return nil
	}
	c.sealed = true
	close(c.standbyStopCh)
	<-c.standbyDoneCh
	return nil
}

// Sealed reports whether the vault is sealed.
func (c *CoreFixed) Sealed() bool {
	c.stateLock.RLock()
	defer c.stateLock.RUnlock()
	return c.sealed
}
