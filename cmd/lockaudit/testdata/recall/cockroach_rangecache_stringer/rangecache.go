// Models cockroach#6181 (GoKer cockroach_6181): LookupRangeDescriptor read-locks rangeCacheMu and logs "%s" of the cache itself, so fmt calls rdc.String(), which read-locks rangeCacheMu again; a concurrent lookup waiting for the write lock deadlocks them (recursive RLock through fmt's Stringer dispatch).
package cockroach_rangecache_stringer

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// RangeDescriptor describes one range [StartKey, EndKey).
type RangeDescriptor struct {
	RangeID          int
	StartKey, EndKey string
}

// tracer keeps recent debug messages.
type tracer struct {
	mu   sync.Mutex
	msgs []string
}

func (t *tracer) Infof(format string, args ...interface{}) {
	msg := fmt.Sprintf(format, args...)
	t.mu.Lock()
	t.msgs = append(t.msgs, msg)
	t.mu.Unlock()
}

// rangeDescriptorCache caches range descriptors by end key. Buggy version.
type rangeDescriptorCache struct {
	rangeCacheMu sync.RWMutex
	rangeCache   map[string]*RangeDescriptor
	log          *tracer
	lookup       func(key string) (*RangeDescriptor, error)
}

// String prints the cache content.
func (rdc *rangeDescriptorCache) String() string {
	rdc.rangeCacheMu.RLock() // BUG: read-locked again from LookupRangeDescriptor's log call
	defer rdc.rangeCacheMu.RUnlock()
	return rdc.stringLocked()
}

func (rdc *rangeDescriptorCache) stringLocked() string {
	keys := make([]string, 0, len(rdc.rangeCache))
	for k := range rdc.rangeCache {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "range cache: " + strings.Join(keys, ",")
}

// LookupRangeDescriptor returns the descriptor of the range holding key.
func (rdc *rangeDescriptorCache) LookupRangeDescriptor(key string) (*RangeDescriptor, error) {
	rdc.rangeCacheMu.RLock()
	rdc.log.Infof("lookup range descriptor: key=%s\n%s", key, rdc) // BUG: fmt calls rdc.String()
	for end, desc := range rdc.rangeCache {
		if key >= desc.StartKey && key < end {
			rdc.rangeCacheMu.RUnlock()
			return desc, nil
		}
	}
	rdc.rangeCacheMu.RUnlock()

	desc, err := rdc.lookup(key)
	if err != nil {
		return nil, err
	}
	rdc.rangeCacheMu.Lock()
	rdc.rangeCache[desc.EndKey] = desc
	rdc.rangeCacheMu.Unlock()
	return desc, nil
}

// rangeDescriptorCacheFixed is the fixed version: the log line prints
// stringLocked() instead of handing the cache itself to fmt.
type rangeDescriptorCacheFixed struct {
	rangeCacheMu sync.RWMutex
	rangeCache   map[string]*RangeDescriptor
	log          *tracer
	lookup       func(key string) (*RangeDescriptor, error)
}

// String prints the cache content.
func (rdc *rangeDescriptorCacheFixed) String() string {
	rdc.rangeCacheMu.RLock()
	defer rdc.rangeCacheMu.RUnlock()
	return rdc.stringLocked()
}

func (rdc *rangeDescriptorCacheFixed) stringLocked() string {
	keys := make([]string, 0, len(rdc.rangeCache))
	for k := range rdc.rangeCache {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "range cache: " + strings.Join(keys, ",")
}

// LookupRangeDescriptor returns the descriptor of the range holding key.
func (rdc *rangeDescriptorCacheFixed) LookupRangeDescriptor(key string) (*RangeDescriptor, error) {
	rdc.rangeCacheMu.RLock()
	rdc.log.Infof("lookup range descriptor: key=%s\n%s", key, rdc.stringLocked())
	for end, desc := range rdc.rangeCache {
		if key >= desc.StartKey && key < end {
			rdc.rangeCacheMu.RUnlock()
			return desc, nil
		}
	}
	rdc.rangeCacheMu.RUnlock()

	desc, err := rdc.lookup(key)
	if err != nil {
		return nil, err
	}
	rdc.rangeCacheMu.Lock()
	rdc.rangeCache[desc.EndKey] = desc
	rdc.rangeCacheMu.Unlock()
	return desc, nil
}
