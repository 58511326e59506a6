package callbacks

import (
	"sync"
)

// Webhooks keeps named delivery hooks.
type Webhooks struct {
	mu    sync.Mutex
	hooks map[string]func(payload []byte) error
}

func (w *Webhooks) FireHeld(name string, payload []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.hooks[name]; !ok {
		return nil
	}
	return w.hooks[name](payload) // want `w.mu held across call of func value w.hooks\[name\] \(locked at hooks.go:14, released by defer\)`
}

func (w *Webhooks) Fire(name string, payload []byte) error {
	w.mu.Lock()
	hook, ok := w.hooks[name]
	w.mu.Unlock()
	if !ok {
		return nil
	}
	return hook(payload)
}

// Subscriber receives messages from a Topic.
type Subscriber interface {
	Deliver(msg []byte)
}

// Topic delivers to its subscribers through method values.
type Topic struct {
	mu   sync.Mutex
	subs []Subscriber
}

func (t *Topic) BroadcastHeld(msg []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.subs {
		deliver := s.Deliver
		deliver(msg) // want `t.mu held across call of func value deliver \(locked at hooks.go:44, released by defer\) \(plausible: a method value of an interface\)`
	}
}

func (t *Topic) Broadcast(msg []byte) {
	t.mu.Lock()
	var fns []func([]byte)
	for _, s := range t.subs {
		fns = append(fns, s.Deliver)
	}
	t.mu.Unlock()
	for _, deliver := range fns {
		deliver(msg)
	}
}

// HealthChecker polls backends and reports status changes.
type HealthChecker struct {
	mu       sync.Mutex
	status   map[string]bool
	onChange func(backend string, healthy bool)
}

func (h *HealthChecker) SetHeld(backend string, healthy bool) {
	h.mu.Lock()
	prev := h.status[backend]
	h.status[backend] = healthy
	if prev != healthy {
		h.onChange(backend, healthy) // want `h.mu held across call of func value h.onChange \(locked at hooks.go:72\)`
	}
	h.mu.Unlock()
}

func (h *HealthChecker) Set(backend string, healthy bool) {
	h.mu.Lock()
	prev := h.status[backend]
	h.status[backend] = healthy
	changed := prev != healthy
	cb := h.onChange
	h.mu.Unlock()
	if changed && cb != nil {
		cb(backend, healthy)
	}
}

// Register adds a named delivery hook.
func (w *Webhooks) Register(name string, hook func(payload []byte) error) {
	w.mu.Lock()
	w.hooks[name] = hook
	w.mu.Unlock()
}

// NewHealthChecker returns a checker that tells onChange, the user's
// hook, about status changes.
func NewHealthChecker(onChange func(backend string, healthy bool)) *HealthChecker {
	return &HealthChecker{status: map[string]bool{}, onChange: onChange}
}
