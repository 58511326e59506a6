// Models moby#4951 (GoKer moby_4951): DeleteDevice takes the global devices lock then the device's info.lock; removeDeviceAndWait, two calls down, drops and retakes the global lock while info.lock is held, so a second DeleteDevice holding the global lock waits for info.lock (AB-BA created by unlock/relock in a callee; embedded mutex).
package moby_devmapper_droplock

import (
	"errors"
	"sync"
	"time"
)

var errBusy = errors.New("device or resource busy")

// DevInfo is one thin device.
type DevInfo struct {
	lock sync.Mutex
	Hash string
	Name string
}

// DeviceSet is the devicemapper driver state. Buggy version.
type DeviceSet struct {
	sync.Mutex
	Devices map[string]*DevInfo
	remove  func(name string) error
}

func (devices *DeviceSet) lookupDevice(hash string) *DevInfo {
	return devices.Devices[hash]
}

// removeDeviceAndWait removes the dm device, retrying while it is busy.
func (devices *DeviceSet) removeDeviceAndWait(name string) error {
	var err error
	for i := 0; i < 1000; i++ {
		if err = devices.remove(name); err == nil || err != errBusy {
			break
		}
		// Let other device operations run while we wait.
		devices.Unlock()
		time.Sleep(10 * time.Millisecond)
		devices.Lock() // BUG: global lock retaken while info.lock is held
	}
	return err
}

func (devices *DeviceSet) deactivateDevice(info *DevInfo) error {
	return devices.removeDeviceAndWait(info.Name)
}

// DeleteDevice deactivates and forgets the device hash.
func (devices *DeviceSet) DeleteDevice(hash string) error {
	devices.Lock()
	defer devices.Unlock()
	info := devices.lookupDevice(hash)
	if info == nil {
		return errors.New("unknown device " + hash)
	}
	info.lock.Lock() // BUG: global -> device here, device -> global in removeDeviceAndWait
	defer info.lock.Unlock()
	if err := devices.deactivateDevice(info); err != nil {
		return err
	}
	delete(devices.Devices, hash)
	return nil
}

// DeviceSetFixed is the fixed version: the device lock is always taken
// before the global lock.
type DeviceSetFixed struct {
	sync.Mutex
	Devices map[string]*DevInfo
	remove  func(name string) error
}

func (devices *DeviceSetFixed) lookupDeviceWithLock(hash string) *DevInfo {
	devices.Lock()
	defer devices.Unlock()
	return devices.Devices[hash]
}

func (devices *DeviceSetFixed) removeDeviceAndWait(name string) error {
	var err error
	for i := 0; i < 1000; i++ {
		if err = devices.remove(name); err == nil || err != errBusy {
			break
		}
		devices.Unlock()
		time.Sleep(10 * time.Millisecond)
		devices.Lock()
	}
	return err
}

func (devices *DeviceSetFixed) deactivateDevice(info *DevInfo) error {
	return devices.removeDeviceAndWait(info.Name)
}

// DeleteDevice deactivates and forgets the device hash.
func (devices *DeviceSetFixed) DeleteDevice(hash string) error {
	info := devices.lookupDeviceWithLock(hash)
	if info == nil {
		return errors.New("unknown device " + hash)
	}
	info.lock.Lock()
	defer info.lock.Unlock()
	devices.Lock()
	defer devices.Unlock()
	if err := devices.deactivateDevice(info); err != nil {
		return err
	}
	delete(devices.Devices, hash)
	return nil
}
