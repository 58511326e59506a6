package readers

import "testing"

// TestBackendUnderReadLock holds the table's read lock while it looks a
// route up, to check that lookups share the lock. Only a Set queued
// between the two read locks could block the second one, and this test
// runs none: a note, where LiveRoutes.Backends, which any goroutine's Set
// can interleave with, is a warning.
func TestBackendUnderReadLock(t *testing.T) {
	tbl := &LiveRoutes{routes: map[string]string{"/api": "10.0.0.1:80"}}
	tbl.mu.RLock()
	defer tbl.mu.RUnlock()
	if got := tbl.Backend("/api"); got != "10.0.0.1:80" { // want `tbl.mu read-locked again through call of \(\*LiveRoutes\).Backend while held \(locked at readers_test.go:12\) \(plausible: a writer queues between a test's two read locks only if the test runs one concurrently\)`
		t.Fatalf("Backend(/api) = %q", got)
	}
}
