// Package stackerr is an error library whose errors carry a stack trace,
// printed with the source line of each frame.
package stackerr

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// A StackFrame is one frame of an error's stack.
type StackFrame struct {
	File       string
	LineNumber int
	Name       string
}

func newStackFrame(pc uintptr) (frame StackFrame) {
	fn := runtime.FuncForPC(pc)
	if fn == nil {
		return frame
	}
	frame.Name = fn.Name()
	frame.File, frame.LineNumber = fn.FileLine(pc - 1)
	return frame
}

// parseFrame reads a frame of a panic's trace ("\t/src/feed.go:42 +0x1d").
func parseFrame(name, line string) (StackFrame, bool) {
	i := strings.LastIndex(line, ":")
	if !strings.HasPrefix(line, "\t") || i < 0 {
		return StackFrame{}, false
	}
	var n int
	fmt.Sscanf(line[i+1:], "%d", &n)
	return StackFrame{File: line[1:i], LineNumber: n, Name: name}, true
}

// ParsePanic reads the frames of a panic's trace.
func ParsePanic(trace string) []StackFrame {
	lines := strings.Split(trace, "\n")
	var frames []StackFrame
	for i := 0; i+1 < len(lines); i += 2 {
		if f, ok := parseFrame(lines[i], lines[i+1]); ok {
			frames = append(frames, f)
		}
	}
	return frames
}

// sourceLine reads the frame's line from its source file.
func (f *StackFrame) sourceLine() string {
	file, err := os.Open(f.File)
	if err != nil {
		return "???"
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for n := 1; sc.Scan(); n++ {
		if n == f.LineNumber {
			return strings.TrimSpace(sc.Text())
		}
	}
	return "???"
}

// An Error is an error with the stack it was made at.
type Error struct {
	msg    string
	frames []StackFrame
}

// Errorf makes an Error.
func Errorf(format string, args ...any) *Error {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	e := &Error{msg: fmt.Sprintf(format, args...)}
	for _, pc := range pcs[:n] {
		e.frames = append(e.frames, newStackFrame(pc))
	}
	return e
}

func (e *Error) Error() string { return e.msg }

// ErrorStack is the message and the stack, with each frame's source line.
func (e *Error) ErrorStack() string {
	var b strings.Builder
	b.WriteString(e.msg + "\n")
	for i := range e.frames {
		f := &e.frames[i]
		fmt.Fprintf(&b, "%s:%d\n\t%s\n", f.File, f.LineNumber, f.sourceLine())
	}
	return b.String()
}

// CrashLog is where BugToFile records bugs.
var CrashLog = "/var/lib/changefeed/bugs.log"

// BugToFile records a bug in the crash log: a file append.
func BugToFile(format string, args ...any) error {
	e := Errorf(format, args...)
	f, err := os.OpenFile(CrashLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		f.WriteString(e.ErrorStack())
		f.Close()
	}
	return e
}
