package callbacks

import (
	"sort"
	"sync"
)

// Hit is one document a search matched.
type Hit struct {
	ID    string
	Score float64
}

type hitsByScore []Hit

func (h hitsByScore) Len() int           { return len(h) }
func (h hitsByScore) Less(i, j int) bool { return h[i].Score > h[j].Score }
func (h hitsByScore) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }

// SearchIndex answers searches from its documents; a request may bring
// its own sort routine in place of sort.Sort, and a hook to see the hits.
type SearchIndex struct {
	mu   sync.RWMutex
	docs map[string]float64
}

// SearchRequest is a user's query.
type SearchRequest struct {
	Sort   func(data sort.Interface)
	OnHits func(hits []Hit)
}

// Search orders the hits with the request's sort routine under the read
// lock: a sort routine only calls Len, Less and Swap, a plausible callback.
func (x *SearchIndex) Search(req *SearchRequest) []Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	hits := make([]Hit, 0, len(x.docs))
	for id, score := range x.docs {
		hits = append(hits, Hit{ID: id, Score: score})
	}
	req.Sort(hitsByScore(hits)) // want `x.mu held across call of func value req.Sort \(locked at sorters.go:\d+, released by defer\) \(plausible: a func value of type func\(data sort.Interface\) sorts what it is given\)`
	return hits
}

// SearchAndReport hands the hits to the request's hook under the read
// lock: its twin, proven.
func (x *SearchIndex) SearchAndReport(req *SearchRequest) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	hits := make([]Hit, 0, len(x.docs))
	for id, score := range x.docs {
		hits = append(hits, Hit{ID: id, Score: score})
	}
	req.OnHits(hits) // want `x.mu held across call of func value req.OnHits \(locked at sorters.go:\d+, released by defer\)`
}
