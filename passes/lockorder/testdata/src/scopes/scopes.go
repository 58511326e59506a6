// Package scopes is a resource manager whose scopes each embed a *resourceScope of their own. // want package:"3 lock-order edges"
package scopes

import "sync"

type resourceScope struct {
	sync.Mutex
	refs     int
	reserved int64
}

func newResourceScope() *resourceScope { return &resourceScope{} }

func (s *resourceScope) IsUnused() bool {
	s.Lock()
	defer s.Unlock()
	return s.refs == 0 && s.reserved == 0
}

type peerScope struct {
	*resourceScope
	peer  string
	rcmgr *manager
}

type connScope struct {
	*resourceScope
	peer  *peerScope
	rcmgr *manager
}

type manager struct {
	mx    sync.Mutex
	peers map[string]*peerScope
}

func (r *manager) gc() {
	r.mx.Lock()
	defer r.mx.Unlock()
	for p, s := range r.peers {
		if s.IsUnused() { // want `s.Mutex locked through call of \(\*resourceScope\).IsUnused while holding r.mx \(locked at scopes.go:38\); the opposite order is taken at scopes.go:84: lock-order inversion`
			delete(r.peers, p)
		}
	}
}

func (r *manager) getPeerScope(p string) *peerScope {
	r.mx.Lock()
	defer r.mx.Unlock()
	s, ok := r.peers[p]
	if !ok {
		s = &peerScope{resourceScope: newResourceScope(), peer: p, rcmgr: r}
		r.peers[p] = s
	}
	return s
}

func (r *manager) openConn() *connScope {
	return &connScope{resourceScope: newResourceScope(), rcmgr: r}
}

func (s *connScope) SetPeer(p string) {
	s.Lock()
	defer s.Unlock()
	s.peer = s.rcmgr.getPeerScope(p) // want `s.rcmgr.mx locked through call of \(\*manager\).getPeerScope while holding s.resourceScope.Mutex \(locked at scopes.go:63\); the opposite order takes s.Mutex while holding r.mx at scopes.go:41: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*scopes.resourceScope\).Mutex and \(\*scopes.manager\).mx\)`
}

// A stream scope is the twin that shares its peer's resource scope: its
// lock is a peer scope's lock, so the manager's gc, which locks peer scopes
// under mx, and SetService, which takes mx under the stream's lock, can
// deadlock.
type streamScope struct {
	*resourceScope
	rcmgr *manager
}

func (p *peerScope) openStream() *streamScope {
	return &streamScope{resourceScope: p.resourceScope, rcmgr: p.rcmgr}
}

func (s *streamScope) SetService(p string) {
	s.Lock()
	defer s.Unlock()
	s.rcmgr.getPeerScope(p) // want `s.rcmgr.mx locked through call of \(\*manager\).getPeerScope while holding s.resourceScope.Mutex \(locked at scopes.go:82\); the opposite order is taken at scopes.go:41: lock-order inversion`
}
