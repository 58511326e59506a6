package driver

import "testing"

// TestJobQueueOneBigAtATime checks that a big job is held back while
// another big one runs, that small jobs pass it, and that a job becomes
// ready when its last provider is done.
func TestJobQueueOneBigAtATime(t *testing.T) {
	index := &job{u: &unit{listedPackage: listedPackage{ImportPath: "example.com/db/index"}}}
	wal := &job{u: &unit{listedPackage: listedPackage{ImportPath: "example.com/db/wal"}}}
	codec := &job{u: &unit{listedPackage: listedPackage{ImportPath: "example.com/db/codec"}}}
	server := &job{u: &unit{listedPackage: listedPackage{ImportPath: "example.com/db/server"}}, waiting: 2}
	index.dependents = []*job{server}
	codec.dependents = []*job{server}
	q := newJobQueue([]*job{index, wal, codec, server})
	index.big, wal.big = true, true // newJobQueue measured the (missing) files

	if j := q.next(); j != index {
		t.Fatalf("first job %s, want the index", j.u.ImportPath)
	}
	if j := q.next(); j != codec {
		t.Fatalf("second job %s, want the codec: the wal is big and the index runs", j.u.ImportPath)
	}
	q.done(codec, func() {})
	if len(q.ready) != 1 || q.ready[0] != wal || server.waiting != 1 {
		t.Fatalf("ready %d jobs, the server waits for %d; want the wal ready, the server waiting for the index", len(q.ready), server.waiting)
	}
	q.done(index, func() { index.failed = true })
	if j := q.next(); j != wal {
		t.Fatalf("third job %s, want the wal once the index is done", j.u.ImportPath)
	}
	if j := q.next(); j != server || !server.failed {
		t.Fatalf("fourth job %s (failed %v), want the server, failed with the index", j.u.ImportPath, server.failed)
	}
	q.done(wal, func() {})
	q.done(server, func() {})
	if j := q.next(); j != nil {
		t.Fatalf("a job after all are done: %s", j.u.ImportPath)
	}
}
