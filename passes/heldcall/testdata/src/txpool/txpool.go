// Package txpool is a transaction pool whose consumers wait, under the
// pool's lock, for a transaction to arrive: through a cancellable Cond of
// another package, made on that lock, whose Wait releases it.
package txpool

import (
	"context"
	"sync"

	"txpool/syncx"
)

// Pool holds pending transactions.
type Pool struct {
	mu      sync.Mutex
	cond    *syncx.Cond
	pending [][]byte

	statsMu sync.Mutex
	waits   int

	ready *syncx.Gate
	acked *syncx.AckCond
}

// New returns an empty pool.
func New() *Pool {
	p := &Pool{}
	p.cond = syncx.NewCond(&p.mu)
	p.ready = syncx.NewGate(&p.mu)
	p.acked = syncx.NewAckCond(&p.mu)
	return p
}

// Add queues tx and wakes the waiters.
func (p *Pool) Add(tx []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending = append(p.pending, tx)
	p.cond.Broadcast()
}

// Next waits for a transaction. Wait releases p.mu while it waits, so
// Add can take it: not a finding.
func (p *Pool) Next(ctx context.Context) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) == 0 {
		if err := p.cond.Wait(ctx); err != nil {
			return nil, err
		}
	}
	tx := p.pending[0]
	p.pending = p.pending[1:]
	return tx, nil
}

// NextCounted is Next, but it counts the wait under the stats lock,
// which the Cond does not release: every reader of the stats waits for a
// transaction too.
func (p *Pool) NextCounted(ctx context.Context) ([]byte, error) {
	p.statsMu.Lock()
	defer p.statsMu.Unlock()
	p.waits++
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) == 0 {
		if err := p.cond.Wait(ctx); err != nil { // want `p.statsMu held across call of syncx.\(\*Cond\).Wait, which blocks: syncx.\(\*Cond\).Wait -> select`
			return nil, err
		}
	}
	tx := p.pending[0]
	p.pending = p.pending[1:]
	return tx, nil
}

// Waits returns how many waits were counted.
func (p *Pool) Waits() int {
	p.statsMu.Lock()
	defer p.statsMu.Unlock()
	return p.waits
}

// AwaitReady waits for the pool to open, holding p.mu: the gate's Wait
// does not release it.
func (p *Pool) AwaitReady() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ready.Wait() // want `p.mu held across call of syncx.\(\*Gate\).Wait, which blocks: syncx.\(\*Gate\).Wait -> channel receive`
}

// AwaitReadyUnlocked is AwaitReady without the pool's lock: not a
// finding.
func (p *Pool) AwaitReadyUnlocked() {
	p.ready.Wait()
}

// NextAcked waits on the AckCond, whose Wait releases p.mu only until it
// is woken, then waits for the acknowledgement with p.mu held again.
func (p *Pool) NextAcked() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) == 0 {
		p.acked.Wait() // want `p.mu held across call of syncx.\(\*AckCond\).Wait, which blocks: syncx.\(\*AckCond\).Wait -> channel receive`
	}
	tx := p.pending[0]
	p.pending = p.pending[1:]
	return tx
}

// Move takes the head of p into dst while it holds p.mu: dst.Add waits
// for nothing, but dst.Put waits for room in dst, on dst's Cond, which
// releases dst.mu (its own lock), not p.mu.
func (p *Pool) Move(ctx context.Context, dst *Pool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.pending) == 0 {
		return nil
	}
	tx := p.pending[0]
	p.pending = p.pending[1:]
	return dst.Put(ctx, tx) // want `p.mu held across call of \(\*Pool\).Put, which blocks: \(\*Pool\).Put -> syncx.\(\*Cond\).Wait -> select`
}

// Put waits, under dst's lock, until the pool holds fewer than 64
// pending transactions.
func (p *Pool) Put(ctx context.Context, tx []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.pending) >= 64 {
		if err := p.cond.Wait(ctx); err != nil {
			return err
		}
	}
	p.pending = append(p.pending, tx)
	return nil
}

// Relay forwards a pool's transactions into a bounded outbox.
type Relay struct {
	mu      sync.Mutex
	turn    *syncx.Cond
	sending bool
	out     *Pool
}

// NewRelay returns a relay into out.
func NewRelay(out *Pool) *Relay {
	r := &Relay{out: out}
	r.turn = syncx.NewCond(&r.mu)
	return r
}

// Send forwards tx holding r.mu: flushLocked waits for its turn on a Cond
// made on r.mu, which releases it, but then waits for room in the outbox
// on the outbox's Cond, which releases only the outbox's lock.
func (r *Relay) Send(ctx context.Context, tx []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushLocked(ctx, tx) // want `r.mu held across call of \(\*Relay\).flushLocked, which blocks: \(\*Relay\).flushLocked -> \(\*Pool\).Put -> syncx.\(\*Cond\).Wait -> select`
}

// flushLocked is called with r.mu held.
func (r *Relay) flushLocked(ctx context.Context, tx []byte) error {
	for r.sending {
		if err := r.turn.Wait(ctx); err != nil {
			return err
		}
	}
	r.sending = true
	defer func() { r.sending = false; r.turn.Broadcast() }()
	return r.out.Put(ctx, tx)
}

// Mempool keeps its Cond's own mutex, made for it and reached only
// through the Cond's L.
type Mempool struct {
	cond    *syncx.Cond
	pending [][]byte
}

// NewMempool returns an empty mempool.
func NewMempool() *Mempool {
	return &Mempool{cond: syncx.NewCond(&sync.Mutex{})}
}

// WaitForTx waits under the Cond's L, which Wait releases. Not a finding.
func (m *Mempool) WaitForTx(ctx context.Context) error {
	m.cond.L.Lock()
	defer m.cond.L.Unlock()
	for len(m.pending) == 0 {
		if err := m.cond.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Add queues tx and wakes the waiters.
func (m *Mempool) Add(tx []byte) {
	m.cond.L.Lock()
	defer m.cond.L.Unlock()
	m.pending = append(m.pending, tx)
	m.cond.Broadcast()
}

// Batch is a bounded batch of transactions whose Put takes the batch's
// lock through its Cond's L.
type Batch struct {
	mu      sync.Mutex
	notFull *syncx.Cond
	txs     [][]byte
}

// NewBatch returns an empty batch.
func NewBatch() *Batch {
	b := &Batch{}
	b.notFull = syncx.NewCond(&b.mu)
	return b
}

// Put waits for room under b.notFull.L, which Wait releases. Not a
// finding.
func (b *Batch) Put(ctx context.Context, tx []byte) error {
	b.notFull.L.Lock()
	defer b.notFull.L.Unlock()
	for len(b.txs) >= 16 {
		if err := b.notFull.Wait(ctx); err != nil {
			return err
		}
	}
	b.txs = append(b.txs, tx)
	return nil
}

// Transfer moves src's first transaction into dst holding src.mu, while
// dst.Put waits for room in dst: the wait releases dst's lock, not src's.
func Transfer(ctx context.Context, src, dst *Batch) error {
	src.mu.Lock()
	defer src.mu.Unlock()
	if len(src.txs) == 0 {
		return nil
	}
	tx := src.txs[0]
	src.txs = src.txs[1:]
	return dst.Put(ctx, tx) // want `src.mu held across call of \(\*Batch\).Put, which blocks: \(\*Batch\).Put -> syncx.\(\*Cond\).Wait -> select`
}
