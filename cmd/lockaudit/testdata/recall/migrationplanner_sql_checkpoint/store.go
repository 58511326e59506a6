// Models kubev2v/migration-planner#1405 ("Deadlock between collector mutex
// and tx"): the store's queryInterceptor serialises statements with its own
// mutex and holds it across database/sql calls on a pool limited to one
// connection (SetMaxOpenConns(1), DuckDB); after every write it also runs
// FORCE CHECKPOINT, which needs a pool connection. A concurrent transaction
// holds the only connection and sends its own statements through the same
// interceptor, which needs the mutex: the interceptor holds the mutex waiting
// for a connection, the transaction holds the connection waiting for the
// mutex. (In the report the wait was in FORCE CHECKPOINT; here the
// transaction is already open when the update arrives, so the interceptor
// waits in the statement itself.) Mutex held across (*sql.DB).ExecContext,
// which blocks for a pool connection owned by a goroutine that needs the
// mutex.
package migrationplanner_sql_checkpoint

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// execer is what the interceptor runs statements on: the *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// queryInterceptor serialises access to the embedded database. Buggy version.
type queryInterceptor struct {
	mu *sync.Mutex
	db *sql.DB
	ex execer
}

func newQueryInterceptor(db *sql.DB) *queryInterceptor {
	return &queryInterceptor{mu: &sync.Mutex{}, db: db, ex: db}
}

// withTx returns an interceptor for tx that shares q's mutex.
func (q *queryInterceptor) withTx(tx *sql.Tx) *queryInterceptor {
	return &queryInterceptor{mu: q.mu, db: q.db, ex: tx}
}

func isWrite(query string) bool {
	q := strings.ToUpper(strings.TrimSpace(query))
	return strings.HasPrefix(q, "INSERT") || strings.HasPrefix(q, "UPDATE") || strings.HasPrefix(q, "DELETE")
}

// ExecContext runs query and checkpoints after writes outside transactions.
func (q *queryInterceptor) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	res, err := q.ex.ExecContext(ctx, query, args...) // BUG: may wait for the pool's only connection
	if err != nil {
		return nil, err
	}
	if q.ex == q.db && isWrite(query) {
		if _, err := q.db.ExecContext(ctx, "FORCE CHECKPOINT"); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Store is the planner's inventory store.
type Store struct {
	db *sql.DB
	q  *queryInterceptor
}

// NewStore opens a store on db (one connection).
func NewStore(db *sql.DB) *Store {
	db.SetMaxOpenConns(1)
	return &Store{db: db, q: newQueryInterceptor(db)}
}

// UpdateSource records an agent's status (API path).
func (s *Store) UpdateSource(ctx context.Context, id, status string) error {
	_, err := s.q.ExecContext(ctx, "UPDATE sources SET status = ? WHERE id = ?", status, id)
	return err
}

// ReplaceInventory rewrites a source's inventory in one transaction (collector path).
func (s *Store) ReplaceInventory(ctx context.Context, id string, vms []string, prepare func()) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if prepare != nil {
		prepare() // the collector parses the inventory with the transaction open
	}
	txq := s.q.withTx(tx)
	if _, err := txq.ExecContext(ctx, "DELETE FROM vms WHERE source = ?", id); err != nil {
		return err
	}
	for _, vm := range vms {
		if _, err := txq.ExecContext(ctx, "INSERT INTO vms (source, name) VALUES (?, ?)", id, vm); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// queryInterceptorFixed is the fixed version: no mutex; MaxOpenConns(1)
// already serialises statements at the pool.
type queryInterceptorFixed struct {
	db *sql.DB
	ex execer
}

func (q *queryInterceptorFixed) withTxFixed(tx *sql.Tx) *queryInterceptorFixed {
	return &queryInterceptorFixed{db: q.db, ex: tx}
}

// ExecContext runs query and checkpoints after writes outside transactions.
func (q *queryInterceptorFixed) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := q.ex.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	if q.ex == q.db && isWrite(query) {
		if _, err := q.db.ExecContext(ctx, "FORCE CHECKPOINT"); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// StoreFixed is the planner's inventory store, fixed.
type StoreFixed struct {
	db *sql.DB
	q  *queryInterceptorFixed
}

// NewStoreFixed opens a store on db (one connection).
func NewStoreFixed(db *sql.DB) *StoreFixed {
	db.SetMaxOpenConns(1)
	return &StoreFixed{db: db, q: &queryInterceptorFixed{db: db, ex: db}}
}

// UpdateSource records an agent's status (API path).
func (s *StoreFixed) UpdateSource(ctx context.Context, id, status string) error {
	_, err := s.q.ExecContext(ctx, "UPDATE sources SET status = ? WHERE id = ?", status, id)
	return err
}

// ReplaceInventory rewrites a source's inventory in one transaction.
func (s *StoreFixed) ReplaceInventory(ctx context.Context, id string, vms []string, prepare func()) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if prepare != nil {
		prepare()
	}
	txq := s.q.withTxFixed(tx)
	if _, err := txq.ExecContext(ctx, "DELETE FROM vms WHERE source = ?", id); err != nil {
		return err
	}
	for _, vm := range vms {
		if _, err := txq.ExecContext(ctx, "INSERT INTO vms (source, name) VALUES (?, ?)", id, vm); err != nil {
			return err
		}
	}
	return tx.Commit()
}
