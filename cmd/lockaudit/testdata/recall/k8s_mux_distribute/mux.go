// Models kubernetes#1321 (GoKer kubernetes_1321): Mux.distribute holds m.lock while it sends each event on every watcher's unbuffered result channel; a watcher that stops instead of receiving calls Stop -> stopWatching, which needs m.lock to close the channel (lock held across a send in a range loop; the unblocking side needs the lock).
package k8s_mux_distribute

import "sync"

// Event is a watch event.
type Event struct {
	Type   string
	Object interface{}
}

// Interface is a watch.
type Interface interface {
	ResultChan() <-chan Event
	Stop()
}

type muxWatcher struct {
	result chan Event
	id     int64
	m      *Mux
}

func (mw *muxWatcher) ResultChan() <-chan Event { return mw.result }

// Stop stops watching and removes mw from its mux.
func (mw *muxWatcher) Stop() { mw.m.stopWatching(mw.id) }

// Mux fans incoming events out to watchers. Buggy version.
type Mux struct {
	lock     sync.Mutex
	watchers map[int64]*muxWatcher
	nextID   int64
	incoming chan Event
}

// NewMux starts the fan-out loop.
func NewMux(queueLength int) *Mux {
	m := &Mux{watchers: map[int64]*muxWatcher{}, incoming: make(chan Event, queueLength)}
	go m.loop()
	return m
}

// Watch adds a watcher.
func (m *Mux) Watch() Interface {
	m.lock.Lock()
	defer m.lock.Unlock()
	id := m.nextID
	m.nextID++
	w := &muxWatcher{result: make(chan Event), id: id, m: m}
	m.watchers[id] = w
	return w
}

// Action queues an event.
func (m *Mux) Action(action string, obj interface{}) { m.incoming <- Event{action, obj} }

func (m *Mux) stopWatching(id int64) {
	m.lock.Lock()
	defer m.lock.Unlock()
	w, ok := m.watchers[id]
	if !ok {
		return
	}
	delete(m.watchers, id)
	close(w.result)
}

func (m *Mux) loop() {
	for event := range m.incoming {
		m.distribute(event)
	}
}

func (m *Mux) distribute(event Event) {
	m.lock.Lock()
	defer m.lock.Unlock()
	for _, w := range m.watchers {
		w.result <- event // BUG: blocks under m.lock; Stop needs m.lock to unblock it
	}
}

// The fixed version (as Kubernetes did): each watcher has a stopped
// channel; Stop closes it before taking the lock, and distribute selects
// on it next to the send.
type muxWatcherFixed struct {
	result  chan Event
	stopped chan struct{}
	stop    sync.Once
	id      int64
	m       *MuxFixed
}

func (mw *muxWatcherFixed) ResultChan() <-chan Event { return mw.result }

// Stop stops watching and removes mw from its mux.
func (mw *muxWatcherFixed) Stop() {
	mw.stop.Do(func() {
		close(mw.stopped)
		mw.m.stopWatching(mw.id)
	})
}

// MuxFixed fans incoming events out to watchers.
type MuxFixed struct {
	lock     sync.Mutex
	watchers map[int64]*muxWatcherFixed
	nextID   int64
	incoming chan Event
}

// NewMuxFixed starts the fan-out loop.
func NewMuxFixed(queueLength int) *MuxFixed {
	m := &MuxFixed{watchers: map[int64]*muxWatcherFixed{}, incoming: make(chan Event, queueLength)}
	go m.loop()
	return m
}

// Watch adds a watcher.
func (m *MuxFixed) Watch() Interface {
	m.lock.Lock()
	defer m.lock.Unlock()
	id := m.nextID
	m.nextID++
	w := &muxWatcherFixed{result: make(chan Event), stopped: make(chan struct{}), id: id, m: m}
	m.watchers[id] = w
	return w
}

// Action queues an event.
func (m *MuxFixed) Action(action string, obj interface{}) { m.incoming <- Event{action, obj} }

func (m *MuxFixed) stopWatching(id int64) {
	m.lock.Lock()
	defer m.lock.Unlock()
	w, ok := m.watchers[id]
	if !ok {
		return
	}
	delete(m.watchers, id)
	close(w.result)
}

func (m *MuxFixed) loop() {
	for event := range m.incoming {
		m.distribute(event)
	}
}

func (m *MuxFixed) distribute(event Event) {
	m.lock.Lock()
	defer m.lock.Unlock()
	for _, w := range m.watchers {
		select {
		case w.result <- event:
		case <-w.stopped:
		}
	}
}
