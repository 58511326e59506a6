// Command lockaudit finds lock-contention bugs in Go code: locks held across
// calls that block or run foreign code, and global locks that serialise work
// meant to be independent.
//
// Usage:
//
//	lockaudit [check] [flags] [packages]   # default: check ./...
//	lockaudit profile [flags] [packages]   # run-time contention, joined with check
//	lockaudit version
//
// Run "lockaudit help" or "lockaudit check -h" for the flags.
//
// The binary also speaks the go command's vet-tool protocol, so
//
//	go vet -vettool=$(command -v lockaudit) ./...
//
// runs the same analyzers through go vet. "lockaudit check" itself is built on
// that protocol: it runs go vet with this binary as the vet tool (one process
// per package, results cached by the go command) and post-processes its JSON.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockaudit/lockaudit"
	"github.com/lockaudit/lockaudit/internal/driver"
	"github.com/lockaudit/lockaudit/internal/memfloor/peakprof"
	"github.com/lockaudit/lockaudit/internal/memlimit"
)

// Exit codes of the command (DESIGN §4).
const (
	exitClean    = 0 // nothing found
	exitFindings = 1 // findings reported
	exitError    = 2 // something could not be analysed, or bad usage
)

// analyzers returns the analyzers the command runs. It is the only place that
// names the root package's list, so the vet-tool side and the check side
// always agree.
func analyzers() []*analysis.Analyzer { return lockaudit.Analyzers() }

func main() {
	if driver.IsVetToolInvocation(os.Args[1:]) {
		peakprof.Start()
		// One package per process: once its SSA is built, keep the
		// analysis's short-lived garbage from doubling the heap.
		memlimit.Enable()
		unitchecker.Main(analyzers()...) // never returns
	}
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the subcommand named by args[0] (check by default) and
// returns the process exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runCheck(args, stdout, stderr)
	}
	switch cmd := args[0]; {
	case cmd == "check":
		return runCheck(args[1:], stdout, stderr)
	case cmd == "profile":
		return runProfile(args[1:], stdout, stderr)
	case cmd == "version":
		if len(args) > 1 {
			fmt.Fprintln(stderr, "lockaudit: version takes no arguments")
			return exitError
		}
		fmt.Fprintln(stdout, versionString())
		return exitClean
	case cmd == "help" || cmd == "-h" || cmd == "-help" || cmd == "--help":
		// check is the default command: show its flags too.
		fmt.Fprint(stdout, mainUsage+"\n")
		var opts checkOptions
		printCheckUsage(stdout, newCheckFlags(&opts))
		return exitClean
	case strings.HasPrefix(cmd, "-") || looksLikePattern(cmd):
		return runCheck(args, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "lockaudit: unknown command %q (run 'lockaudit help'; to check a package named like a command, use 'lockaudit check %s')\n", cmd, cmd)
		return exitError
	}
}

const mainUsage = `lockaudit finds lock-contention bugs in Go code.

Usage:

	lockaudit [check] [flags] [packages]   check packages (default ./...)
	lockaudit profile [flags] [packages]   rank run-time lock contention, joined with check's findings
	lockaudit version                      print the version

lockaudit also works as a vet tool: go vet -vettool=$(command -v lockaudit) ./...
`

// looksLikePattern reports whether a first argument that is not a known
// subcommand should be taken as a package pattern for check: it must look
// like a path ("./x", "example.com/x", "x/...", a .go file) or be one of the go
// command's meta-patterns. Single words are refused so that a mistyped
// subcommand is an error instead of a package lookup.
func looksLikePattern(arg string) bool {
	switch arg {
	case "std", "cmd", "all":
		return true
	}
	return strings.ContainsAny(arg, "./")
}

// versionString describes this build: module version and Go version, plus the
// VCS revision when the binary was built from a checkout.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "lockaudit (unknown version)"
	}
	s := "lockaudit " + moduleVersion() + " " + info.GoVersion
	var rev, modified string
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (" + rev + modified + ")"
	}
	return s
}

// moduleVersion returns the main module's version, "(devel)" for a build
// from a checkout.
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
