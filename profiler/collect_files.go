package profiler

import (
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// CollectFiles reads mutex, block and fgprof profiles, and execution
// traces, from files into c, classifying each profile with Classify. A file that cannot be read or classified
// becomes an error of c.
func CollectFiles(c *Collection, names []string, limits Limits) {
	for _, name := range names {
		if fileIsTrace(name) {
			set, capped, err := readTraceFile(name, limits)
			if err != nil {
				c.addError(name, "%v", err)
				continue
			}
			c.addWaits(name, set, capped)
			c.addSource(name)
			continue
		}
		p, err := readProfileFile(name, limits)
		if err != nil {
			c.addError(name, "%v", err)
			continue
		}
		kind, err := Classify(p, name)
		if err != nil {
			c.addError(name, "%v", err)
			continue
		}
		c.add(kind, p)
		c.addSource(name)
	}
}

// readProfileFile reads and parses one profile file within limits.
func readProfileFile(name string, limits Limits) (*profile.Profile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("is a directory")
	}
	data, err := readLimited(f, limits.maxBytes(), "file")
	if err != nil {
		return nil, err
	}
	return parseProfile(data, limits)
}
