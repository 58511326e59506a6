package profiler

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report for a terminal: per kind, a summary line and
// an aligned table of the hotspots, then each hotspot's findings and
// heaviest stacks. Errors are not part of it (the command prints them on
// stderr).
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	kinds := r.kindsPresent()
	if len(kinds) == 0 && r.traces == 0 {
		fmt.Fprintln(bw, "no mutex or block profiles collected")
	}
	for i, k := range kinds {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		r.writeKindText(bw, k)
	}
	r.writeWaitsText(bw)
	if r.fgprof != nil {
		fmt.Fprintf(bw, "\nfgprof: %d wall-clock samples merged (not ranked; write them with -o and open with go tool pprof)\n", len(r.fgprof.Sample))
	}
	return bw.Flush()
}

// kindHeading describes what a kind's delay means.
var kindHeading = map[Kind]string{
	Mutex: "mutex contention, charged to the lock holder (stack at Unlock)",
	Block: "blocking, charged to the waiter (stack at Lock, channel operation, Wait)",
}

func (r *Report) writeKindText(w io.Writer, k Kind) {
	hs := r.ofKind(k)
	total, cont := r.TotalDelayNS.Get(k), r.contentions.Get(k)
	fmt.Fprintf(w, "%s: %s total delay, %s contentions: %s\n", k, duration(float64(total)), count(cont), kindHeading[k])
	if len(hs) == 0 {
		fmt.Fprintln(w, "  no contention outside the test harness")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  RANK\tDELAY\tSHARE\tCONTENTIONS\tMEAN WAIT\tFUNCTION\tLOCATION\tFINDINGS")
	for _, h := range hs {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s:%d\t%d\n", h.Rank, duration(float64(h.DelayNS)), percent(h.Share),
			count(h.Contentions), duration(h.MeanWait()), shortName(h.Function), r.displayPath(h.File), h.Line, len(h.Findings))
	}
	tw.Flush()
	for _, h := range hs {
		fmt.Fprintf(w, "\n%s #%d %s  %s, %s of %s\n", k, h.Rank, shortName(h.Function), duration(float64(h.DelayNS)), percent(h.Share), k)
		for _, f := range h.Findings {
			fmt.Fprintf(w, "    %s:%d: %s (%s)\n", r.displayPath(f.File), f.Line, f.Message, ruleTag(f))
		}
		if len(h.Findings) == 0 {
			fmt.Fprintln(w, "    no static finding for this function")
		}
		if h.Holding != nil {
			fmt.Fprintf(w, "    %s (%s on CPU under it: %s)\n", h.Holding.Summary, duration(float64(h.Holding.CPUNS)), calleeList(h.Holding))
		}
		for _, st := range h.stacks {
			fmt.Fprintf(w, "    stack, %s in %s contentions:\n", duration(float64(st.DelayNS)), count(st.Contentions))
			for _, fr := range st.Frames {
				fmt.Fprintf(w, "      %s\n", r.displayFrame(fr))
			}
		}
	}
}

// ruleTag is "rule/category", or the rule alone.
func ruleTag(f Finding) string {
	if f.Category == "" {
		return f.Rule
	}
	return f.Rule + "/" + f.Category
}

// displayFrame shortens a "function file:line" stack entry for a terminal.
func (r *Report) displayFrame(s string) string {
	fn, loc, ok := strings.Cut(s, " ")
	if !ok {
		return s
	}
	file, line, ok := strings.Cut(loc, ":")
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		file, line, ok = loc[:i], loc[i+1:], true
	}
	if !ok {
		return shortName(fn) + " " + loc
	}
	return shortName(fn) + " " + r.displayPath(file) + ":" + line
}

// calleeList is "97.0% NewLedger.func1, 3.0% (itself)".
func calleeList(h *Holding) string {
	var parts []string
	for _, c := range h.Callees {
		parts = append(parts, percent(c.Share)+" "+shortName(c.Function))
	}
	return strings.Join(parts, ", ")
}
