package chancycle

import "testing"

// The test queues requests of its own, without room, to check the order
// in which put serves them: it receives each right after the put. It does
// not change what the pool's own requests can hold.
func TestPutServesOldestRequest(t *testing.T) {
	p := &requestPool{}
	first, second := make(chan connRequest), make(chan connRequest)
	p.requests.add(first, 1)
	p.requests.add(second, 2)
	go p.put(&poolConn{id: 1})
	if got := (<-first).cn.id; got != 1 {
		t.Fatalf("first request got connection %d", got)
	}
}
