// Mechanism of go-ethereum's core/tx_pool bug class (txFeed.Send under
// pool.mu; the same bug was fixed again in geth forks, e.g. XDPoSChain PR
// #2519 "stop delivering special tx events under the pool lock"): TxPool.add
// holds pool.mu while it announces the new transactions on the pool's
// event.Feed. Feed.Send is a rendezvous implemented with reflect.Select: it
// returns only when every subscriber has taken the event. The miner's worker,
// a subscriber, handles each event by asking the pool for its pending
// transactions, which takes pool.mu; while it waits for the lock it does not
// receive, so the next add blocks in Send with pool.mu held and the worker
// and every other pool user wait for pool.mu (lock held across a
// reflect.Select-based send to a subscriber that needs the lock).
package geth_txpool_feedsend

import (
	"errors"
	"reflect"
	"sync"
)

// Transaction is a signed transaction, reduced.
type Transaction struct {
	From  string
	Nonce uint64
}

// NewTxsEvent is posted when transactions enter the pool.
type NewTxsEvent struct{ Txs []*Transaction }

// Feed delivers values to every subscribed channel (go-ethereum's event.Feed,
// reduced). Send blocks until all subscribers have received the value.
type Feed struct {
	mu   sync.Mutex
	subs []reflect.Value
}

// Subscription is a feed subscription.
type Subscription struct {
	feed *Feed
	ch   reflect.Value
}

// Subscribe adds channel ch, a chan of the sent type, to the feed.
func (f *Feed) Subscribe(ch interface{}) *Subscription {
	chv := reflect.ValueOf(ch)
	f.mu.Lock()
	f.subs = append(f.subs, chv)
	f.mu.Unlock()
	return &Subscription{feed: f, ch: chv}
}

// Unsubscribe removes the subscription.
func (s *Subscription) Unsubscribe() {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	for i, c := range s.feed.subs {
		if c == s.ch {
			s.feed.subs = append(s.feed.subs[:i], s.feed.subs[i+1:]...)
			return
		}
	}
}

// Send delivers value to all subscribers and returns how many received it.
func (f *Feed) Send(value interface{}) (nsent int) {
	rvalue := reflect.ValueOf(value)
	f.mu.Lock()
	cases := make([]reflect.SelectCase, 0, len(f.subs))
	for _, ch := range f.subs {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectSend, Chan: ch, Send: rvalue})
	}
	f.mu.Unlock()
	for len(cases) > 0 {
		chosen, _, _ := reflect.Select(cases)
		cases = append(cases[:chosen], cases[chosen+1:]...)
		nsent++
	}
	return nsent
}

var errNonceTooLow = errors.New("nonce too low")

// TxPool holds pending transactions. Buggy version.
type TxPool struct {
	mu      sync.RWMutex
	pending map[string][]*Transaction
	nonces  map[string]uint64
	txFeed  Feed
}

// NewTxPool returns an empty pool.
func NewTxPool() *TxPool {
	return &TxPool{pending: map[string][]*Transaction{}, nonces: map[string]uint64{}}
}

// SubscribeNewTxsEvent registers ch for NewTxsEvent.
func (pool *TxPool) SubscribeNewTxsEvent(ch chan<- NewTxsEvent) *Subscription {
	return pool.txFeed.Subscribe(ch)
}

// AddLocal adds a locally submitted transaction.
func (pool *TxPool) AddLocal(tx *Transaction) error {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if tx.Nonce < pool.nonces[tx.From] {
		return errNonceTooLow
	}
	pool.pending[tx.From] = append(pool.pending[tx.From], tx)
	pool.nonces[tx.From] = tx.Nonce + 1
	pool.txFeed.Send(NewTxsEvent{Txs: []*Transaction{tx}}) // BUG: rendezvous with subscribers under pool.mu
	return nil
}

// Pending returns a copy of the pending transactions.
func (pool *TxPool) Pending() map[string][]*Transaction {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	out := make(map[string][]*Transaction, len(pool.pending))
	for from, txs := range pool.pending {
		out[from] = append([]*Transaction(nil), txs...)
	}
	return out
}

// pendingSource is what the worker reads pending transactions from.
type pendingSource interface {
	Pending() map[string][]*Transaction
}

// worker is the miner's block builder.
type worker struct {
	pool   pendingSource
	txsCh  chan NewTxsEvent
	exitCh chan struct{}
	mu     sync.Mutex
	block  []*Transaction
}

func newWorker(pool pendingSource) *worker {
	return &worker{pool: pool, txsCh: make(chan NewTxsEvent), exitCh: make(chan struct{})}
}

func (w *worker) mainLoop() {
	for {
		select {
		case <-w.txsCh:
			pending := w.pool.Pending()
			w.commitTransactions(pending)
		case <-w.exitCh:
			return
		}
	}
}

func (w *worker) commitTransactions(pending map[string][]*Transaction) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.block = w.block[:0]
	for _, txs := range pending {
		w.block = append(w.block, txs...)
	}
}

// TxPoolFixed is the fixed version: events are collected under pool.mu and
// sent on the feed after the lock is released.
type TxPoolFixed struct {
	mu      sync.RWMutex
	pending map[string][]*Transaction
	nonces  map[string]uint64
	txFeed  Feed
}

// NewTxPoolFixed returns an empty pool.
func NewTxPoolFixed() *TxPoolFixed {
	return &TxPoolFixed{pending: map[string][]*Transaction{}, nonces: map[string]uint64{}}
}

// SubscribeNewTxsEvent registers ch for NewTxsEvent.
func (pool *TxPoolFixed) SubscribeNewTxsEvent(ch chan<- NewTxsEvent) *Subscription {
	return pool.txFeed.Subscribe(ch)
}

// AddLocal adds a locally submitted transaction.
func (pool *TxPoolFixed) AddLocal(tx *Transaction) error {
	pool.mu.Lock()
	if tx.Nonce < pool.nonces[tx.From] {
		pool.mu.Unlock()
		return errNonceTooLow
	}
	pool.pending[tx.From] = append(pool.pending[tx.From], tx)
	pool.nonces[tx.From] = tx.Nonce + 1
	pool.mu.Unlock()
	pool.txFeed.Send(NewTxsEvent{Txs: []*Transaction{tx}})
	return nil
}

// Pending returns a copy of the pending transactions.
func (pool *TxPoolFixed) Pending() map[string][]*Transaction {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	out := make(map[string][]*Transaction, len(pool.pending))
	for from, txs := range pool.pending {
		out[from] = append([]*Transaction(nil), txs...)
	}
	return out
}
