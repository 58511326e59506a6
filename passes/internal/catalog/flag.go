package catalog

import (
	"strings"
	"sync"
)

// Extra is the list of extra blocking functions given on the command line
// (the heldcall -block flag) or in golangci-lint settings, as comma-separated
// name=category pairs. It implements flag.Value.
type Extra struct {
	mu      sync.Mutex
	entries []string
}

// Flag holds the process-wide extra entries. Analyzer flags are process-wide
// in every analysis driver, so this is where -heldcall.block lands.
var Flag = new(Extra)

// String implements flag.Value.
func (e *Extra) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.entries, ",")
}

// Set implements flag.Value. It validates the list; repeated flags add up.
func (e *Extra) Set(list string) error {
	if err := Default().ParseList(list); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.entries = append(e.entries, list)
	return nil
}

// Reset empties the list: a driver that sets the flag for one run puts
// it back this way (Set adds to the list).
func (e *Extra) Reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.entries = nil
}

// Current returns the default catalogue extended with the flag's entries.
func Current() *Catalog {
	c := Default()
	for _, list := range strings.Split(Flag.String(), ",") {
		// Entries were validated by Set.
		_ = c.ParseList(list)
	}
	return c
}
