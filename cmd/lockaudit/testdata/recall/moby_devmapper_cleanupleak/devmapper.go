// Package moby_devmapper_cleanupleak models moby/moby#17176 (GoKer
// moby_17176; from memory): the devicemapper graph driver's
// cleanupDeletedDevices takes the DeviceSet lock (embedded sync.Mutex) and,
// when there is nothing to clean up, returns without unlocking. It runs on
// every device deletion, so the next AddDevice / DeleteDevice / Status of
// the daemon blocks forever on the leaked lock.
package moby_devmapper_cleanupleak

import (
	"errors"
	"sync"
)

type devInfo struct {
	Hash    string
	Deleted bool
}

// DeviceSet is the thin-pool state. Buggy version.
type DeviceSet struct {
	sync.Mutex
	devices          map[string]*devInfo
	nrDeletedDevices int
}

// NewDeviceSet returns an empty set.
func NewDeviceSet() *DeviceSet { return &DeviceSet{devices: map[string]*devInfo{}} }

// AddDevice creates a thin device.
func (devices *DeviceSet) AddDevice(hash string) error {
	devices.Lock()
	defer devices.Unlock()
	if _, ok := devices.devices[hash]; ok {
		return errors.New("device exists")
	}
	devices.devices[hash] = &devInfo{Hash: hash}
	return nil
}

// MarkDeleted defers a device's deletion, then retries pending deletions.
func (devices *DeviceSet) MarkDeleted(hash string) error {
	devices.Lock()
	if info, ok := devices.devices[hash]; ok && !info.Deleted {
		info.Deleted = true
		devices.nrDeletedDevices++
	}
	devices.Unlock()
	return devices.cleanupDeletedDevices()
}

func (devices *DeviceSet) cleanupDeletedDevices() error {
	devices.Lock()
	if devices.nrDeletedDevices == 0 {
		return nil // BUG: returns with devices locked
	}
	var toDelete []string
	for hash, info := range devices.devices {
		if info.Deleted {
			toDelete = append(toDelete, hash)
		}
	}
	for _, hash := range toDelete {
		delete(devices.devices, hash)
		devices.nrDeletedDevices--
	}
	devices.Unlock()
	return nil
}

// DeviceSetFixed is the fixed version.
type DeviceSetFixed struct {
	sync.Mutex
	devices          map[string]*devInfo
	nrDeletedDevices int
}

// NewDeviceSetFixed returns an empty set.
func NewDeviceSetFixed() *DeviceSetFixed { return &DeviceSetFixed{devices: map[string]*devInfo{}} }

// AddDevice creates a thin device.
func (devices *DeviceSetFixed) AddDevice(hash string) error {
	devices.Lock()
	defer devices.Unlock()
	if _, ok := devices.devices[hash]; ok {
		return errors.New("device exists")
	}
	devices.devices[hash] = &devInfo{Hash: hash}
	return nil
}

// MarkDeleted defers a device's deletion, then retries pending deletions.
func (devices *DeviceSetFixed) MarkDeleted(hash string) error {
	devices.Lock()
	if info, ok := devices.devices[hash]; ok && !info.Deleted {
		info.Deleted = true
		devices.nrDeletedDevices++
	}
	devices.Unlock()
	return devices.cleanupDeletedDevices()
}

func (devices *DeviceSetFixed) cleanupDeletedDevices() error {
	devices.Lock()
	if devices.nrDeletedDevices == 0 {
		devices.Unlock()
		return nil
	}
	var toDelete []string
	for hash, info := range devices.devices {
		if info.Deleted {
			toDelete = append(toDelete, hash)
		}
	}
	for _, hash := range toDelete {
		delete(devices.devices, hash)
		devices.nrDeletedDevices--
	}
	devices.Unlock()
	return nil
}
