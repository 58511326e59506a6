// Package libnetwork_deletenetwork_flush reproduces moby/libnetwork PR #2180 ("Fix
// spurious deadlock in overlay driver", a regression from bd613df2).
//
// The overlay driver's DeleteNetwork holds driver.Lock() until it returns and,
// on the way, asks the peerDB goroutine to flush the network's peers by a send on
// the synchronous peer operation channel; the peerDB goroutine is busy with an
// earlier operation that needs driver.Lock() to look the network up, so neither
// moves. The fix defers the flush until after the driver lock is released.
package libnetwork_deletenetwork_flush

import (
	"context"
	"fmt"
	"sync"
)

const (
	peerOperationADD = iota
	peerOperationFLUSH
)

type peerOperation struct {
	opType    int
	networkID string
	peerIP    string
}

type network struct {
	id    string
	peers map[string]string
}

type driver struct {
	sync.Mutex
	networks map[string]*network
	peerOpCh chan *peerOperation // unbuffered: operations are processed in order
}

func (d *driver) network(nid string) *network {
	d.Lock()
	defer d.Unlock()
	return d.networks[nid]
}

// peerOpRoutine is the peerDB goroutine; networkDB events arrive as peerAdd.
func (d *driver) peerOpRoutine(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case op := <-d.peerOpCh:
			switch op.opType {
			case peerOperationADD:
				if n := d.network(op.networkID); n != nil {
					n.peers[op.peerIP] = op.networkID
				}
			case peerOperationFLUSH:
				// drop the peer table of op.networkID
			}
		}
	}
}

func (d *driver) peerAdd(nid, ip string) {
	d.peerOpCh <- &peerOperation{opType: peerOperationADD, networkID: nid, peerIP: ip}
}

func (d *driver) peerFlush(nid string) {
	d.peerOpCh <- &peerOperation{opType: peerOperationFLUSH, networkID: nid}
}

func (d *driver) DeleteNetwork(nid string) error {
	d.Lock()
	defer d.Unlock()
	n := d.networks[nid]
	if n == nil {
		return fmt.Errorf("could not find network with id %s", nid)
	}
	delete(d.networks, nid)
	d.peerFlush(nid)
	return nil
}

// ---- fixed twin (upstream): flush only after the driver lock is released ----

func (d *driver) DeleteNetworkFixed(nid string) error {
	d.Lock()
	var doPeerFlush bool
	defer func() {
		d.Unlock()
		if doPeerFlush {
			d.peerFlush(nid)
		}
	}()
	n := d.networks[nid]
	if n == nil {
		return fmt.Errorf("could not find network with id %s", nid)
	}
	delete(d.networks, nid)
	doPeerFlush = true
	return nil
}
