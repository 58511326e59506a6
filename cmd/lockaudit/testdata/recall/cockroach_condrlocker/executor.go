// Models cockroach#16167 (GoKer cockroach_16167): execParsed read-locks systemConfigMu through systemConfigCond.L (a RLocker), and five calls down Session.resetForBatch -> getDatabaseCache read-locks systemConfigMu again; a pending updateSystemConfig writer deadlocks them (recursive RLock, first lock through sync.Cond.L).
package cockroach_condrlocker

import "sync"

// DatabaseCache maps database names to IDs.
type DatabaseCache struct{ ids map[string]int }

// PreparedStatements belongs to a session.
type PreparedStatements struct {
	session *Session
	stmts   map[string]string
}

// New prepares stmt for the session.
func (ps PreparedStatements) New(e *Executor, name, stmt string) {
	e.Prepare(ps.session, stmt)
	ps.stmts[name] = stmt
}

// Session is a SQL session.
type Session struct {
	PreparedStatements PreparedStatements
	dbCache            *DatabaseCache
}

func (s *Session) resetForBatch(e *Executor) { s.dbCache = e.getDatabaseCache() }

// Executor runs SQL statements. Buggy version.
type Executor struct {
	systemConfigMu    sync.RWMutex
	systemConfigCond  *sync.Cond
	systemConfigReady bool
	databaseCache     *DatabaseCache
}

// NewExecutor makes the cond a reader of systemConfigMu.
func NewExecutor() *Executor {
	e := &Executor{databaseCache: &DatabaseCache{ids: map[string]int{}}}
	e.systemConfigCond = sync.NewCond(e.systemConfigMu.RLocker())
	return e
}

func (e *Executor) getDatabaseCache() *DatabaseCache {
	e.systemConfigMu.RLock() // BUG: already read-locked through systemConfigCond.L
	defer e.systemConfigMu.RUnlock()
	return e.databaseCache
}

func (e *Executor) updateSystemConfig(ids map[string]int) {
	e.systemConfigMu.Lock()
	defer e.systemConfigMu.Unlock()
	e.databaseCache = &DatabaseCache{ids: ids}
	e.systemConfigReady = true
	e.systemConfigCond.Broadcast()
}

// Prepare prepares stmt in session.
func (e *Executor) Prepare(session *Session, stmt string) { session.resetForBatch(e) }

func (e *Executor) execStmtInOpenTxn(session *Session, stmt string) {
	session.PreparedStatements.New(e, "anon", stmt)
}

func (e *Executor) execStmtsInCurrentTxn(session *Session, stmts []string) {
	for _, stmt := range stmts {
		e.execStmtInOpenTxn(session, stmt)
	}
}

func runTxnAttempt(e *Executor, session *Session, stmts []string) {
	e.execStmtsInCurrentTxn(session, stmts)
}

func (e *Executor) execParsed(session *Session, stmts []string) {
	e.systemConfigCond.L.Lock()
	for !e.systemConfigReady {
		e.systemConfigCond.Wait()
	}
	defer e.systemConfigCond.L.Unlock()
	runTxnAttempt(e, session, stmts)
}

// ExecutorFixed is the fixed version: the statement path reads the cache
// with getDatabaseCacheLocked, since execParsed already holds the read lock.
type ExecutorFixed struct {
	systemConfigMu    sync.RWMutex
	systemConfigCond  *sync.Cond
	systemConfigReady bool
	databaseCache     *DatabaseCache
}

// PreparedStatementsFixed belongs to a session.
type PreparedStatementsFixed struct {
	session *SessionFixed
	stmts   map[string]string
}

// New prepares stmt for the session.
func (ps PreparedStatementsFixed) New(e *ExecutorFixed, name, stmt string) {
	e.Prepare(ps.session, stmt)
	ps.stmts[name] = stmt
}

// SessionFixed is a SQL session.
type SessionFixed struct {
	PreparedStatements PreparedStatementsFixed
	dbCache            *DatabaseCache
}

func (s *SessionFixed) resetForBatch(e *ExecutorFixed) { s.dbCache = e.getDatabaseCacheLocked() }

// NewExecutorFixed makes the cond a reader of systemConfigMu.
func NewExecutorFixed() *ExecutorFixed {
	e := &ExecutorFixed{databaseCache: &DatabaseCache{ids: map[string]int{}}}
	e.systemConfigCond = sync.NewCond(e.systemConfigMu.RLocker())
	return e
}

// getDatabaseCacheLocked requires systemConfigMu to be read-locked.
func (e *ExecutorFixed) getDatabaseCacheLocked() *DatabaseCache { return e.databaseCache }

func (e *ExecutorFixed) updateSystemConfig(ids map[string]int) {
	e.systemConfigMu.Lock()
	defer e.systemConfigMu.Unlock()
	e.databaseCache = &DatabaseCache{ids: ids}
	e.systemConfigReady = true
	e.systemConfigCond.Broadcast()
}

// Prepare prepares stmt in session.
func (e *ExecutorFixed) Prepare(session *SessionFixed, stmt string) { session.resetForBatch(e) }

func (e *ExecutorFixed) execStmtInOpenTxn(session *SessionFixed, stmt string) {
	session.PreparedStatements.New(e, "anon", stmt)
}

func (e *ExecutorFixed) execStmtsInCurrentTxn(session *SessionFixed, stmts []string) {
	for _, stmt := range stmts {
		e.execStmtInOpenTxn(session, stmt)
	}
}

func runTxnAttemptFixed(e *ExecutorFixed, session *SessionFixed, stmts []string) {
	e.execStmtsInCurrentTxn(session, stmts)
}

func (e *ExecutorFixed) execParsed(session *SessionFixed, stmts []string) {
	e.systemConfigCond.L.Lock()
	for !e.systemConfigReady {
		e.systemConfigCond.Wait()
	}
	defer e.systemConfigCond.L.Unlock()
	runTxnAttemptFixed(e, session, stmts)
}
