// Package registryuser batches registry lookups; the summary of Lookup
// crosses the package boundary as a fact.
package registryuser

import "registry"

func ResolveAllHeld(r *registry.Registry, names []string) []string {
	r.Lock()
	defer r.Unlock()
	var out []string
	for _, n := range names {
		out = append(out, r.Lookup(n)) // want `r.Mutex locked again through call of registry.\(\*Registry\).Lookup while held \(locked at user.go:8\)`
	}
	return out
}

func ResolveAll(r *registry.Registry, names []string) []string {
	r.Lock()
	defer r.Unlock()
	var out []string
	for _, n := range names {
		out = append(out, r.LookupLocked(n))
	}
	return out
}
