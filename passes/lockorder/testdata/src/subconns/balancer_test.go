package subconns

import (
	"sync"
	"testing"
)

func TestReadyCount(t *testing.T) {
	b := &Balancer{}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.NewSubConn().UpdateState(true)
		}()
	}
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	ready := 0
	for _, s := range b.subs {
		s.mu.Lock() // want `s.mu locked while holding b.mu \(locked at balancer_test.go:19\); the opposite order is taken at balancer.go:45: lock-order inversion`
		ready += s.state
		s.mu.Unlock()
	}
	if ready != b.ready {
		t.Fatalf("ready = %d, balancer counted %d", ready, b.ready)
	}
}
