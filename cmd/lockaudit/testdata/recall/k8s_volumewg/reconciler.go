// Package k8s_volumewg is modelled on a Kubernetes attach/detach
// controller deadlock: the reconciler holds the actual-state-of-world lock
// while it fans out one attach operation per volume and waits for all of
// them with a sync.WaitGroup. Each operation records its result with
// markAttached, which takes the same lock, so no operation can finish and
// the wait never returns.
package k8s_volumewg

import "sync"

// Attacher attaches a volume to a node through the cloud provider.
type Attacher func(volume, node string) error

// Reconciler drives the actual state toward the desired state. Buggy version.
type Reconciler struct {
	mu       sync.Mutex
	desired  map[string]string // volume -> node
	attached map[string]string // volume -> node
	attach   Attacher
}

// NewReconciler returns a reconciler using attach.
func NewReconciler(attach Attacher) *Reconciler {
	return &Reconciler{desired: map[string]string{}, attached: map[string]string{}, attach: attach}
}

// SetDesired records that volume should be attached to node.
func (r *Reconciler) SetDesired(volume, node string) {
	r.mu.Lock()
	r.desired[volume] = node
	r.mu.Unlock()
}

// Reconcile attaches every volume that is desired but not attached.
func (r *Reconciler) Reconcile() {
	r.mu.Lock()
	defer r.mu.Unlock()
	var wg sync.WaitGroup
	for vol, node := range r.desired {
		if r.attached[vol] == node {
			continue
		}
		wg.Add(1)
		go func(vol, node string) {
			defer wg.Done()
			if err := r.attach(vol, node); err == nil {
				r.markAttached(vol, node)
			}
		}(vol, node)
	}
	wg.Wait() // BUG: r.mu held; every operation needs r.mu in markAttached
}

func (r *Reconciler) markAttached(vol, node string) {
	r.mu.Lock()
	r.attached[vol] = node
	r.mu.Unlock()
}

// ReconcilerFixed is the fixed version: the work list is computed under
// the lock, the operations run and are waited for after it is released.
type ReconcilerFixed struct {
	mu       sync.Mutex
	desired  map[string]string
	attached map[string]string
	attach   Attacher
}

// NewReconcilerFixed returns a reconciler using attach.
func NewReconcilerFixed(attach Attacher) *ReconcilerFixed {
	return &ReconcilerFixed{desired: map[string]string{}, attached: map[string]string{}, attach: attach}
}

// SetDesired records that volume should be attached to node.
func (r *ReconcilerFixed) SetDesired(volume, node string) {
	r.mu.Lock()
	r.desired[volume] = node
	r.mu.Unlock()
}

type attachOp struct{ vol, node string }

// Reconcile attaches every volume that is desired but not attached.
func (r *ReconcilerFixed) Reconcile() {
	r.mu.Lock()
	var ops []attachOp
	for vol, node := range r.desired {
		if r.attached[vol] != node {
			ops = append(ops, attachOp{vol, node})
		}
	}
	r.mu.Unlock()

	var wg sync.WaitGroup
	for _, op := range ops {
		wg.Add(1)
		go func(op attachOp) {
			defer wg.Done()
			if err := r.attach(op.vol, op.node); err == nil {
				r.markAttached(op.vol, op.node)
			}
		}(op)
	}
	wg.Wait()
}

func (r *ReconcilerFixed) markAttached(vol, node string) {
	r.mu.Lock()
	r.attached[vol] = node
	r.mu.Unlock()
}
