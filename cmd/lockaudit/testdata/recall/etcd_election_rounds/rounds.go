// Models etcd#7902 (GoKer etcd_7902): doRounds' client goroutines call rc.release() under a shared local mutex; a follower's release closure blocks on <-rcNextc until the leader's release closes nextc, but the leader needs the mutex to call its release (lock held across a func-field call whose closure receives; local mutex captured by goroutine closures).
package etcd_election_rounds

import (
	"errors"
	"sync"
)

type roundClient struct {
	progress int
	acquire  func() error
	validate func() error
	release  func() error
}

// doRounds runs every client for rounds rounds. Buggy version.
func doRounds(rcs []roundClient, rounds int) []error {
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(rcs))
	wg.Add(len(rcs))
	for i := range rcs {
		go func(i int, rc *roundClient) {
			defer wg.Done()
			for rc.progress < rounds {
				if err := rc.acquire(); err != nil {
					errs[i] = err
					return
				}
				mu.Lock()
				if err := rc.validate(); err != nil {
					mu.Unlock()
					errs[i] = err
					return
				}
				mu.Unlock()
				rc.progress++
				mu.Lock()
				for rc.release() != nil { // BUG: a follower's release blocks on <-rcNextc holding mu
				}
				mu.Unlock()
			}
		}(i, &rcs[i])
	}
	wg.Wait()
	return errs
}

// newElectionClients builds one leader and n-1 followers sharing nextc.
func newElectionClients(n int) []roundClient {
	rcs := make([]roundClient, n)
	nextc := make(chan struct{})
	leader := ""
	for i := range rcs {
		var rcNextc chan struct{}
		name := string(rune('a' + i))
		rcs[i].acquire = func() error {
			if leader == "" {
				leader = name
			}
			return nil
		}
		rcs[i].validate = func() error {
			if leader == "" {
				return errors.New("no leader")
			}
			rcNextc = nextc
			return nil
		}
		rcs[i].release = func() error {
			if leader == name {
				close(nextc)
				nextc = make(chan struct{})
				leader = ""
				return nil
			}
			<-rcNextc
			return nil
		}
	}
	return rcs
}

// RunElection runs a leader election test with n clients.
func RunElection(n, rounds int) []error { return doRounds(newElectionClients(n), rounds) }

// doRoundsFixed is the fixed version: release runs without the mutex.
func doRoundsFixed(rcs []roundClient, rounds int) []error {
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(rcs))
	wg.Add(len(rcs))
	for i := range rcs {
		go func(i int, rc *roundClient) {
			defer wg.Done()
			for rc.progress < rounds {
				if err := rc.acquire(); err != nil {
					errs[i] = err
					return
				}
				mu.Lock()
				if err := rc.validate(); err != nil {
					mu.Unlock()
					errs[i] = err
					return
				}
				mu.Unlock()
				rc.progress++
				for rc.release() != nil {
				}
			}
		}(i, &rcs[i])
	}
	wg.Wait()
	return errs
}

// RunElectionFixed runs the fixed rounds.
func RunElectionFixed(n, rounds int) []error { return doRoundsFixed(newElectionClients(n), rounds) }
