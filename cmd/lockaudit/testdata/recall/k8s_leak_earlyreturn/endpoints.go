// Package k8s_leak_earlyreturn is modelled on a Kubernetes kube-proxy
// endpoints-tracker bug: Update locks the tracker and validates the
// incoming endpoints; the validation failure returns early without
// unlocking, so the next Update or the proxier's sync (which takes the
// same lock) blocks forever after the first malformed Endpoints object.
package k8s_leak_earlyreturn

import (
	"fmt"
	"net"
	"sync"
)

// Endpoint is one backend address of a service.
type Endpoint struct {
	IP   string
	Port int
}

// EndpointsTracker is kube-proxy's view of service endpoints. Buggy version.
type EndpointsTracker struct {
	mu        sync.Mutex
	endpoints map[string][]Endpoint
	changed   map[string]bool
}

// NewEndpointsTracker returns an empty tracker.
func NewEndpointsTracker() *EndpointsTracker {
	return &EndpointsTracker{endpoints: map[string][]Endpoint{}, changed: map[string]bool{}}
}

// Update replaces service's endpoints.
func (t *EndpointsTracker) Update(service string, eps []Endpoint) error {
	t.mu.Lock()
	for _, ep := range eps {
		if net.ParseIP(ep.IP) == nil {
			return fmt.Errorf("service %s: invalid endpoint IP %q", service, ep.IP) // BUG: t.mu still locked
		}
	}
	t.endpoints[service] = eps
	t.changed[service] = true
	t.mu.Unlock()
	return nil
}

// PendingChanges returns and clears the changed services.
func (t *EndpointsTracker) PendingChanges() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for s := range t.changed {
		out = append(out, s)
	}
	t.changed = map[string]bool{}
	return out
}

// EndpointsTrackerFixed is the fixed version: validation runs before the
// lock is taken.
type EndpointsTrackerFixed struct {
	mu        sync.Mutex
	endpoints map[string][]Endpoint
	changed   map[string]bool
}

// NewEndpointsTrackerFixed returns an empty tracker.
func NewEndpointsTrackerFixed() *EndpointsTrackerFixed {
	return &EndpointsTrackerFixed{endpoints: map[string][]Endpoint{}, changed: map[string]bool{}}
}

// Update replaces service's endpoints.
func (t *EndpointsTrackerFixed) Update(service string, eps []Endpoint) error {
	for _, ep := range eps {
		if net.ParseIP(ep.IP) == nil {
			return fmt.Errorf("service %s: invalid endpoint IP %q", service, ep.IP)
		}
	}
	t.mu.Lock()
	t.endpoints[service] = eps
	t.changed[service] = true
	t.mu.Unlock()
	return nil
}

// PendingChanges returns and clears the changed services.
func (t *EndpointsTrackerFixed) PendingChanges() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for s := range t.changed {
		out = append(out, s)
	}
	t.changed = map[string]bool{}
	return out
}
