// Models syncthing#3596 ("Deadlock on device removal"): the model's two
// RWMutexes are meant to be taken fmut first, then pmut. Model.Availability
// read-locks pmut and then fmut, while Completion read-locks fmut, reads the
// folder's database, and then read-locks pmut. Two read locks do not exclude
// each other, but a folder removal queued for fmut's write lock and a device
// disconnect queued for pmut's write lock block the second RLock of each side:
// the four goroutines wait in a cycle (read-lock order inversion between two
// RWMutexes, deadlocking only behind queued writers).
package syncthing_model_fmutpmut

import "sync"

// DeviceID names a device.
type DeviceID string

// FileSet is a folder's file database.
type FileSet interface {
	GlobalSize() int64
	NeedSize(device DeviceID) int64
	Availability(file string) []DeviceID
}

// deviceDownloadState tracks a device's in-progress downloads.
type deviceDownloadState struct {
	mut   sync.Mutex
	files map[string]map[string]int64 // folder -> file -> bytes
}

func (s *deviceDownloadState) Has(folder, file string) bool {
	if s == nil {
		return false
	}
	s.mut.Lock()
	defer s.mut.Unlock()
	_, ok := s.files[folder][file]
	return ok
}

func (s *deviceDownloadState) BytesDownloaded(folder string) int64 {
	if s == nil {
		return 0
	}
	s.mut.Lock()
	defer s.mut.Unlock()
	var n int64
	for _, b := range s.files[folder] {
		n += b
	}
	return n
}

// Model is Syncthing's model. Buggy version.
type Model struct {
	fmut          sync.RWMutex // protects folderFiles and folderDevices
	folderFiles   map[string]FileSet
	folderDevices map[string][]DeviceID

	pmut            sync.RWMutex // protects conn and deviceDownloads
	conn            map[DeviceID]bool
	deviceDownloads map[DeviceID]*deviceDownloadState
}

// NewModel returns an empty model.
func NewModel() *Model {
	return &Model{
		folderFiles:     map[string]FileSet{},
		folderDevices:   map[string][]DeviceID{},
		conn:            map[DeviceID]bool{},
		deviceDownloads: map[DeviceID]*deviceDownloadState{},
	}
}

// AddFolder shares folder with devices.
func (m *Model) AddFolder(folder string, fs FileSet, devices ...DeviceID) {
	m.fmut.Lock()
	m.folderFiles[folder] = fs
	m.folderDevices[folder] = devices
	m.fmut.Unlock()
}

// AddConnection registers a connected device.
func (m *Model) AddConnection(device DeviceID) {
	m.pmut.Lock()
	m.conn[device] = true
	m.deviceDownloads[device] = &deviceDownloadState{files: map[string]map[string]int64{}}
	m.pmut.Unlock()
}

// Availability returns the connected devices that have file, called by
// the puller for every block it needs.
func (m *Model) Availability(folder, file string) []DeviceID {
	m.pmut.RLock() // BUG: pmut before fmut
	defer m.pmut.RUnlock()
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	fs, ok := m.folderFiles[folder]
	if !ok {
		return nil
	}
	var availability []DeviceID
	for _, device := range fs.Availability(file) {
		if m.conn[device] {
			availability = append(availability, device)
		}
	}
	for _, device := range m.folderDevices[folder] {
		if m.deviceDownloads[device].Has(folder, file) {
			availability = append(availability, device)
		}
	}
	return availability
}

// Completion returns how far device is in folder, in percent (GUI, REST).
func (m *Model) Completion(device DeviceID, folder string) float64 {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	rf, ok := m.folderFiles[folder]
	if !ok {
		return 0
	}
	tot := rf.GlobalSize()
	if tot == 0 {
		return 100
	}
	need := rf.NeedSize(device)
	m.pmut.RLock()
	need -= m.deviceDownloads[device].BytesDownloaded(folder)
	m.pmut.RUnlock()
	return 100 * (1 - float64(need)/float64(tot))
}

// RemoveFolder stops sharing folder (configuration change).
func (m *Model) RemoveFolder(folder string) {
	m.fmut.Lock()
	defer m.fmut.Unlock()
	delete(m.folderFiles, folder)
	delete(m.folderDevices, folder)
}

// Closed forgets a disconnected device.
func (m *Model) Closed(device DeviceID) {
	m.pmut.Lock()
	defer m.pmut.Unlock()
	delete(m.conn, device)
	delete(m.deviceDownloads, device)
}

// ModelFixed is the fixed version: Availability takes the locks in the
// model's documented order, fmut then pmut.
type ModelFixed struct {
	fmut          sync.RWMutex
	folderFiles   map[string]FileSet
	folderDevices map[string][]DeviceID

	pmut            sync.RWMutex
	conn            map[DeviceID]bool
	deviceDownloads map[DeviceID]*deviceDownloadState
}

// NewModelFixed returns an empty model.
func NewModelFixed() *ModelFixed {
	return &ModelFixed{
		folderFiles:     map[string]FileSet{},
		folderDevices:   map[string][]DeviceID{},
		conn:            map[DeviceID]bool{},
		deviceDownloads: map[DeviceID]*deviceDownloadState{},
	}
}

// AddFolder shares folder with devices.
func (m *ModelFixed) AddFolder(folder string, fs FileSet, devices ...DeviceID) {
	m.fmut.Lock()
	m.folderFiles[folder] = fs
	m.folderDevices[folder] = devices
	m.fmut.Unlock()
}

// AddConnection registers a connected device.
func (m *ModelFixed) AddConnection(device DeviceID) {
	m.pmut.Lock()
	m.conn[device] = true
	m.deviceDownloads[device] = &deviceDownloadState{files: map[string]map[string]int64{}}
	m.pmut.Unlock()
}

// Availability returns the connected devices that have file.
func (m *ModelFixed) Availability(folder, file string) []DeviceID {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	m.pmut.RLock()
	defer m.pmut.RUnlock()
	fs, ok := m.folderFiles[folder]
	if !ok {
		return nil
	}
	var availability []DeviceID
	for _, device := range fs.Availability(file) {
		if m.conn[device] {
			availability = append(availability, device)
		}
	}
	for _, device := range m.folderDevices[folder] {
		if m.deviceDownloads[device].Has(folder, file) {
			availability = append(availability, device)
		}
	}
	return availability
}

// Completion returns how far device is in folder, in percent.
func (m *ModelFixed) Completion(device DeviceID, folder string) float64 {
	m.fmut.RLock()
	defer m.fmut.RUnlock()
	rf, ok := m.folderFiles[folder]
	if !ok {
		return 0
	}
	tot := rf.GlobalSize()
	if tot == 0 {
		return 100
	}
	need := rf.NeedSize(device)
	m.pmut.RLock()
	need -= m.deviceDownloads[device].BytesDownloaded(folder)
	m.pmut.RUnlock()
	return 100 * (1 - float64(need)/float64(tot))
}

// RemoveFolder stops sharing folder.
func (m *ModelFixed) RemoveFolder(folder string) {
	m.fmut.Lock()
	defer m.fmut.Unlock()
	delete(m.folderFiles, folder)
	delete(m.folderDevices, folder)
}

// Closed forgets a disconnected device.
func (m *ModelFixed) Closed(device DeviceID) {
	m.pmut.Lock()
	defer m.pmut.Unlock()
	delete(m.conn, device)
	delete(m.deviceDownloads, device)
}
