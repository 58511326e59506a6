// Package rtcagent holds the cases of hand-offs to an executor: an agent
// whose state lives on a task loop, read through short tasks by a
// transport that holds its own lock. The wait for the loop is only
// plausible (a note): it lasts as long as the tasks queued before this
// one. The task handed over is judged as if it were called in place.
package rtcagent

import (
	"net"
	"sync"

	"rtcagent/taskloop"
)

type agent struct {
	loop        *taskloop.Loop
	pacer       *taskloop.Pacer
	localUfrag  string
	remoteUfrag string
	candidates  []string
	conn        net.Conn
}

// localCredentials reads the agent's state on its loop.
func (a *agent) localCredentials() (ufrag string, err error) {
	err = a.loop.Run(func() { ufrag = a.localUfrag })
	return ufrag, err
}

// remoteCredentials reads them on the loop too, and waits for a channel
// the task closes, which it has done once Run returns.
func (a *agent) remoteCredentials() (ufrag string, err error) {
	set := make(chan struct{})
	err = a.loop.Run(func() {
		ufrag = a.remoteUfrag
		close(set)
	})
	if err == nil {
		<-set
	}
	return ufrag, err
}

// sendBinding writes a binding request from a task: the task blocks.
func (a *agent) sendBinding(req []byte) error {
	return a.loop.Run(func() { a.conn.Write(req) })
}

// pacedCandidates reads the candidates on a loop that writes its own
// keepalives between tasks.
func (a *agent) pacedCandidates() (out []string) {
	a.pacer.Run(func() { out = append(out, a.candidates...) })
	return out
}

// A transport holds its lock while it asks its agent.
type transport struct {
	mu     sync.RWMutex
	agent  *agent
	params string
}

// LocalParameters reads the agent's credentials under the lock: a note,
// the loop may be busy with other tasks.
func (t *transport) LocalParameters() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	ufrag, _ := t.agent.localCredentials() // want `t.mu held across call of \(\*agent\).localCredentials, which blocks: \(\*agent\).localCredentials -> taskloop.\(\*Loop\).Run -> select .*\(plausible: waits for an executor goroutine to run the tasks queued before this one\)`
	t.params = ufrag
	return ufrag
}

// RemoteParameters is the same through the closed channel: a note.
func (t *transport) RemoteParameters() string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	ufrag, _ := t.agent.remoteCredentials() // want `t.mu held across call of \(\*agent\).remoteCredentials, which blocks: \(\*agent\).remoteCredentials -> taskloop.\(\*Loop\).Run -> select .*\(plausible: waits for an executor goroutine to run the tasks queued before this one\)`
	return ufrag
}

// Ping sends a binding request from a task under the lock: the task
// writes to the connection while the lock is held.
func (t *transport) Ping(req []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agent.sendBinding(req) // want `t.mu held across call of \(\*agent\).sendBinding, which blocks: \(\*agent\).sendBinding -> \(\*agent\).sendBinding.func1 -> net.Conn.Write`
}

// PingUnlocked is Ping's twin: the lock covers only the state.
func (t *transport) PingUnlocked(req []byte) {
	t.mu.Lock()
	a := t.agent
	t.mu.Unlock()
	a.sendBinding(req)
}

// Candidates asks the pacer under the lock: the pacer's own keepalive
// write makes the wait proven.
func (t *transport) Candidates() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.agent.pacedCandidates() // want `t.mu held across call of \(\*agent\).pacedCandidates, which blocks: \(\*agent\).pacedCandidates -> taskloop.\(\*Pacer\).Run -> channel send`
}

// CandidatesUnlocked is its twin: asked after the lock is released.
func (t *transport) CandidatesUnlocked() []string {
	t.mu.RLock()
	a := t.agent
	t.mu.RUnlock()
	return a.pacedCandidates()
}
