package summary

import (
	"slices"
	"testing"
)

// TestAddParam checks that a parameter called in several places keeps the
// classes released at every one of them, and none once a call releases
// nothing, whatever the order of the calls.
func TestAddParam(t *testing.T) {
	const a, b, c = "(*pkg.T).mu", "(*pkg.U).mu", "(*pkg.V).mu"
	for _, tc := range []struct {
		calls [][]string
		want  []string
	}{
		{[][]string{{a}}, []string{a}},
		{[][]string{{b, a, a}}, []string{a, b}},
		{[][]string{{a, b}, {b, c}}, []string{b}},
		{[][]string{{a, b}, {c}}, nil},
		{[][]string{nil, {a}}, nil},
		{[][]string{{a}, nil, {a}}, nil},
	} {
		var s Summary
		for _, released := range tc.calls {
			s.addParam(2, released)
		}
		if got := s.ReleasedAt(2); !slices.Equal(got, tc.want) {
			t.Errorf("calls released %v: ReleasedAt %v, want %v", tc.calls, got, tc.want)
		}
		if !slices.Equal(s.CallsParams, []int{2}) {
			t.Errorf("calls released %v: CallsParams %v, want [2]", tc.calls, s.CallsParams)
		}
		if s.addParam(2, []string{a, b, c}) {
			t.Errorf("calls released %v: a call releasing more changed the summary", tc.calls)
		}
	}
}
