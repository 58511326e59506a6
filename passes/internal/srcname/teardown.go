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
