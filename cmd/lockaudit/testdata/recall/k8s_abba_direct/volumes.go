// Package k8s_abba_direct is modelled on a Kubernetes kubelet volume
// manager lock-order inversion: AddPodToVolume takes the pod map's lock
// and then the volume map's lock, while UnmountVolume, run by the
// reconciler goroutine, takes the volume map's lock and then the pod
// map's. A pod sync racing a reconcile pass deadlocks both.
package k8s_abba_direct

import "sync"

// VolumeState tracks which pods use which volumes. Buggy version.
type VolumeState struct {
	podMu      sync.Mutex
	podVolumes map[string][]string // pod -> volumes

	volMu      sync.Mutex
	volumePods map[string]map[string]bool // volume -> pods
}

// NewVolumeState returns an empty state.
func NewVolumeState() *VolumeState {
	return &VolumeState{podVolumes: map[string][]string{}, volumePods: map[string]map[string]bool{}}
}

// AddPodToVolume records that pod uses volume.
func (s *VolumeState) AddPodToVolume(pod, volume string) {
	s.podMu.Lock()
	defer s.podMu.Unlock()
	s.podVolumes[pod] = append(s.podVolumes[pod], volume)
	s.volMu.Lock()
	if s.volumePods[volume] == nil {
		s.volumePods[volume] = map[string]bool{}
	}
	s.volumePods[volume][pod] = true
	s.volMu.Unlock()
}

// UnmountVolume forgets volume and every pod's use of it.
func (s *VolumeState) UnmountVolume(volume string) {
	s.volMu.Lock()
	defer s.volMu.Unlock()
	pods := s.volumePods[volume]
	delete(s.volumePods, volume)
	s.podMu.Lock() // BUG: volMu then podMu; AddPodToVolume takes podMu then volMu
	for pod := range pods {
		vols := s.podVolumes[pod][:0]
		for _, v := range s.podVolumes[pod] {
			if v != volume {
				vols = append(vols, v)
			}
		}
		s.podVolumes[pod] = vols
	}
	s.podMu.Unlock()
}

// VolumeStateFixed is the fixed version: both paths take podMu before volMu.
type VolumeStateFixed struct {
	podMu      sync.Mutex
	podVolumes map[string][]string

	volMu      sync.Mutex
	volumePods map[string]map[string]bool
}

// NewVolumeStateFixed returns an empty state.
func NewVolumeStateFixed() *VolumeStateFixed {
	return &VolumeStateFixed{podVolumes: map[string][]string{}, volumePods: map[string]map[string]bool{}}
}

// AddPodToVolume records that pod uses volume.
func (s *VolumeStateFixed) AddPodToVolume(pod, volume string) {
	s.podMu.Lock()
	defer s.podMu.Unlock()
	s.podVolumes[pod] = append(s.podVolumes[pod], volume)
	s.volMu.Lock()
	if s.volumePods[volume] == nil {
		s.volumePods[volume] = map[string]bool{}
	}
	s.volumePods[volume][pod] = true
	s.volMu.Unlock()
}

// UnmountVolume forgets volume and every pod's use of it.
func (s *VolumeStateFixed) UnmountVolume(volume string) {
	s.podMu.Lock()
	defer s.podMu.Unlock()
	s.volMu.Lock()
	pods := s.volumePods[volume]
	delete(s.volumePods, volume)
	s.volMu.Unlock()
	for pod := range pods {
		vols := s.podVolumes[pod][:0]
		for _, v := range s.podVolumes[pod] {
			if v != volume {
				vols = append(vols, v)
			}
		}
		s.podVolumes[pod] = vols
	}
}
