// Models kubernetes#26980 (GoKer kubernetes_26980): processorListener.pop holds p.lock (also the cond's L) for its whole loop; cond.Wait releases it, but the select that hands the notification to run() on nextCh does not, so add(), called by the informer for every event, blocks on p.lock while run() is busy (lock held across a select send; sync.Cond sharing the lock).
package k8s_listener_pop

import "sync"

// ResourceEventHandler handles one notification.
type ResourceEventHandler interface {
	OnUpdate(obj interface{})
}

type processorListener struct {
	lock                 sync.RWMutex
	cond                 sync.Cond
	pendingNotifications []interface{}
	nextCh               chan interface{}
	handler              ResourceEventHandler
}

func newProcessListener(handler ResourceEventHandler) *processorListener {
	p := &processorListener{nextCh: make(chan interface{}), handler: handler}
	p.cond.L = &p.lock
	return p
}

// add queues a notification; the shared informer calls it for every event.
func (p *processorListener) add(notification interface{}) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.pendingNotifications = append(p.pendingNotifications, notification)
	p.cond.Broadcast()
}

// pop moves notifications from the pending list to nextCh. Buggy version.
func (p *processorListener) pop(stopCh <-chan struct{}) {
	p.lock.Lock()
	defer p.lock.Unlock()
	for {
		for len(p.pendingNotifications) == 0 {
			select {
			case <-stopCh:
				return
			default:
			}
			p.cond.Wait()
		}
		notification := p.pendingNotifications[0]
		p.pendingNotifications = p.pendingNotifications[1:]
		select {
		case <-stopCh:
			return
		case p.nextCh <- notification: // BUG: blocks with p.lock held; add() waits for it
		}
	}
}

func (p *processorListener) run(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case n := <-p.nextCh:
			p.handler.OnUpdate(n)
		}
	}
}

// processorListenerFixed is the fixed version (as client-go did): pop holds
// the lock only inside blockingGet and hands the notification over without it.
type processorListenerFixed struct {
	lock                 sync.RWMutex
	cond                 sync.Cond
	pendingNotifications []interface{}
	nextCh               chan interface{}
	handler              ResourceEventHandler
}

func newProcessListenerFixed(handler ResourceEventHandler) *processorListenerFixed {
	p := &processorListenerFixed{nextCh: make(chan interface{}), handler: handler}
	p.cond.L = &p.lock
	return p
}

func (p *processorListenerFixed) add(notification interface{}) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.pendingNotifications = append(p.pendingNotifications, notification)
	p.cond.Broadcast()
}

func (p *processorListenerFixed) pop(stopCh <-chan struct{}) {
	for {
		blockingGet := func() (interface{}, bool) {
			p.lock.Lock()
			defer p.lock.Unlock()
			for len(p.pendingNotifications) == 0 {
				select {
				case <-stopCh:
					return nil, true
				default:
				}
				p.cond.Wait()
			}
			nt := p.pendingNotifications[0]
			p.pendingNotifications = p.pendingNotifications[1:]
			return nt, false
		}
		notification, stopped := blockingGet()
		if stopped {
			return
		}
		select {
		case <-stopCh:
			return
		case p.nextCh <- notification:
		}
	}
}

func (p *processorListenerFixed) run(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case n := <-p.nextCh:
			p.handler.OnUpdate(n)
		}
	}
}
