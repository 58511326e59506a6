// Package moby_lcow_hotremove models moby/moby#36114 (GoKer moby_36114; from
// memory): the LCOW graph driver's serviceVM.hotAddVHDsAtStart holds the
// service VM's mutex while it hot-adds each disk; when one add fails it rolls
// back the disks already added by calling hotRemoveVHDsAtStart, which locks
// the same mutex again. The first failed hot-add wedges the service VM. The
// fix split out a remove helper that expects the lock to be held.
package moby_lcow_hotremove

import (
	"fmt"
	"sync"
)

// MappedDisk is a VHD mapped into the utility VM.
type MappedDisk struct {
	HostPath      string
	ContainerPath string
}

type attachedVHD struct {
	refCount int
	disk     MappedDisk
}

// utilityVM stands for the HCS compute system handle.
type utilityVM struct {
	broken  map[string]bool
	mounted map[string]string
}

func (vm *utilityVM) hotAddVhd(d MappedDisk) error {
	if vm.broken[d.HostPath] {
		return fmt.Errorf("hot add %s: the device is not ready", d.HostPath)
	}
	vm.mounted[d.HostPath] = d.ContainerPath
	return nil
}

func (vm *utilityVM) hotRemoveVhd(hostPath string) error {
	delete(vm.mounted, hostPath)
	return nil
}

type serviceVM struct {
	sync.Mutex
	vm       *utilityVM
	attached map[string]*attachedVHD
}

func newServiceVM(broken ...string) *serviceVM {
	vm := &utilityVM{broken: map[string]bool{}, mounted: map[string]string{}}
	for _, b := range broken {
		vm.broken[b] = true
	}
	return &serviceVM{vm: vm, attached: map[string]*attachedVHD{}}
}

func (svm *serviceVM) hotAddVHDsAtStart(disks ...MappedDisk) error {
	svm.Lock()
	defer svm.Unlock()
	for i, d := range disks {
		if a, ok := svm.attached[d.HostPath]; ok {
			a.refCount++
			continue
		}
		if err := svm.vm.hotAddVhd(d); err != nil {
			svm.hotRemoveVHDsAtStart(disks[:i]...) // BUG: locks svm again
			return err
		}
		svm.attached[d.HostPath] = &attachedVHD{refCount: 1, disk: d}
	}
	return nil
}

func (svm *serviceVM) hotRemoveVHDsAtStart(disks ...MappedDisk) error {
	svm.Lock()
	defer svm.Unlock()
	var firstErr error
	for _, d := range disks {
		a, ok := svm.attached[d.HostPath]
		if !ok {
			continue
		}
		if a.refCount--; a.refCount > 0 {
			continue
		}
		if err := svm.vm.hotRemoveVhd(d.HostPath); err != nil && firstErr == nil {
			firstErr = err
		}
		delete(svm.attached, d.HostPath)
	}
	return firstErr
}

// ---- fixed twin: the rollback uses a helper that expects svm held ----

type serviceVMFixed struct {
	sync.Mutex
	vm       *utilityVM
	attached map[string]*attachedVHD
}

func newServiceVMFixed(broken ...string) *serviceVMFixed {
	s := newServiceVM(broken...)
	return &serviceVMFixed{vm: s.vm, attached: s.attached}
}

func (svm *serviceVMFixed) hotAddVHDsAtStart(disks ...MappedDisk) error {
	svm.Lock()
	defer svm.Unlock()
	for i, d := range disks {
		if a, ok := svm.attached[d.HostPath]; ok {
			a.refCount++
			continue
		}
		if err := svm.vm.hotAddVhd(d); err != nil {
			svm.hotRemoveVHDsNoLock(disks[:i]...)
			return err
		}
		svm.attached[d.HostPath] = &attachedVHD{refCount: 1, disk: d}
	}
	return nil
}

func (svm *serviceVMFixed) hotRemoveVHDsAtStart(disks ...MappedDisk) error {
	svm.Lock()
	defer svm.Unlock()
	return svm.hotRemoveVHDsNoLock(disks...)
}

// hotRemoveVHDsNoLock must be called with svm locked.
func (svm *serviceVMFixed) hotRemoveVHDsNoLock(disks ...MappedDisk) error {
	var firstErr error
	for _, d := range disks {
		a, ok := svm.attached[d.HostPath]
		if !ok {
			continue
		}
		if a.refCount--; a.refCount > 0 {
			continue
		}
		if err := svm.vm.hotRemoveVhd(d.HostPath); err != nil && firstErr == nil {
			firstErr = err
		}
		delete(svm.attached, d.HostPath)
	}
	return firstErr
}
