package funcargs

import "sync"

// EventCache keeps recent events and tells a hook about each one; its
// users install the hook with an exported setter.
type EventCache struct {
	mu      sync.Mutex
	events  []string
	onEvent func(ev string)
}

// SetOnEvent installs the hook.
func (w *EventCache) SetOnEvent(f func(ev string)) {
	w.mu.Lock()
	w.onEvent = f
	w.mu.Unlock()
}

// Add records ev and tells the hook under w.mu: the cache's lock, then
// whatever the hook takes.
func (w *EventCache) Add(ev string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, ev)
	if w.onEvent != nil {
		w.onEvent(ev) // want `\(\*funcargs.Watcher\).mu locked through call of func value w.onEvent \(\(\*Watcher\).deliver\) while holding w.mu \(locked at hooks.go:23\); the opposite order takes w.cache.mu while holding w.mu at hooks.go:59: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*funcargs.EventCache\).mu and \(\*funcargs.Watcher\).mu\)`
	}
}

// Watcher serves watches from an event cache: it installs its deliver
// method as the cache's hook.
type Watcher struct {
	mu      sync.Mutex
	cache   *EventCache
	pending []string
}

// NewWatcher wires the hook.
func NewWatcher(c *EventCache) *Watcher {
	w := &Watcher{cache: c}
	c.SetOnEvent(w.deliver)
	return w
}

func (w *Watcher) deliver(ev string) {
	w.mu.Lock()
	w.pending = append(w.pending, ev)
	w.mu.Unlock()
}

// Resync refills the cache under w.mu: the watcher's lock, then the
// cache's, the opposite order.
func (w *Watcher) Resync(evs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = nil
	for _, ev := range evs {
		w.cache.Add(ev) // want `w.cache.mu locked through call of \(\*EventCache\).Add while holding w.mu \(locked at hooks.go:55\); the opposite order takes \(\*funcargs.Watcher\).mu while holding w.mu at hooks.go:27: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*funcargs.Watcher\).mu and \(\*funcargs.EventCache\).mu\)`
	}
}

// FeedCache is EventCache's twin: it tells its hook after releasing its
// lock, so the feed's hook orders nothing after it.
type FeedCache struct {
	mu      sync.Mutex
	events  []string
	onEvent func(ev string)
}

// SetOnEvent installs the hook.
func (w *FeedCache) SetOnEvent(f func(ev string)) {
	w.mu.Lock()
	w.onEvent = f
	w.mu.Unlock()
}

// Add records ev, then tells the hook with no lock held.
func (w *FeedCache) Add(ev string) {
	w.mu.Lock()
	w.events = append(w.events, ev)
	hook := w.onEvent
	w.mu.Unlock()
	if hook != nil {
		hook(ev)
	}
}

// FeedWatcher is Watcher over a FeedCache.
type FeedWatcher struct {
	mu      sync.Mutex
	cache   *FeedCache
	pending []string
}

// NewFeedWatcher wires the hook.
func NewFeedWatcher(c *FeedCache) *FeedWatcher {
	w := &FeedWatcher{cache: c}
	c.SetOnEvent(w.deliver)
	return w
}

func (w *FeedWatcher) deliver(ev string) {
	w.mu.Lock()
	w.pending = append(w.pending, ev)
	w.mu.Unlock()
}

// Resync refills the cache under w.mu.
func (w *FeedWatcher) Resync(evs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = nil
	for _, ev := range evs {
		w.cache.Add(ev)
	}
}
