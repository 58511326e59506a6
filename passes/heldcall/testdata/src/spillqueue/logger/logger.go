// Package logger is a leveled logger that decides at run time, from the
// level's name, whether a line ends the program: Panicf panics and Fatalf
// exits by contract, which its body only shows through a switch on the
// level.
package logger

import (
	"errors"
	"fmt"
	"os"
)

// Errorf logs at the error level and returns.
func Errorf(format string, args ...any) { logLevel("ERROR", format, args) }

// Panicf logs at the panic level and panics with the message.
func Panicf(format string, args ...any) { logLevel("PANIC", format, args) }

// Fatalf logs at the fatal level and exits.
func Fatalf(format string, args ...any) { logLevel("FATAL", format, args) }

func logLevel(level, format string, args []any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(os.Stderr, level, msg)
	switch level {
	case "PANIC":
		panic(errors.New(msg))
	case "FATAL":
		os.Exit(1)
	}
}
