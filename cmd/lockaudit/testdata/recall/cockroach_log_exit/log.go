// Models cockroach#9935 (GoKer cockroach_9935): outputLogEntry holds l.mu and, when the log file cannot be created, calls l.exit, which locks l.mu again (double lock on an error path through a helper).
package cockroach_log_exit

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Severity is a log level.
type Severity int

type logFile struct {
	name string
	buf  []byte
}

func (f *logFile) write(p []byte) { f.buf = append(f.buf, p...) }

// loggingT is the process logger. Buggy version.
type loggingT struct {
	mu       sync.Mutex
	dir      string
	file     *logFile
	maxBytes int
	exitCode int
}

func (l *loggingT) createFile(now time.Time) error {
	if l.dir == "" {
		return errors.New("log: no log directory")
	}
	l.file = &logFile{name: fmt.Sprintf("%s/cockroach.%d.log", l.dir, now.Unix())}
	return nil
}

// outputLogEntry formats and writes one entry.
func (l *loggingT) outputLogEntry(s Severity, file string, line int, msg string) {
	l.mu.Lock()
	if l.file == nil {
		if err := l.createFile(time.Now()); err != nil {
			l.exit(err) // BUG: exit locks l.mu, which is held here
		}
	}
	l.file.write([]byte(fmt.Sprintf("%d %s:%d %s\n", s, file, line, msg)))
	l.mu.Unlock()
}

// exit is called when the log cannot be written; it flushes and exits.
func (l *loggingT) exit(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		l.file.write([]byte("log: exiting because of error: " + err.Error() + "\n"))
	}
	l.exitCode = 2
	os.Exit(l.exitCode)
}

// loggingTFixed is the fixed version: the error path calls exitLocked,
// which requires l.mu to be held (as cockroach did).
type loggingTFixed struct {
	mu       sync.Mutex
	dir      string
	file     *logFile
	maxBytes int
	exitCode int
}

func (l *loggingTFixed) createFile(now time.Time) error {
	if l.dir == "" {
		return errors.New("log: no log directory")
	}
	l.file = &logFile{name: fmt.Sprintf("%s/cockroach.%d.log", l.dir, now.Unix())}
	return nil
}

// outputLogEntry formats and writes one entry.
func (l *loggingTFixed) outputLogEntry(s Severity, file string, line int, msg string) {
	l.mu.Lock()
	if l.file == nil {
		if err := l.createFile(time.Now()); err != nil {
			l.exitLocked(err)
		}
	}
	l.file.write([]byte(fmt.Sprintf("%d %s:%d %s\n", s, file, line, msg)))
	l.mu.Unlock()
}

// exitLocked is exit for callers that hold l.mu.
func (l *loggingTFixed) exitLocked(err error) {
	if l.file != nil {
		l.file.write([]byte("log: exiting because of error: " + err.Error() + "\n"))
	}
	l.exitCode = 2
	os.Exit(l.exitCode)
}
