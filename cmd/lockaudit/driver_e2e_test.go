package main

// End-to-end tests of the in-process driver: its result cache, its
// agreement with the go vet driver, and an interrupt while it analyses.

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A module where a server saves through a store package under its lock:
// whether that is a finding depends on what the store's Flush does, which
// the server's analysis learns from the store's facts.
const (
	storeQuick = `package store

// Flush hands the buffer over; it never waits.
func Flush(buf []byte) int { return len(buf) }
`
	storeSlow = `package store

import "time"

// Flush waits for the disk.
func Flush(buf []byte) int {
	time.Sleep(time.Millisecond)
	return len(buf)
}
`
	serverSrc = `package server

import (
	"sync"

	"example.com/m/store"
)

type Server struct {
	mu  sync.Mutex
	buf []byte
}

func (s *Server) Save() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return store.Flush(s.buf)
}
`
)

var saveLine = regexp.MustCompile(`^server/server\.go:17:\d+: s\.mu held across call of store\.Flush, which blocks: store\.Flush -> time\.Sleep .* \(heldcall/blocks\)$`)

// TestE2ECacheFollowsDependencies runs check three times on one cache: a
// change in a dependency must reach the finding of the package that calls
// it (through its facts), and a change back must bring the first answer
// back. -govet must agree with the in-process driver.
func TestE2ECacheFollowsDependencies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	writeFile(t, dir, "store/store.go", storeQuick)
	writeFile(t, dir, "server/server.go", serverSrc)
	cache := t.TempDir()
	env := testEnv(driverCacheEnv + "=" + cache)

	if r := run(t, dir, env, binary, "./..."); r.code != exitClean || r.stdout != "" || r.stderr != "" {
		t.Fatalf("quick store: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "*", "*-r")); len(entries) == 0 {
		t.Fatal("nothing cached")
	}
	writeFile(t, dir, "store/store.go", storeSlow)
	r := run(t, dir, env, binary, "./...")
	if r.code != exitFindings || r.stderr != "" {
		t.Errorf("slow store: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	checkLines(t, "slow store", r.stdout, saveLine)

	vet := run(t, dir, env, binary, "-govet", "./...")
	if vet.code != r.code || vet.stdout != r.stdout || vet.stderr != r.stderr {
		t.Errorf("-govet: exit %d, stdout\n%s\nstderr %q; want what the in-process driver gave", vet.code, vet.stdout, vet.stderr)
	}

	writeFile(t, dir, "store/store.go", storeQuick)
	if r := run(t, dir, env, binary, "./..."); r.code != exitClean || r.stdout != "" {
		t.Errorf("quick store again: exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}
}

// driverCacheEnv is the result cache's environment variable.
const driverCacheEnv = "LOCKAUDIT_CACHE"

// TestE2EInterruptAnalysis interrupts a run while the in-process driver
// analyses (a cold result cache, a module over much of the standard
// library) and checks that it exits promptly with 2, names the interrupt,
// and leaves no temporary file in the cache.
func TestE2EInterruptAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	writeFile(t, dir, "web/web.go", `package web

import (
	"net/http"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
`)
	cache := t.TempDir()
	// Compile the dependencies first, so that the run is analysing when
	// the interrupt comes.
	if r := run(t, dir, testEnv(), "go", "list", "-deps", "-test", "-export", "./..."); r.code != 0 {
		t.Fatalf("go list -export: %s", r.stderr)
	}
	cmd := exec.Command(binary, "./...")
	cmd.Dir = dir
	cmd.Env = testEnv(driverCacheEnv + "=" + cache)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Wait for the first results in the cache: the driver is analysing.
	deadline := time.After(time.Minute)
	for {
		if entries, _ := filepath.Glob(filepath.Join(cache, "*", "*-r")); len(entries) > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("lockaudit finished before it could be interrupted: %v\n%s", err, stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("nothing was analysed within a minute")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second): // it does not wait for the unit under way
		cmd.Process.Kill()
		t.Fatal("lockaudit did not exit after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 2 and 'interrupted'", code, stderr.String())
	}
	if tmp, _ := filepath.Glob(filepath.Join(cache, "*", "tmp-*")); len(tmp) != 0 {
		t.Errorf("temporary files left in the cache: %v", tmp)
	}
	// What was cached is whole: a second run, uninterrupted, gives the
	// answer of a run on an empty cache.
	r := run(t, dir, testEnv(driverCacheEnv+"="+cache), binary, "./...")
	fresh := run(t, dir, testEnv(driverCacheEnv+"="+t.TempDir()), binary, "./...")
	if r.code != fresh.code || r.stdout != fresh.stdout || r.stderr != fresh.stderr {
		t.Errorf("after the interrupt: exit %d, stdout %q, stderr %q; on an empty cache: exit %d, stdout %q, stderr %q",
			r.code, r.stdout, r.stderr, fresh.code, fresh.stdout, fresh.stderr)
	}
}

// TestE2EInversionThroughIndirectDependency: a registry lock and a pool
// lock taken in opposite orders by a package and by one it reaches only
// through another. The in-process driver sees the lock-order facts of
// every package below, as the x/tools checker does (go vet's unitchecker
// passes on package facts of direct imports only, so -govet misses it).
func TestE2EInversionThroughIndirectDependency(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	writeFile(t, dir, "locks/locks.go", `package locks

import "sync"

type Registry struct{ Mu sync.Mutex }
type Pool struct{ Mu sync.Mutex }

var Reg Registry
var Conns Pool
`)
	writeFile(t, dir, "evict/evict.go", `package evict

import "example.com/m/locks"

// Evict drops idle connections of unregistered services.
func Evict() {
	locks.Reg.Mu.Lock()
	defer locks.Reg.Mu.Unlock()
	locks.Conns.Mu.Lock()
	locks.Conns.Mu.Unlock()
}
`)
	writeFile(t, dir, "janitor/janitor.go", `package janitor

import "example.com/m/evict"

func Sweep() { evict.Evict() }
`)
	writeFile(t, dir, "dial/dial.go", `package dial

import (
	"example.com/m/janitor"
	"example.com/m/locks"
)

// Dial registers a new connection's service.
func Dial() {
	janitor.Sweep()
	locks.Conns.Mu.Lock()
	defer locks.Conns.Mu.Unlock()
	locks.Reg.Mu.Lock()
	locks.Reg.Mu.Unlock()
}
`)
	r := runLockaudit(t, dir, "./...")
	want := regexp.MustCompile(`^dial/dial\.go:13:\d+: locks\.Reg\.Mu locked while holding locks\.Conns\.Mu \(locked at dial\.go:11\); package example\.com/m/evict evict\.go:9 takes .*lock-order inversion across packages \(lockorder/order-cycle\)$`)
	if r.code != exitFindings || r.stderr != "" {
		t.Errorf("exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	checkLines(t, "stdout", r.stdout, want)
}
