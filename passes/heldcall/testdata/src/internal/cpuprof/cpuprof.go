// Package cpuprof is a quiet package (its import path is under internal/,
// like the standard library's own): its summaries do not say what blocks,
// so no wait in it is shown to be a quick join with its own goroutine.
package cpuprof

import (
	"io"
	"sync"
)

var cpu struct {
	sync.Mutex
	profiling bool
	done      chan bool
}

// Start starts the profile writer.
func Start(w io.Writer) {
	cpu.Lock()
	defer cpu.Unlock()
	if cpu.done == nil {
		cpu.done = make(chan bool)
	}
	cpu.profiling = true
	go profileWriter(w)
}

// profileWriter writes the profile to the caller's writer, then says so.
func profileWriter(w io.Writer) {
	build(w)
	cpu.done <- true
}

func build(w io.Writer) { w.Write([]byte("profile")) }

// Stop waits for the writer under the profile lock: the writer writes to
// the caller's io.Writer first.
func Stop() {
	cpu.Lock()
	defer cpu.Unlock()
	if !cpu.profiling {
		return
	}
	cpu.profiling = false
	<-cpu.done // want `cpu.Mutex held across channel receive \(locked at cpuprof.go:39, released by defer\)`
}

// StopUnlocked waits for the writer after releasing the lock.
func StopUnlocked() {
	cpu.Lock()
	profiling := cpu.profiling
	cpu.profiling = false
	cpu.Unlock()
	if profiling {
		<-cpu.done
	}
}
