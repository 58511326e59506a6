// want package:"2 lock-order edges"

// Package kvtick ticks replicas: holding a replica's raft lock, it
// quiesces the replica, which coalesces its store's heartbeats three calls
// deep: the replica's lock, then its store's, the opposite of the store's
// SendHeartbeats in package kvserver.
package kvtick

import "kvserver"

// TickHeld holds the replica's raft lock while it quiesces the replica.
func TickHeld(r *kvserver.Replica) {
	r.LockRaft()
	defer r.UnlockRaft()
	maybeQuiesce(r) // want `r.Store.hbMu locked through call of maybeQuiesce while holding r.raftMu \(locked at kvtick.go:13\); package kvserver kvserver.go:31 takes \(\*kvserver.Replica\).raftMu while holding \(\*kvserver.Store\).hbMu: lock-order inversion across packages`
}

// Tick is the twin of TickHeld: it decides under the raft lock and
// quiesces after releasing it.
func Tick(r *kvserver.Replica) {
	r.LockRaft()
	quiesce := !r.Quiesced
	r.UnlockRaft()
	if quiesce {
		maybeQuiesce(r)
	}
}

func maybeQuiesce(r *kvserver.Replica) {
	r.Quiesced = true
	coalesce(r)
}

func coalesce(r *kvserver.Replica) { r.Store.Coalesce() }

// ForwardHeld holds a replica's raft lock while it coalesces another
// store's heartbeats: the classes meet in the reverse order of
// SendHeartbeats, but nothing ties that store to the replica.
func ForwardHeld(r *kvserver.Replica, to *kvserver.Store) {
	r.LockRaft()
	defer r.UnlockRaft()
	to.Coalesce() // want `to.hbMu locked through call of kvserver.\(\*Store\).Coalesce while holding r.raftMu \(locked at kvtick.go:40\); package kvserver kvserver.go:31 takes \(\*kvserver.Replica\).raftMu while holding \(\*kvserver.Store\).hbMu: lock-order inversion across packages \(plausible: the cycle is proven only between the lock classes \(\*kvserver.Replica\).raftMu and \(\*kvserver.Store\).hbMu\)`
}

// Forward is the twin of ForwardHeld: it releases the raft lock first.
func Forward(r *kvserver.Replica, to *kvserver.Store) {
	r.LockRaft()
	r.Quiesced = false
	r.UnlockRaft()
	to.Coalesce()
}
