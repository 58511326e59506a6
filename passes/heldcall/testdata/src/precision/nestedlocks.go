package precision

import (
	"os"
	"sync"
)

// A replicated log's node: its snapshot lock is only ever taken under the
// node's own lock, which every caller of installSnapshot holds. Nobody can
// be waiting for snapMu while the install writes the file: they would
// first need the node's lock. The callers' finding names that lock.

type logNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	applied  uint64
}

func (n *logNode) Apply(idx uint64, snap []byte) {
	n.Lock()
	defer n.Unlock()
	n.applied = idx
	if snap != nil {
		n.installSnapshot(snap) // want `n.RWMutex held across call of \(\*\w+\)\.installSnapshot, which blocks: \(\*\w+\)\.installSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
	}
}

func (n *logNode) Compact(idx uint64) {
	n.Lock()
	n.snapMu.Lock()
	n.applied = idx
	n.snapMu.Unlock()
	n.Unlock()
}

func (n *logNode) installSnapshot(snap []byte) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\) \(plausible: n.snapMu is taken only under n.RWMutex, which every caller holds here\)`
}

// The same node, whose snapshot size is read under the snapshot lock
// alone: a reader can be waiting for it during the write.

type statNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	applied  uint64
	snapSize int
}

func (n *statNode) Apply(idx uint64, snap []byte) {
	n.Lock()
	defer n.Unlock()
	n.applied = idx
	n.installSnapshot(snap) // want `n.RWMutex held across call of \(\*\w+\)\.installSnapshot, which blocks: \(\*\w+\)\.installSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *statNode) SnapshotSize() int {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	return n.snapSize
}

func (n *statNode) installSnapshot(snap []byte) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.snapSize = len(snap)
	os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

// A node whose callers hold only the read side of its lock: two readers
// can both hold it and wait for each other's snapshot lock.

type readNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	snapSize int
}

func (n *readNode) Persist(snap []byte) {
	n.RLock()
	defer n.RUnlock()
	n.writeSnapshot(snap) // want `n.RWMutex held across call of \(\*readNode\)\.writeSnapshot, which blocks: \(\*readNode\)\.writeSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *readNode) writeSnapshot(snap []byte) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.snapSize = len(snap)
	os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

// An exported node, whose install its users may call directly, without
// the node's lock.

type SnapshotNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	applied  uint64
	snapSize int
}

func (n *SnapshotNode) Apply(idx uint64, snap []byte) {
	n.Lock()
	defer n.Unlock()
	n.applied = idx
	n.InstallSnapshot(snap) // want `n.RWMutex held across call of \(\*\w+\)\.InstallSnapshot, which blocks: \(\*\w+\)\.InstallSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *SnapshotNode) InstallSnapshot(snap []byte) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.snapSize = len(snap)
	os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

// A node whose install drops the node's lock around the write: a
// compaction can take the node's lock and wait for the snapshot lock.

type handoffNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	applied  uint64
}

func (n *handoffNode) Apply(idx uint64, snap []byte) {
	n.Lock()
	defer n.Unlock()
	n.applied = idx
	n.installSnapshot(snap)
}

func (n *handoffNode) Compact(idx uint64) {
	n.Lock()
	n.snapMu.Lock()
	n.applied = idx
	n.snapMu.Unlock()
	n.Unlock()
}

func (n *handoffNode) installSnapshot(snap []byte) {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.Unlock()
	os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
	n.Lock()
}

// A node that installs a snapshot through a checkpoint: the checkpoint's
// back-pointer is the node its constructor was called on, so the caller's
// lock is the node's lock.

type ckptNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	term     uint64
}

type checkpoint struct {
	n    *ckptNode
	term uint64
}

func (n *ckptNode) checkpointLocked() (*checkpoint, error) {
	if n.snapPath == "" {
		return nil, os.ErrNotExist
	}
	return &checkpoint{n: n, term: n.term}, nil
}

func (n *ckptNode) InstallSnapshot(snap []byte) error {
	n.Lock()
	defer n.Unlock()
	c, err := n.checkpointLocked()
	if err != nil {
		return err
	}
	return c.n.installSnapshot(snap) // want `n.RWMutex held across call of \(\*ckptNode\)\.installSnapshot, which blocks: \(\*ckptNode\)\.installSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *ckptNode) installSnapshot(snap []byte) error {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.term++
	return os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\) \(plausible: n.snapMu is taken only under n.RWMutex, which every caller holds here\)`
}

// The same, where a checkpoint can be re-pointed at another node: c.n
// need not be the node whose lock is held.

type movableNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	term     uint64
}

type movableCheckpoint struct {
	n    *movableNode
	term uint64
}

func (n *movableNode) checkpointLocked() *movableCheckpoint {
	return &movableCheckpoint{n: n, term: n.term}
}

func (c *movableCheckpoint) moveTo(n *movableNode) { c.n = n }

func (n *movableNode) InstallSnapshot(snap []byte, to *movableNode) error {
	n.Lock()
	defer n.Unlock()
	c := n.checkpointLocked()
	c.moveTo(to)
	return c.n.installSnapshot(snap) // want `n.RWMutex held across call of \(\*movableNode\)\.installSnapshot, which blocks: \(\*movableNode\)\.installSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *movableNode) installSnapshot(snap []byte) error {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.term++
	return os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

// A checkpoint made through an interface: its back-pointer is not known
// to be the node whose lock is held.

type ifaceNode struct {
	sync.RWMutex
	snapMu   sync.Mutex
	snapPath string
	term     uint64
}

type ifaceCheckpoint struct {
	n    *ifaceNode
	term uint64
}

func (n *ifaceNode) checkpointLocked() *ifaceCheckpoint {
	return &ifaceCheckpoint{n: n, term: n.term}
}

type checkpointMaker interface{ makeCheckpoint() *ifaceCheckpoint }

func (n *ifaceNode) makeCheckpoint() *ifaceCheckpoint { return n.checkpointLocked() }

func (n *ifaceNode) InstallFrom(m checkpointMaker, snap []byte) error {
	n.Lock()
	defer n.Unlock()
	return m.makeCheckpoint().n.installSnapshot(snap) // want `n.RWMutex held across call of \(\*ifaceNode\)\.installSnapshot, which blocks: \(\*ifaceNode\)\.installSnapshot -> os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}

func (n *ifaceNode) installSnapshot(snap []byte) error {
	n.snapMu.Lock()
	defer n.snapMu.Unlock()
	n.term++
	return os.WriteFile(n.snapPath, snap, 0o600) // want `n.snapMu held across call of os.WriteFile \(locked at nestedlocks.go:\d+, released by defer\)$`
}
