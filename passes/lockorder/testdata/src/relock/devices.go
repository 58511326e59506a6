// want package:"5 lock-order edges"

// Package relock holds a callee that drops its caller's lock and takes it
// back while the caller holds another lock: the take back is an
// acquisition in the opposite order. Each deadlock is next to its twin.
package relock

import (
	"sync"
	"time"
)

// Device is one thin device; its lock guards its state.
type Device struct {
	mu      sync.Mutex
	active  bool
	removed bool
}

// Activate marks the device in use.
func (d *Device) Activate() {
	d.mu.Lock()
	d.active = true
	d.mu.Unlock()
}

// DeviceSet owns the devices; its lock guards the map.
type DeviceSet struct {
	mu      sync.Mutex
	devices map[string]*Device
}

// Delete takes the set's lock, then the device's, and deactivates it.
func (s *DeviceSet) Delete(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dev := s.devices[name]
	if dev == nil {
		return
	}
	dev.mu.Lock() // want `dev.mu locked while holding s.mu \(locked at devices.go:35\); the opposite order takes s.mu while holding dev.mu at devices.go:43: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*relock.DeviceSet\).mu and \(\*relock.Device\).mu\)`
	defer dev.mu.Unlock()
	s.deactivate(dev) // want `s.mu locked through call of \(\*DeviceSet\).deactivate while holding dev.mu \(locked at devices.go:41\); the opposite order takes dev.mu while holding s.mu at devices.go:41: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*relock.Device\).mu and \(\*relock.DeviceSet\).mu\)`
	delete(s.devices, name)
}

// deactivate waits for the device to go away with the set's lock
// released, and takes it back while the caller still holds the device's:
// the device's lock, then the set's.
func (s *DeviceSet) deactivate(dev *Device) {
	for dev.active {
		s.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		s.mu.Lock()
	}
	dev.removed = true
}

// PoolSet is DeviceSet's twin: it releases the device's lock before it
// waits with the set's lock released, so the set's lock is never taken
// under a device's.
type PoolSet struct {
	mu      sync.Mutex
	devices map[string]*Device
}

// Delete takes the set's lock, then the device's only to read its state.
func (s *PoolSet) Delete(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dev := s.devices[name]
	if dev == nil {
		return
	}
	dev.mu.Lock()
	active := dev.active
	dev.mu.Unlock()
	s.deactivate(dev, active)
	delete(s.devices, name)
}

func (s *PoolSet) deactivate(dev *Device, active bool) {
	for active {
		s.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		s.mu.Lock()
		dev.mu.Lock()
		active = dev.active
		dev.mu.Unlock()
	}
}
