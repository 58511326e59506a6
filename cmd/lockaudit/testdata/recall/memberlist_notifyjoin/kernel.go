// Package memberlist_notifyjoin reproduces hashicorp/memberlist#237 (also #23):
// "Not able to perform List.Members() inside a NotifyJoin()/NotifyLeave() as it
// results in deadlock".
//
// aliveNode holds nodeLock for writing while it calls the application's
// EventDelegate.NotifyJoin; a delegate that asks the list for its Members (here a
// cluster-size tracker, as in the issue) read-locks nodeLock on the same goroutine
// and blocks forever, freezing gossip. The fixed twin records the join under the
// lock and notifies the delegate after releasing it.
package memberlist_notifyjoin

import "sync"

type Node struct{ Name, Addr string }

type EventDelegate interface {
	NotifyJoin(*Node)
	NotifyLeave(*Node)
}

type nodeState struct {
	Node
	Incarnation uint32
	Dead        bool
}

type alive struct {
	Node, Addr  string
	Incarnation uint32
}

type Memberlist struct {
	nodeLock sync.RWMutex
	nodes    []*nodeState
	nodeMap  map[string]*nodeState
	events   EventDelegate
}

func (m *Memberlist) Members() []*Node {
	m.nodeLock.RLock()
	defer m.nodeLock.RUnlock()
	nodes := make([]*Node, 0, len(m.nodes))
	for _, n := range m.nodes {
		if !n.Dead {
			nodes = append(nodes, &n.Node)
		}
	}
	return nodes
}

// aliveNode handles an alive message received by gossip or push/pull.
func (m *Memberlist) aliveNode(a *alive) {
	m.nodeLock.Lock()
	defer m.nodeLock.Unlock()
	state, ok := m.nodeMap[a.Node]
	if ok && a.Incarnation <= state.Incarnation {
		return
	}
	if !ok {
		state = &nodeState{Node: Node{Name: a.Node, Addr: a.Addr}}
		m.nodeMap[a.Node] = state
		m.nodes = append(m.nodes, state)
	}
	state.Incarnation, state.Dead = a.Incarnation, false
	if !ok && m.events != nil {
		m.events.NotifyJoin(&state.Node)
	}
}

// clusterSize is the application's delegate: it tracks the member count.
type clusterSize struct {
	list *Memberlist
	mu   sync.Mutex
	n    int
}

func (c *clusterSize) NotifyJoin(*Node)  { c.refresh() }
func (c *clusterSize) NotifyLeave(*Node) { c.refresh() }

func (c *clusterSize) refresh() {
	members := c.list.Members()
	c.mu.Lock()
	c.n = len(members)
	c.mu.Unlock()
}

func NewCluster() *Memberlist {
	m := &Memberlist{nodeMap: map[string]*nodeState{}}
	m.events = &clusterSize{list: m}
	return m
}

// ---- fixed twin: the delegate is called after nodeLock is released ----

func (m *Memberlist) aliveNodeFixed(a *alive) {
	var joined *Node
	m.nodeLock.Lock()
	state, ok := m.nodeMap[a.Node]
	if ok && a.Incarnation <= state.Incarnation {
		m.nodeLock.Unlock()
		return
	}
	if !ok {
		state = &nodeState{Node: Node{Name: a.Node, Addr: a.Addr}}
		m.nodeMap[a.Node] = state
		m.nodes = append(m.nodes, state)
		joined = &state.Node
	}
	state.Incarnation, state.Dead = a.Incarnation, false
	m.nodeLock.Unlock()
	if joined != nil && m.events != nil {
		m.events.NotifyJoin(joined)
	}
}
