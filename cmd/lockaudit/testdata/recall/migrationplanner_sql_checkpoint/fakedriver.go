package migrationplanner_sql_checkpoint

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
)

// memDriver is an in-memory stand-in for the embedded database driver: it
// accepts any statement.
type memDriver struct{}

func (memDriver) Open(name string) (driver.Conn, error) { return &memConn{}, nil }

type memConn struct{}

func (c *memConn) Prepare(query string) (driver.Stmt, error) {
	return nil, errors.New("memdb: prepared statements are not supported")
}
func (c *memConn) Close() error              { return nil }
func (c *memConn) Begin() (driver.Tx, error) { return memTx{}, nil }
func (c *memConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return memTx{}, nil
}
func (c *memConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return driver.RowsAffected(1), nil
}

type memTx struct{}

func (memTx) Commit() error   { return nil }
func (memTx) Rollback() error { return nil }

func init() { sql.Register("memdb", memDriver{}) }
