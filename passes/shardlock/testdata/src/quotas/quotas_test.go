package quotas

import "testing"

// resetHeld clears every shard under the ledger's lock.
func resetHeld(l *Ledger) {
	l.mu.Lock() // want `l.mu is held above the shard lock l.shards\[i\].mu \(taken at quotas_test.go:\d+, in a loop over every shard\): one lock serialises the shards again`
	defer l.mu.Unlock()
	for i := range l.shards {
		l.shards[i].mu.Lock()
		l.shards[i].usage = map[string]int64{}
		l.shards[i].mu.Unlock()
	}
}

// reset is its twin: the ledger's lock guards only its own flag.
func reset(l *Ledger) {
	l.mu.Lock()
	l.frozen = false
	l.mu.Unlock()
	for i := range l.shards {
		l.shards[i].mu.Lock()
		l.shards[i].usage = map[string]int64{}
		l.shards[i].mu.Unlock()
	}
}

func TestReset(t *testing.T) {
	l := &Ledger{}
	resetHeld(l)
	reset(l)
}
