// Package k8s_rlock_helpers is modelled on a Kubernetes scheduler cache
// deadlock with a recursive read lock two calls deep: PodsOnNode
// read-locks the cache and, for each pod, calls podVisible, which calls
// IsAssumedPod, which read-locks the cache again. AssumePod, called by the
// scheduling loop, takes the write lock; once it is queued, the inner
// RLock blocks and so does everything else.
package k8s_rlock_helpers

import "sync"

// Pod is a scheduled pod.
type Pod struct {
	UID      string
	NodeName string
}

// Cache is the scheduler's view of the cluster. Buggy version.
type Cache struct {
	mu          sync.RWMutex
	pods        map[string]*Pod
	assumedPods map[string]bool
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{pods: map[string]*Pod{}, assumedPods: map[string]bool{}} }

// AssumePod records pod as scheduled before the binding is confirmed.
func (c *Cache) AssumePod(p *Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pods[p.UID] = p
	c.assumedPods[p.UID] = true
}

// IsAssumedPod reports whether pod's binding is unconfirmed.
func (c *Cache) IsAssumedPod(uid string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.assumedPods[uid]
}

// PodsOnNode returns the confirmed pods bound to node.
func (c *Cache) PodsOnNode(node string) []*Pod {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*Pod
	for _, p := range c.pods {
		if c.podVisible(p) && p.NodeName == node {
			out = append(out, p)
		}
	}
	return out
}

func (c *Cache) podVisible(p *Pod) bool {
	return p.NodeName != "" && !c.IsAssumedPod(p.UID) // BUG: read-locks c.mu again
}

// CacheFixed is the fixed version: the helper reads the map directly and
// is documented to need the lock.
type CacheFixed struct {
	mu          sync.RWMutex
	pods        map[string]*Pod
	assumedPods map[string]bool
}

// NewCacheFixed returns an empty cache.
func NewCacheFixed() *CacheFixed {
	return &CacheFixed{pods: map[string]*Pod{}, assumedPods: map[string]bool{}}
}

// AssumePod records pod as scheduled before the binding is confirmed.
func (c *CacheFixed) AssumePod(p *Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pods[p.UID] = p
	c.assumedPods[p.UID] = true
}

// IsAssumedPod reports whether pod's binding is unconfirmed.
func (c *CacheFixed) IsAssumedPod(uid string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.assumedPods[uid]
}

// PodsOnNode returns the confirmed pods bound to node.
func (c *CacheFixed) PodsOnNode(node string) []*Pod {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []*Pod
	for _, p := range c.pods {
		if c.podVisible(p) && p.NodeName == node {
			out = append(out, p)
		}
	}
	return out
}

// podVisible must be called with c.mu held.
func (c *CacheFixed) podVisible(p *Pod) bool {
	return p.NodeName != "" && !c.assumedPods[p.UID]
}
