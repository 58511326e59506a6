package profiler

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
)

// A Kind is what a profile measures.
type Kind string

// The kinds of profile lockaudit collects. Mutex and block are ranked;
// fgprof (wall clock, on and off CPU) is merged and written out for
// go tool pprof; cpu explains what lock holders do while they hold
// (holding.go) and is written out too.
const (
	Mutex  Kind = "mutex"
	Block  Kind = "block"
	Fgprof Kind = "fgprof"
	CPU    Kind = "cpu"
)

// kinds lists every kind in report order.
var kinds = []Kind{Mutex, Block, Fgprof, CPU}

// isCPU reports whether p is a CPU profile (samples/count and
// cpu/nanoseconds).
func isCPU(p *profile.Profile) bool {
	return len(p.SampleType) == 2 && p.SampleType[1].Type == "cpu" && p.SampleType[1].Unit == "nanoseconds"
}

// isContention reports whether p has the sample types of a mutex or block
// profile.
func isContention(p *profile.Profile) bool {
	return len(p.SampleType) == 2 &&
		p.SampleType[0].Type == "contentions" && p.SampleType[0].Unit == "count" &&
		p.SampleType[1].Type == "delay" && p.SampleType[1].Unit == "nanoseconds"
}

// isFgprof reports whether p is an fgprof wall-clock profile.
func isFgprof(p *profile.Profile) bool {
	if p.PeriodType != nil && p.PeriodType.Type == "wallclock" && p.PeriodType.Unit == "nanoseconds" {
		return true
	}
	return len(p.SampleType) == 2 &&
		p.SampleType[0].Type == "samples" && p.SampleType[0].Unit == "count" &&
		p.SampleType[1].Type == "time" && p.SampleType[1].Unit == "nanoseconds"
}

// checkKind returns an error unless p has the sample types of kind.
func checkKind(p *profile.Profile, kind Kind) error {
	switch {
	case kind == Fgprof && isFgprof(p):
		return nil
	case kind == CPU && isCPU(p):
		return nil
	case kind != Fgprof && kind != CPU && isContention(p):
		return nil
	}
	return fmt.Errorf("not a %s profile (sample types %s)", kind, sampleTypes(p))
}

// sampleTypes describes p's sample types, e.g. "samples/count, cpu/nanoseconds".
func sampleTypes(p *profile.Profile) string {
	var s []string
	for _, st := range p.SampleType {
		s = append(s, st.Type+"/"+st.Unit)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// releaseFrames are the functions at the leaf of mutex-profile stacks: the
// profile is recorded when a contended lock is released.
var releaseFrames = map[string]bool{
	"sync.(*Mutex).Unlock":              true,
	"sync.(*RWMutex).Unlock":            true,
	"sync.(*RWMutex).RUnlock":           true,
	"sync.(*RWMutex).rUnlockSlow":       true,
	"internal/sync.(*Mutex).Unlock":     true,
	"internal/sync.(*Mutex).unlockSlow": true,
	"sync.runtime_Semrelease":           true,
	"runtime.semrelease1":               true,
	"runtime.unlock":                    true,
	"runtime.unlock2":                   true,
	"runtime.unlockWithRank":            true,
	"runtime._LostContendedRuntimeLock": true,
}

// waitFrames are the functions at the leaf of block-profile stacks: the
// profile is recorded when a goroutine stops waiting.
var waitFrames = map[string]bool{
	"sync.(*Mutex).Lock":                    true,
	"sync.(*RWMutex).Lock":                  true,
	"sync.(*RWMutex).RLock":                 true,
	"internal/sync.(*Mutex).Lock":           true,
	"internal/sync.(*Mutex).lockSlow":       true,
	"sync.(*WaitGroup).Wait":                true,
	"sync.(*Cond).Wait":                     true,
	"sync.runtime_Semacquire":               true,
	"sync.runtime_SemacquireMutex":          true,
	"sync.runtime_SemacquireRWMutex":        true,
	"sync.runtime_SemacquireRWMutexR":       true,
	"sync.runtime_SemacquireWaitGroup":      true,
	"sync.runtime_notifyListWait":           true,
	"internal/sync.runtime_SemacquireMutex": true,
	"runtime.semacquire1":                   true,
	"runtime.chanrecv":                      true,
	"runtime.chanrecv1":                     true,
	"runtime.chanrecv2":                     true,
	"runtime.chansend":                      true,
	"runtime.chansend1":                     true,
	"runtime.selectgo":                      true,
	"runtime.block":                         true,
}

// Classify tells what kind of profile p is (see the package documentation
// for the rule). name is the file or URL it came from; only its base name
// is used, as a hint when the stacks cannot tell a mutex profile from a
// block profile.
func Classify(p *profile.Profile, name string) (Kind, error) {
	switch {
	case isFgprof(p):
		return Fgprof, nil
	case isCPU(p):
		return CPU, nil
	case !isContention(p):
		return "", fmt.Errorf("not a mutex, block, fgprof or CPU profile (sample types %s)", sampleTypes(p))
	}
	var mutexVotes, blockVotes int
	for _, s := range p.Sample {
		switch stackVote(s) {
		case Mutex:
			mutexVotes++
		case Block:
			blockVotes++
		}
	}
	switch {
	case mutexVotes > blockVotes:
		return Mutex, nil
	case blockVotes > mutexVotes:
		return Block, nil
	}
	base := strings.ToLower(filepath.Base(name))
	hasMutex, hasBlock := strings.Contains(base, "mutex"), strings.Contains(base, "block")
	switch {
	case hasMutex && !hasBlock:
		return Mutex, nil
	case hasBlock && !hasMutex:
		return Block, nil
	}
	why := "its stacks show neither a lock release nor a wait"
	if len(p.Sample) == 0 {
		why = "it has no samples"
	} else if mutexVotes > 0 {
		why = "its stacks show as many lock releases as waits"
	}
	return "", fmt.Errorf("cannot tell a mutex profile from a block profile: %s (name the file *mutex* or *block*)", why)
}

// stackVote returns the kind the frame nearest the leaf of s stands for, or
// "" if no frame does.
func stackVote(s *profile.Sample) Kind {
	for _, loc := range s.Location {
		for _, line := range loc.Line {
			if line.Function == nil {
				continue
			}
			name := line.Function.Name
			if releaseFrames[name] {
				return Mutex
			}
			if waitFrames[name] {
				return Block
			}
		}
	}
	return ""
}
