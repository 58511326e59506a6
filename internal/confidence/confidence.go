// Package confidence holds the two confidence levels of lockaudit's findings
// and the process-wide threshold below which the analyzers stay silent.
//
//   - Warning (proven): the operation blocks, directly or through a chain
//     whose every step is resolved; a func value comes from data the
//     package's callers supply (a queued job, a registered callback); a
//     lock cycle joins related instances.
//   - Note (plausible): unknown code of open origin (an interface that
//     users implement), a cycle proven only between lock classes, a lock
//     that guards nothing but the operation it is held across.
//
// The analysis API has no severity, and go vet's JSON carries only a
// diagnostic's category, position and message, so a note says so in its
// message: it ends with " (plausible: <why>)". Of reads the level back, for
// the command's JSON severity and SARIF level.
package confidence

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// A Level is a finding's confidence.
type Level int32

const (
	// Warning is a proven finding.
	Warning Level = iota
	// Note is a plausible finding.
	Note
)

// Levels lists the level names, most confident first.
var Levels = []string{"warning", "note"}

func (l Level) String() string {
	if l == Note {
		return "note"
	}
	return "warning"
}

// Parse parses a level name.
func Parse(s string) (Level, error) {
	switch s {
	case "warning":
		return Warning, nil
	case "note":
		return Note, nil
	}
	return Warning, fmt.Errorf("unknown severity %q (want warning or note)", s)
}

// marker opens the suffix that marks a note's message.
const marker = " (plausible: "

// Tag marks msg as a note, giving why it is only plausible.
func Tag(msg, why string) string { return msg + marker + why + ")" }

// Of returns the level of a finding from its message.
func Of(msg string) Level {
	if i := strings.LastIndex(msg, marker); i >= 0 && strings.HasSuffix(msg, ")") {
		return Note
	}
	return Warning
}

// threshold is the lowest level reported. Analyzer flags are process-wide in
// every analysis driver, so one value serves all analyzers.
var threshold atomic.Int32

// Reported reports whether findings of level l are reported.
func Reported(l Level) bool { return l <= Level(threshold.Load()) }

// Threshold returns the lowest level reported.
func Threshold() Level { return Level(threshold.Load()) }

// SetThreshold sets the lowest level reported.
func SetThreshold(l Level) { threshold.Store(int32(l)) }

// Flag is the flag.Value of each analyzer's -severity flag: the lowest level
// reported, warning (the default) or note.
var Flag flagValue

type flagValue struct{}

func (flagValue) String() string { return Threshold().String() }

func (flagValue) Set(s string) error {
	l, err := Parse(s)
	if err != nil {
		return err
	}
	SetThreshold(l)
	return nil
}

// FlagUsage is the usage text of the -severity flag.
const FlagUsage = "lowest confidence reported: warning (proven findings) or note (plausible ones too)"
