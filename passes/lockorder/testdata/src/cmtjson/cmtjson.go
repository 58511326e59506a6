// Package cmtjson encodes values, caching what it learns of their types.
package cmtjson

import "cmtsync"

type typeCache struct {
	cmtsync.RWMutex
	names map[string]int
}

var cache = typeCache{names: map[string]int{}}

// Register records a type name the encoder has seen.
func Register(name string) {
	cache.Lock()
	cache.names[name]++
	cache.Unlock()
}
