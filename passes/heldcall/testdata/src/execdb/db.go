// Package execdb holds database/sql calls and child processes run while a
// lock is held, each next to its correct twin.
package execdb

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// User is a row of the users table.
type User struct {
	ID    int64
	Email string
}

// UserCache is a read-through cache over the users table.
type UserCache struct {
	mu    sync.Mutex
	db    *sql.DB
	users map[int64]User
}

// GetHeld queries the database with the cache locked: one slow query holds
// up every cache hit.
func (c *UserCache) GetHeld(ctx context.Context, id int64) (User, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u, ok := c.users[id]; ok {
		return u, nil
	}
	row := c.db.QueryRowContext(ctx, "SELECT email FROM users WHERE id = $1", id) // want `c.mu held across call of sql.\(\*DB\).QueryRowContext \(locked at db.go:28, released by defer\)`
	u := User{ID: id}
	if err := row.Scan(&u.Email); err != nil { // want `c.mu held across call of sql.\(\*Row\).Scan \(locked at db.go:28, released by defer\)`
		return User{}, err
	}
	c.users[id] = u
	return u, nil
}

// Get misses without the lock and fills the cache after.
func (c *UserCache) Get(ctx context.Context, id int64) (User, error) {
	c.mu.Lock()
	u, ok := c.users[id]
	c.mu.Unlock()
	if ok {
		return u, nil
	}
	u = User{ID: id}
	row := c.db.QueryRowContext(ctx, "SELECT email FROM users WHERE id = $1", id)
	if err := row.Scan(&u.Email); err != nil {
		return User{}, err
	}
	c.mu.Lock()
	c.users[id] = u
	c.mu.Unlock()
	return u, nil
}

// WarmHeld loads every user with the cache locked.
func (c *UserCache) WarmHeld(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	rows, err := c.db.QueryContext(ctx, "SELECT id, email FROM users") // want `c.mu held across call of sql.\(\*DB\).QueryContext \(locked at db.go:63, released by defer\)`
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() { // want `c.mu held across call of sql.\(\*Rows\).Next \(locked at db.go:63, released by defer\)`
		var u User
		if err := rows.Scan(&u.ID, &u.Email); err != nil {
			return err
		}
		c.users[u.ID] = u
	}
	return rows.Err()
}

// Warm loads into a new map and swaps it in.
func (c *UserCache) Warm(ctx context.Context) error {
	rows, err := c.db.QueryContext(ctx, "SELECT id, email FROM users")
	if err != nil {
		return err
	}
	defer rows.Close()
	users := make(map[int64]User)
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Email); err != nil {
			return err
		}
		users[u.ID] = u
	}
	if err := rows.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.users = users
	c.mu.Unlock()
	return nil
}

// Counter batches page-view increments and writes them periodically.
type Counter struct {
	mu     sync.Mutex
	db     *sql.DB
	counts map[string]int
	last   time.Time
}

func (c *Counter) FlushHeld(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	tx, err := c.db.BeginTx(ctx, nil) // want `c.mu held across call of sql.\(\*DB\).BeginTx \(locked at db.go:113, released by defer\)`
	if err != nil {
		return err
	}
	for page, n := range c.counts {
		if _, err := tx.ExecContext(ctx, "UPDATE pages SET views = views + $1 WHERE path = $2", n, page); err != nil { // want `c.mu held across call of sql.\(\*Tx\).ExecContext \(locked at db.go:113, released by defer\)`
			tx.Rollback() // want `c.mu held across call of sql.\(\*Tx\).Rollback \(locked at db.go:113, released by defer\)`
			return err
		}
	}
	c.counts = make(map[string]int)
	c.last = time.Now()
	return tx.Commit() // want `c.mu held across call of sql.\(\*Tx\).Commit \(locked at db.go:113, released by defer\)`
}

// Flush swaps the batch out under the lock and writes it without; a failed
// batch is merged back.
func (c *Counter) Flush(ctx context.Context) error {
	c.mu.Lock()
	batch := c.counts
	c.counts = make(map[string]int)
	c.mu.Unlock()
	err := c.write(ctx, batch)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		for page, n := range batch {
			c.counts[page] += n
		}
		return err
	}
	c.last = time.Now()
	return nil
}

func (c *Counter) write(ctx context.Context, batch map[string]int) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for page, n := range batch {
		if _, err := tx.ExecContext(ctx, "UPDATE pages SET views = views + $1 WHERE path = $2", n, page); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// Migrator applies schema migrations once.
type Migrator struct {
	mu      sync.Mutex
	db      *sql.DB
	applied bool
}

func (m *Migrator) PingHeld(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.db.PingContext(ctx) // want `m.mu held across call of sql.\(\*DB\).PingContext \(locked at db.go:172, released by defer\)`
}

func (m *Migrator) Ping(ctx context.Context) error {
	m.mu.Lock()
	db := m.db
	m.mu.Unlock()
	return db.PingContext(ctx)
}

// MarkApplied records that the migrations ran: m.mu guards applied.
func (m *Migrator) MarkApplied() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	was := m.applied
	m.applied = true
	return was
}
