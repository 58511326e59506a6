// Package istio_configstore_monitor is modelled on the Istio pilot
// in-memory config controller and its monitor (GoKer istio_16224, from
// memory; the store lock held across the hand-off is this kernel's
// reconstruction of the mixed deadlock): Create stores the config under the
// controller's lock and, still holding it, schedules the change event
// through the Monitor interface, whose implementation sends on an
// unbuffered channel to the monitor goroutine. The monitor runs the
// registered handlers, and a handler that lists the configs of its type
// needs the controller's read lock; a second Create, holding the lock in
// the send, and the monitor, in the handler, wait for each other.
package istio_configstore_monitor

import "sync"

// Event is the kind of a config change.
type Event int

const (
	EventAdd Event = iota
	EventUpdate
)

// Config is one config resource.
type Config struct {
	Type, Name string
	Spec       string
}

// ConfigEvent is a change handed to the monitor.
type ConfigEvent struct {
	Config Config
	Event  Event
}

// Handler is called for every change of a type.
type Handler func(Config, Event)

// Monitor dispatches config events to handlers.
type Monitor interface {
	Run(stop <-chan struct{})
	AppendEventHandler(typ string, h Handler)
	ScheduleProcessEvent(ev ConfigEvent)
}

type configStoreMonitor struct {
	handlers map[string][]Handler
	eventCh  chan ConfigEvent
}

// NewMonitor returns a monitor with an unbuffered event channel.
func NewMonitor() Monitor {
	return &configStoreMonitor{handlers: map[string][]Handler{}, eventCh: make(chan ConfigEvent)}
}

func (m *configStoreMonitor) AppendEventHandler(typ string, h Handler) {
	m.handlers[typ] = append(m.handlers[typ], h)
}

func (m *configStoreMonitor) ScheduleProcessEvent(ev ConfigEvent) { m.eventCh <- ev }

func (m *configStoreMonitor) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case ev := <-m.eventCh:
			for _, h := range m.handlers[ev.Config.Type] {
				h(ev.Config, ev.Event)
			}
		}
	}
}

// Controller is the in-memory config store with change events. Buggy version.
type Controller struct {
	mu      sync.RWMutex
	configs map[string]map[string]Config
	monitor Monitor
}

// NewController returns an empty controller.
func NewController(m Monitor) *Controller {
	return &Controller{configs: map[string]map[string]Config{}, monitor: m}
}

// RegisterEventHandler must be called before Run.
func (c *Controller) RegisterEventHandler(typ string, h Handler) {
	c.monitor.AppendEventHandler(typ, h)
}

// Run dispatches events until stop is closed.
func (c *Controller) Run(stop <-chan struct{}) { c.monitor.Run(stop) }

// List returns the configs of a type.
func (c *Controller) List(typ string) []Config {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Config
	for _, cfg := range c.configs[typ] {
		out = append(out, cfg)
	}
	return out
}

// Create stores cfg and notifies the handlers.
func (c *Controller) Create(cfg Config) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.configs[cfg.Type] == nil {
		c.configs[cfg.Type] = map[string]Config{}
	}
	c.configs[cfg.Type][cfg.Name] = cfg
	c.monitor.ScheduleProcessEvent(ConfigEvent{Config: cfg, Event: EventAdd}) // BUG: sends under c.mu
}

// ControllerFixed is the fixed version: the event is scheduled after the
// store lock is released.
type ControllerFixed struct {
	mu      sync.RWMutex
	configs map[string]map[string]Config
	monitor Monitor
}

// NewControllerFixed returns an empty controller.
func NewControllerFixed(m Monitor) *ControllerFixed {
	return &ControllerFixed{configs: map[string]map[string]Config{}, monitor: m}
}

// RegisterEventHandler must be called before Run.
func (c *ControllerFixed) RegisterEventHandler(typ string, h Handler) {
	c.monitor.AppendEventHandler(typ, h)
}

// Run dispatches events until stop is closed.
func (c *ControllerFixed) Run(stop <-chan struct{}) { c.monitor.Run(stop) }

// List returns the configs of a type.
func (c *ControllerFixed) List(typ string) []Config {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Config
	for _, cfg := range c.configs[typ] {
		out = append(out, cfg)
	}
	return out
}

// Create stores cfg and notifies the handlers.
func (c *ControllerFixed) Create(cfg Config) {
	c.mu.Lock()
	if c.configs[cfg.Type] == nil {
		c.configs[cfg.Type] = map[string]Config{}
	}
	c.configs[cfg.Type][cfg.Name] = cfg
	c.mu.Unlock()
	c.monitor.ScheduleProcessEvent(ConfigEvent{Config: cfg, Event: EventAdd})
}
