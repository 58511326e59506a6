package profiler

import (
	"strings"

	"github.com/google/pprof/profile"
)

// fakeStack is one sample of a synthetic contention profile: its frames
// from the leaf up ("function file:line") and its values.
type fakeStack struct {
	frames      []string
	contentions int64
	delay       int64
}

// contentionProfile builds a mutex- or block-shaped profile (the headers
// are the same) from fake stacks.
func contentionProfile(stacks ...fakeStack) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "contentions", Unit: "count"}, {Type: "delay", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "contentions", Unit: "count"},
		Period:     1,
	}
	funcs := map[string]*profile.Function{}
	for _, st := range stacks {
		s := &profile.Sample{Value: []int64{st.contentions, st.delay}}
		for _, fr := range st.frames {
			name, file, line := splitFrame(fr)
			fn := funcs[name+file]
			if fn == nil {
				fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name, Filename: file}
				funcs[name+file] = fn
				p.Function = append(p.Function, fn)
			}
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: line}}}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// splitFrame parses "function file:line".
func splitFrame(s string) (name, file string, line int64) {
	name, loc, _ := strings.Cut(s, " ")
	i := strings.LastIndexByte(loc, ':')
	file, ln := loc[:i], loc[i+1:]
	for _, c := range ln {
		line = line*10 + int64(c-'0')
	}
	return name, file, line
}
