package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file models sync.Once as the lock it is. Do holds the Once (its
// mutex) while the function it was given runs, and every other caller of
// Do waits for that function to return. A function that calls Do on the
// same Once again, directly or through its callees, waits for itself for
// ever ("if f calls Do, it will deadlock", sync's documentation):
//
//	func (c *Config) Get(key string) string {
//		c.once.Do(c.load) // load reads an include through c.Get
//		return c.vals[key]
//	}
//
// So a call of Do takes the Once: a take of the summary in lockstate.Once
// mode, rebased onto callers like a lock's, which lockorder reads with
// OnceTakes to find a Do whose function takes the same Once. Every other
// reader picks Takes, which leaves the Onces out: a Once is held only
// while its own function runs, so it orders no lock and guards no shard.

// OnceDo returns the Once of c when c calls (*sync.Once).Do: the Once
// that the call holds while the function it is given runs.
func OnceDo(c *ssa.CallCommon) (ssa.Value, bool) {
	once, _, ok := lockstate.OnceDo(c)
	return once, ok
}
