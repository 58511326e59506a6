// Package quotas is run with -tests: the above-shards finding of its test
// file is reported.
package quotas

import (
	"hash/maphash"
	"sync"
)

const shardCount = 16

type shard struct {
	mu     sync.Mutex
	usage  map[string]int64
	limits map[string]int64
}

// Ledger keeps each tenant's quota usage in its key's shard; mu guards the
// ledger's settings.
type Ledger struct {
	mu     sync.Mutex
	seed   maphash.Seed
	shards [shardCount]shard
	frozen bool
}

// Charge locks only the tenant's shard.
func (l *Ledger) Charge(tenant string, n int64) bool {
	sh := &l.shards[maphash.String(l.seed, tenant)&(shardCount-1)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.usage[tenant]+n > sh.limits[tenant] {
		return false
	}
	sh.usage[tenant] += n
	return true
}
