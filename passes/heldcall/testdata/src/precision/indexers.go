package precision

import "sync"

// IndexFunc computes the values an object is indexed by (its namespace,
// its owner): a key extractor, pure by convention.
type IndexFunc func(obj any) ([]string, error)

// Indexer is a store of objects with indexes its users define.
type Indexer struct {
	mu       sync.RWMutex
	items    map[string]any
	indexers map[string]IndexFunc
	indices  map[string]map[string][]string
	// OnUpdate is told of every change, under the lock.
	OnUpdate func(key string, obj any)
}

// NewIndexer makes a store with the caller's index functions.
func NewIndexer(indexers map[string]IndexFunc) *Indexer {
	return &Indexer{items: map[string]any{}, indexers: indexers, indices: map[string]map[string][]string{}}
}

// AddIndexers adds the caller's index functions.
func (x *Indexer) AddIndexers(indexers map[string]IndexFunc) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for name, f := range indexers {
		x.indexers[name] = f
	}
}

// Update stores obj and recomputes its index entries under the lock: the
// index functions are the users', but key extractors. Not a finding.
func (x *Indexer) Update(key string, obj any) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.items[key] = obj
	for name, indexFunc := range x.indexers {
		values, err := indexFunc(obj)
		if err != nil {
			return err
		}
		if x.indices[name] == nil {
			x.indices[name] = map[string][]string{}
		}
		for _, v := range values {
			x.indices[name][v] = append(x.indices[name][v], key)
		}
	}
	return nil
}

// Notify is its twin: the change handler is the users' code, which may do
// anything, run under the store's lock.
func (x *Indexer) Notify(key string) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.OnUpdate != nil {
		x.OnUpdate(key, x.items[key]) // want `x.mu held across call of func value x.OnUpdate`
	}
}
