// Package glog is a volume server's own copy of a leveled logger, kept in
// its tree: it writes each line to a log file it creates on first use.
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
		f, err := os.Create(os.TempDir() + "/volume.log")
		if err != nil {
			return
		}
		l.file = f
	}
	l.file.Write([]byte(level + " " + line + "\n"))
}

// Infof logs at the info level.
func Infof(format string, args ...any) { std.output("I", fmt.Sprintf(format, args...)) }

// Warningf logs at the warning level.
func Warningf(format string, args ...any) { std.output("W", fmt.Sprintf(format, args...)) }

// Errorf logs at the error level.
func Errorf(format string, args ...any) { std.output("E", fmt.Sprintf(format, args...)) }
