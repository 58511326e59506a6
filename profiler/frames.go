package profiler

import (
	"regexp"
	"strings"

	"github.com/google/pprof/profile"
)

// A frame is one function in a sample's stack, inlined calls included.
type frame struct {
	fn   string // full pprof name, e.g. example.com/p.(*T).m.func1
	file string // as recorded: absolute for a build without -trimpath
	line int
}

// stack returns the frames of s from the leaf up. In a pprof Location, the
// last Line is the caller into which the ones before it were inlined.
func stack(s *profile.Sample) []frame {
	var frames []frame
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			f := frame{line: int(ln.Line)}
			if ln.Function != nil {
				f.fn, f.file = ln.Function.Name, ln.Function.Filename
			}
			if f.fn == "" {
				f.fn = "?"
			}
			f.fn = stripTypeArgs(f.fn)
			frames = append(frames, f)
		}
	}
	return frames
}

// packageOf returns the package path of a pprof function name: everything
// up to the first dot after the last slash ("sync" for
// "sync.(*Mutex).Unlock", "example.com/p" for "example.com/p.F.func1").
// A last path element with a dot of its own (gopkg.in/yaml.v3) comes out
// short, which is harmless for the prefixes matched here.
func packageOf(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

// A frameClass says what a frame is to the ranking.
type frameClass int

const (
	userFrame    frameClass = iota // may be a hotspot
	libraryFrame                   // sync, runtime, internal/...: look further up
	harnessFrame                   // testing and the generated test main
)

// classifyFrame classifies one frame.
func classifyFrame(f frame) frameClass {
	pkg := packageOf(f.fn)
	switch {
	case pkg == "sync" || strings.HasPrefix(pkg, "sync/"),
		pkg == "runtime" || strings.HasPrefix(pkg, "runtime/"),
		pkg == "internal" || strings.HasPrefix(pkg, "internal/"),
		strings.HasPrefix(pkg, "vendor/"):
		return libraryFrame
	case pkg == "testing" || strings.HasPrefix(pkg, "testing/"):
		return harnessFrame
	case pkg == "main" && strings.HasSuffix(f.file, "_testmain.go"):
		return harnessFrame
	}
	return userFrame
}

// hotspotFrame returns the index in frames of the sample's hotspot: the
// first user frame from the leaf. ok is false for a harness wait (the
// first non-library frame belongs to the test harness). A stack of library
// frames only (such as runtime._LostContendedRuntimeLock) is charged to
// its outermost frame, unless that is the tracer's or the profiler's.
func hotspotFrame(frames []frame) (i int, ok bool) {
	for i, f := range frames {
		switch classifyFrame(f) {
		case userFrame:
			return i, true
		case harnessFrame:
			return i, false
		}
	}
	if len(frames) == 0 || instrumentFrame(frames[len(frames)-1]) {
		return 0, false
	}
	return len(frames) - 1, true
}

// instrumentFrame reports whether f is the root of a goroutine of the
// execution tracer or the CPU profiler, which lockaudit profile itself
// turns on: their waits are part of the measurement, like the test
// harness's.
func instrumentFrame(f frame) bool {
	return strings.HasPrefix(f.fn, "runtime.trace") || strings.HasPrefix(f.fn, "runtime.(*trace") ||
		strings.HasPrefix(f.fn, "runtime/trace.") || strings.HasPrefix(f.fn, "runtime/pprof.")
}

// closureSuffixRE matches the suffixes the compiler gives to function
// literals and wrappers inside a function: .func1, .func1.2, .gowrap1,
// .deferwrap1.
var closureSuffixRE = regexp.MustCompile(`(\.(func|gowrap|deferwrap)\d+(\.\d+)*)+$`)

// typeArgsRE matches the type arguments of a generic function's name.
var typeArgsRE = regexp.MustCompile(`\[[^\[\]]*\]`)

// declName returns the declared function a pprof name belongs to, closures
// and type arguments removed: "example.com/p.(*T).m" for
// "example.com/p.(*T[...]).m.func1".
func declName(fn string) string {
	return closureSuffixRE.ReplaceAllString(stripTypeArgs(fn), "")
}

// stripTypeArgs removes a generic function's type arguments, so that its
// instantiations ((*lockedMap[go.shape.int]).Set and
// (*lockedMap[go.shape.string]).Set) are one function, as in the source.
func stripTypeArgs(fn string) string {
	for {
		s := typeArgsRE.ReplaceAllString(fn, "")
		if s == fn {
			return fn
		}
		fn = s
	}
}

// runtimeInternal reports whether a mutex-profile stack is contention on
// one of the runtime's own locks (the scheduler's, the heap's, a
// channel's), which Go reports in the mutex profile since 1.22: no sync
// frame is on it. User code cannot act on those.
func runtimeInternal(frames []frame) bool {
	for _, f := range frames {
		if pkg := packageOf(f.fn); pkg == "sync" || pkg == "internal/sync" {
			return false
		}
	}
	return true
}

// shortName drops the package path but its last element:
// "workerpool.(*queue).workerHeldNamedGuard".
func shortName(fn string) string {
	slash := strings.LastIndexByte(packageOf(fn), '/')
	return fn[slash+1:]
}
