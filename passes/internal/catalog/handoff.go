package catalog

import "go/types"

// handOffElems lists channel element types whose channels a framework
// hands to its callbacks and drains concurrently, so that a send on one
// is a hand-off, not a wait, even under the callback's lock.
// client_golang's Registry.Gather gives each Collector's Collect (and
// Describe) a buffered channel that its gathering goroutine empties while
// the collectors run; its own collectors send on it under their read
// locks, and so does the documented Collector idiom.
var handOffElems = map[string]bool{
	"github.com/prometheus/client_golang/prometheus.Metric": true,
	"*github.com/prometheus/client_golang/prometheus.Desc":  true,
}

// HandOff reports whether a send on a channel of type ch is a hand-off to
// a framework that drains the channel concurrently (see handOffElems).
func HandOff(ch types.Type) bool {
	c, ok := ch.Underlying().(*types.Chan)
	return ok && handOffElems[types.TypeString(types.Unalias(c.Elem()), nil)]
}
