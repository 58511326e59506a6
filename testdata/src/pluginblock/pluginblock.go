// Package pluginblock calls, with a lock held, a function that blocks only
// according to the plugin's block setting.
package pluginblock

import "sync"

var mu sync.Mutex

// Fetch stands for a network round trip.
func Fetch() int { return 1 }

// Get fetches with mu held.
func Get() int {
	mu.Lock()
	defer mu.Unlock()
	return Fetch()
}
