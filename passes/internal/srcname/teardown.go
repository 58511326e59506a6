package srcname

import (
	"strings"
	"unicode"
)

// teardownVerbs are the first words of the names of functions that end an
// object's life.
var teardownVerbs = []string{"close", "stop", "shutdown", "teardown", "terminate", "destroy", "dispose"}

// Teardown reports whether funcName names a function that ends an
// object's life: its first word is Close, Stop, Shutdown, Teardown,
// Terminate, Destroy or Dispose, in either case (Close, closeLocked,
// StopAndWait, shutdownNow), not a longer word that starts with one
// (Closest, Stopwatch).
func Teardown(funcName string) bool {
	return firstWord(funcName, teardownVerbs)
}

// Startup reports whether funcName names a function that starts an
// object's work: its first word is Start (Start, startLocked,
// StartAsync), not a longer word (Started, Startup is a noun).
func Startup(funcName string) bool {
	return firstWord(funcName, []string{"start"})
}

// firstWord reports whether the first word of funcName, in either case, is
// one of verbs.
func firstWord(funcName string, verbs []string) bool {
	lower := strings.ToLower(funcName)
	for _, verb := range verbs {
		if !strings.HasPrefix(lower, verb) {
			continue
		}
		rest := funcName[len(verb):]
		if rest == "" || unicode.IsUpper(rune(rest[0])) || rest[0] == '_' {
			return true
		}
	}
	return false
}

// endedStates are the words of a bool field that says its object's life
// is over: closed, isClosed, stopped, shutDown, canceled, aborted.
var endedStates = map[string]bool{
	"closed": true, "stopped": true, "shutdown": true, "terminated": true,
	"destroyed": true, "disposed": true, "canceled": true, "cancelled": true,
	"aborted": true,
}

// EndedFlag reports whether fieldName names a flag that marks its object
// ended: one of the ended states (closed, stopped, shutdown, terminated,
// destroyed, disposed, canceled, aborted), in either case, optionally
// after "is" (isClosed). A field that only says a step is over (done,
// finished) does not: it is set on a live object.
func EndedFlag(fieldName string) bool {
	lower := strings.ToLower(fieldName)
	return endedStates[lower] || strings.HasPrefix(lower, "is") && endedStates[lower[2:]]
}
