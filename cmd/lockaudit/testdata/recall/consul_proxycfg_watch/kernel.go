// Package consul_proxycfg_watch reproduces hashicorp/consul PR #9689 ("Avoid
// potential proxycfg/xDS deadlock using non-blocking send").
//
// Manager.Watch holds m.mu while it asks a proxy's state goroutine for its snapshot
// (select-send of a reply channel, then select-receive of the reply); the state
// goroutine is stuck sending a newer snapshot into its full snapCh, and the Manager
// goroutine draining snapCh needs m.mu. Upstream made that send non-blocking
// (runFixed) and left Watch unchanged.
package consul_proxycfg_watch

import (
	"context"
	"sync"
)

type ConfigSnapshot struct {
	ProxyID string
	Version uint64
}

type state struct {
	proxyID  string
	ctx      context.Context
	updateCh chan uint64               // cache notifications
	snapCh   chan ConfigSnapshot       // capacity 1, drained by the Manager
	reqCh    chan chan *ConfigSnapshot // CurrentSnapshot requests
}

func (s *state) run() {
	snap := ConfigSnapshot{ProxyID: s.proxyID}
	for {
		select {
		case <-s.ctx.Done():
			return
		case v := <-s.updateCh:
			snap.Version = v
			select {
			case s.snapCh <- snap:
			case <-s.ctx.Done():
				return
			}
		case replyCh := <-s.reqCh:
			replyCh <- &ConfigSnapshot{ProxyID: snap.ProxyID, Version: snap.Version}
		}
	}
}

// CurrentSnapshot synchronously asks the state goroutine for its snapshot.
func (s *state) CurrentSnapshot() *ConfigSnapshot {
	ch := make(chan *ConfigSnapshot, 1)
	select {
	case <-s.ctx.Done():
		return nil
	case s.reqCh <- ch:
	}
	select {
	case <-s.ctx.Done():
		return nil
	case snap := <-ch:
		return snap
	}
}

type Manager struct {
	mu       sync.Mutex
	proxies  map[string]*state
	watchers map[string][]chan *ConfigSnapshot
}

// notifyBroadcast drains one proxy's snapshots and fans them out to watchers.
func (m *Manager) notifyBroadcast(s *state) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case snap := <-s.snapCh:
			m.mu.Lock()
			for _, ch := range m.watchers[snap.ProxyID] {
				select {
				case ch <- &snap:
				default:
				}
			}
			m.mu.Unlock()
		}
	}
}

// Watch is called by the xDS server for every new Envoy discovery stream.
func (m *Manager) Watch(proxyID string) <-chan *ConfigSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan *ConfigSnapshot, 1)
	m.watchers[proxyID] = append(m.watchers[proxyID], ch)
	if st, ok := m.proxies[proxyID]; ok {
		if snap := st.CurrentSnapshot(); snap != nil {
			ch <- snap // ch is new and buffered: this send never blocks
		}
	}
	return ch
}

// ---- fixed twin (upstream): the snapshot send never blocks (upstream retries on a timer) ----

func (s *state) runFixed() {
	snap := ConfigSnapshot{ProxyID: s.proxyID}
	for {
		select {
		case <-s.ctx.Done():
			return
		case v := <-s.updateCh:
			snap.Version = v
			select {
			case s.snapCh <- snap:
			default:
			}
		case replyCh := <-s.reqCh:
			replyCh <- &ConfigSnapshot{ProxyID: snap.ProxyID, Version: snap.Version}
		}
	}
}
