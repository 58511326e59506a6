package profiler

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// A Hotspot is a function that caused contention: in a mutex profile the
// holder of a contended lock (the code between Lock and the Unlock that
// released the waiters), in a block profile the waiter.
type Hotspot struct {
	Rank        int       `json:"rank"` // 1-based, within Kind
	Kind        Kind      `json:"kind"`
	Function    string    `json:"function"` // full pprof name
	File        string    `json:"file"`     // report path of the heaviest line
	Line        int       `json:"line"`
	DelayNS     int64     `json:"delay_ns"`
	Contentions int64     `json:"contentions"`
	Share       float64   `json:"share"` // of the kind's total delay
	Stack       []string  `json:"stack"` // heaviest stack, leaf first: "function file:line"
	Findings    []Finding `json:"findings"`
	// Holding, for a mutex hotspot, is what the holder did on CPU inside
	// the critical section, when a CPU profile was recorded.
	Holding *Holding `json:"holding,omitempty"`

	absFile string   // File as recorded in the profile
	stacks  []*Stack // heaviest stacks, for the text and markdown reports
}

// A Stack is one call path into a hotspot and the delay it accounts for.
type Stack struct {
	DelayNS     int64
	Contentions int64
	Frames      []string // leaf first, "function file:line"
}

// MeanWait returns the hotspot's delay per contention in nanoseconds.
func (h *Hotspot) MeanWait() float64 {
	if h.Contentions == 0 {
		return 0
	}
	return float64(h.DelayNS) / float64(h.Contentions)
}

// maxStacks is how many stacks each hotspot keeps.
const maxStacks = 3

// maxStackFrames bounds the frames of a stack shown: the leaf up to the
// hotspot and a few of its callers.
const maxStackFrames = 12

// hotspotAcc accumulates one hotspot while ranking.
type hotspotAcc struct {
	fn          string
	delay, cont int64
	lines       map[fileLine]int64
	stacks      map[string]*Stack
}

type fileLine struct {
	file string
	line int
}

// rank computes the hotspots of one merged contention profile, heaviest
// first, and the kind's total delay and contentions (harness waits left
// out of all three).
func rank(kind Kind, p *profile.Profile, paths pathFunc) (hs []*Hotspot, totalDelay, totalCont int64) {
	if p == nil || !isContention(p) {
		return nil, 0, 0
	}
	acc := make(map[string]*hotspotAcc)
	for _, s := range p.Sample {
		if len(s.Value) < 2 || s.Value[1] <= 0 {
			continue
		}
		cont, delay := s.Value[0], s.Value[1]
		frames := stack(s)
		if kind == Mutex && runtimeInternal(frames) {
			continue // the runtime's own locks: not the user's to fix
		}
		i, ok := hotspotFrame(frames)
		if !ok {
			continue
		}
		totalDelay += delay
		totalCont += cont
		hf := frames[i]
		a := acc[hf.fn]
		if a == nil {
			a = &hotspotAcc{fn: hf.fn, lines: make(map[fileLine]int64), stacks: make(map[string]*Stack)}
			acc[hf.fn] = a
		}
		a.delay += delay
		a.cont += cont
		a.lines[fileLine{hf.file, hf.line}] += delay
		shown := stackStrings(frames, i, paths)
		key := strings.Join(shown, "\n")
		st := a.stacks[key]
		if st == nil {
			st = &Stack{Frames: shown}
			a.stacks[key] = st
		}
		st.DelayNS += delay
		st.Contentions += cont
	}
	for _, a := range acc {
		h := &Hotspot{Kind: kind, Function: a.fn, DelayNS: a.delay, Contentions: a.cont, Findings: []Finding{}}
		var best fileLine
		var bestDelay int64 = -1
		for fl, d := range a.lines {
			if d > bestDelay || d == bestDelay && (fl.file < best.file || fl.file == best.file && fl.line < best.line) {
				best, bestDelay = fl, d
			}
		}
		h.absFile, h.Line = best.file, best.line
		h.File = paths(best.file)
		for _, st := range a.stacks {
			h.stacks = append(h.stacks, st)
		}
		slices.SortFunc(h.stacks, func(x, y *Stack) int {
			return cmp.Or(cmp.Compare(y.DelayNS, x.DelayNS), slices.Compare(x.Frames, y.Frames))
		})
		h.stacks = h.stacks[:min(len(h.stacks), maxStacks)]
		h.Stack = h.stacks[0].Frames
		if totalDelay > 0 {
			h.Share = float64(h.DelayNS) / float64(totalDelay)
		}
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(x, y *Hotspot) int {
		return cmp.Or(cmp.Compare(y.DelayNS, x.DelayNS), cmp.Compare(x.Function, y.Function))
	})
	for i, h := range hs {
		h.Rank = i + 1
	}
	return hs, totalDelay, totalCont
}

// stackStrings renders frames from the leaf to a few callers above the
// hotspot frame at index hot, stopping at the test harness.
func stackStrings(frames []frame, hot int, paths pathFunc) []string {
	var out []string
	for i, f := range frames {
		if i > hot && classifyFrame(f) == harnessFrame || len(out) == maxStackFrames {
			break
		}
		out = append(out, fmt.Sprintf("%s %s:%d", f.fn, paths(f.file), f.line))
	}
	return out
}

// A pathFunc maps a file name recorded in a profile to a report path.
type pathFunc func(string) string
