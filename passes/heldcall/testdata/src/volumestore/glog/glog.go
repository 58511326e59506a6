// Package glog is a volume server's own copy of a leveled logger, kept in
// its tree: it writes each line to a log file it creates on first use. Its
// own findings stay: every logging goroutine waits behind the write.
package glog

import (
	"fmt"
	"os"
	"sync"
)

type logger struct {
	mu   sync.Mutex
	file *os.File
}

var std logger

func (l *logger) output(level, line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		f, err := os.Create(os.TempDir() + "/volume.log") // want `l.mu held across call of os.Create \(locked at glog.go:20, released by defer\)`
		if err != nil {
			return
		}
		l.file = f
	}
	l.file.Write([]byte(level + " " + line + "\n")) // want `l.mu held across call of os.\(\*File\).Write \(locked at glog.go:20, released by defer\)`
}

// Infof logs at the info level.
func Infof(format string, args ...any) { std.output("I", fmt.Sprintf(format, args...)) }

// Warningf logs at the warning level.
func Warningf(format string, args ...any) { std.output("W", fmt.Sprintf(format, args...)) }

// Errorf logs at the error level.
func Errorf(format string, args ...any) { std.output("E", fmt.Sprintf(format, args...)) }
