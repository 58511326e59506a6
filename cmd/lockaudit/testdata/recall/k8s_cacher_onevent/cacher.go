// Models kubernetes#13135 (GoKer kubernetes_13135): startCaching holds the Cacher's mutex across ListAndWatch -> Store.Replace (interface) -> WatchCache lock, while WatchCache.processEvent holds its lock and calls the onEvent hook, the method value cacher.processEvent, which takes the Cacher's mutex (AB-BA; one edge through a method value stored in a field).
package k8s_cacher_onevent

import "sync"

// Store is what a reflector fills.
type Store interface {
	Add(obj interface{})
	Replace(objs []interface{})
}

// Reflector lists and watches into a Store.
type Reflector struct {
	store  Store
	list   func() []interface{}
	events <-chan interface{}
}

// ListAndWatch replaces the store's content and then feeds it events.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	r.store.Replace(r.list())
	for {
		select {
		case <-stopCh:
			return nil
		case obj, ok := <-r.events:
			if !ok {
				return nil
			}
			r.store.Add(obj)
		}
	}
}

// WatchCache is a window of recent events.
type WatchCache struct {
	sync.RWMutex
	items     []interface{}
	onReplace func()
	onEvent   func(obj interface{})
}

// SetOnReplace installs the replace hook.
func (w *WatchCache) SetOnReplace(f func()) { w.Lock(); w.onReplace = f; w.Unlock() }

// SetOnEvent installs the event hook.
func (w *WatchCache) SetOnEvent(f func(obj interface{})) { w.Lock(); w.onEvent = f; w.Unlock() }

// Replace swaps the content.
func (w *WatchCache) Replace(objs []interface{}) {
	w.Lock()
	defer w.Unlock()
	w.items = objs
	if w.onReplace != nil {
		w.onReplace()
	}
}

// Add records one event.
func (w *WatchCache) Add(obj interface{}) { w.processEvent(obj) }

func (w *WatchCache) processEvent(obj interface{}) {
	w.Lock()
	defer w.Unlock()
	w.items = append(w.items, obj)
	if w.onEvent != nil {
		w.onEvent(obj) // BUG half: watch cache lock -> Cacher mutex
	}
}

// Cacher serves watches from the watch cache. Buggy version.
type Cacher struct {
	sync.Mutex
	watchCache *WatchCache
	reflector  *Reflector
	watchers   []chan interface{}
}

// NewCacher wires the hooks.
func NewCacher(list func() []interface{}, events <-chan interface{}) *Cacher {
	wc := &WatchCache{}
	c := &Cacher{watchCache: wc, reflector: &Reflector{store: wc, list: list, events: events}}
	wc.SetOnEvent(c.processEvent)
	return c
}

func (c *Cacher) processEvent(obj interface{}) {
	c.Lock()
	defer c.Unlock()
	for _, w := range c.watchers {
		select {
		case w <- obj:
		default:
		}
	}
}

func (c *Cacher) startCaching(stopCh <-chan struct{}) {
	c.Lock()
	successfulList := false
	c.watchCache.SetOnReplace(func() {
		successfulList = true
		c.Unlock()
	})
	defer func() {
		if !successfulList {
			c.Unlock()
		}
	}()
	c.reflector.ListAndWatch(stopCh) // BUG half: Cacher mutex -> watch cache lock (Replace)
}

// CacherFixed is the fixed version: startCaching guards the cache with a
// separate "usable" lock, so the Cacher's mutex is only ever taken after
// the watch cache's (as Kubernetes did).
type CacherFixed struct {
	sync.Mutex
	usable     sync.RWMutex
	watchCache *WatchCache
	reflector  *Reflector
	watchers   []chan interface{}
}

// NewCacherFixed wires the hooks.
func NewCacherFixed(list func() []interface{}, events <-chan interface{}) *CacherFixed {
	wc := &WatchCache{}
	c := &CacherFixed{watchCache: wc, reflector: &Reflector{store: wc, list: list, events: events}}
	wc.SetOnEvent(c.processEvent)
	return c
}

func (c *CacherFixed) processEvent(obj interface{}) {
	c.Lock()
	defer c.Unlock()
	for _, w := range c.watchers {
		select {
		case w <- obj:
		default:
		}
	}
}

func (c *CacherFixed) startCaching(stopCh <-chan struct{}) {
	c.usable.Lock()
	successfulList := false
	c.watchCache.SetOnReplace(func() {
		successfulList = true
		c.usable.Unlock()
	})
	defer func() {
		if !successfulList {
			c.usable.Unlock()
		}
	}()
	c.reflector.ListAndWatch(stopCh)
}
