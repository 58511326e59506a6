package profiler

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// The wait tables of the text and markdown reports: the tails from the
// execution traces, beside the profiles' totals.

const waitsHeading = "sync waits from execution traces, lock waits first, worst p99 first: the tail that totals and means hide"

// totalWaits counts the waits of the sites shown.
func (r *Report) totalWaits() int64 {
	var n int64
	for _, w := range r.Waits {
		n += w.Count
	}
	return n
}

// convoyText describes a reader site's writer convoy.
func convoyText(w *WaitSite) string {
	return fmt.Sprintf("writer convoy: %s of %s read waits began while a writer (%s) was queued, p99 %s",
		count(w.Convoy.Waits), count(w.Count), shortName(w.Convoy.Writer), duration(float64(w.Convoy.P99NS)))
}

func (r *Report) writeWaitsText(w io.Writer) {
	if r.traces == 0 {
		return
	}
	fmt.Fprintf(w, "\nwaits: %s in %d execution trace(s): %s\n", count(r.totalWaits()), r.traces, waitsHeading)
	for _, src := range r.TraceCapped {
		fmt.Fprintf(w, "  the trace of %s was read up to the size cap only\n", src)
	}
	if len(r.Waits) == 0 {
		fmt.Fprintln(w, "  no sync wait outside the test harness")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  RANK\tOP\tCOUNT\tP50\tP90\tP99\tMAX\tFUNCTION\tLOCATION\tFINDINGS")
	for _, s := range r.Waits {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s:%d\t%d\n", s.Rank, s.Op, count(s.Count),
			duration(float64(s.P50NS)), duration(float64(s.P90NS)), duration(float64(s.P99NS)), duration(float64(s.MaxNS)),
			shortName(s.Function), r.displayPath(s.File), s.Line, len(s.Findings))
	}
	tw.Flush()
	for _, s := range r.Waits {
		if s.Convoy == nil && len(s.Findings) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nwaits #%d %s (%s)  p99 %s\n", s.Rank, shortName(s.Function), s.Op, duration(float64(s.P99NS)))
		if s.Convoy != nil {
			fmt.Fprintf(w, "    %s\n", convoyText(s))
		}
		for _, f := range s.Findings {
			fmt.Fprintf(w, "    %s:%d: %s (%s)\n", r.displayPath(f.File), f.Line, f.Message, ruleTag(f))
		}
	}
}

func (r *Report) writeWaitsMarkdown(w io.Writer) {
	if r.traces == 0 {
		return
	}
	fmt.Fprintf(w, "\n### waits: %s in %d execution trace(s)\n\n_%s._\n\n", count(r.totalWaits()), r.traces, waitsHeading)
	for _, src := range r.TraceCapped {
		fmt.Fprintf(w, "The trace of `%s` was read up to the size cap only.\n\n", src)
	}
	if len(r.Waits) == 0 {
		fmt.Fprintln(w, "No sync wait outside the test harness.")
		return
	}
	fmt.Fprintln(w, "| # | op | function | location | count | p50 | p90 | p99 | max | notes |")
	fmt.Fprintln(w, "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
	for _, s := range r.Waits {
		var notes []string
		if s.Convoy != nil {
			notes = append(notes, mdEscape(convoyText(s)))
		}
		for _, f := range s.Findings {
			notes = append(notes, fmt.Sprintf("`%s` %s:%d: %s", ruleTag(f), f.File, f.Line, mdEscape(f.Message)))
		}
		fmt.Fprintf(w, "| %d | %s | `%s` | %s:%d | %s | %s | %s | %s | %s | %s |\n", s.Rank, s.Op, shortName(s.Function), s.File, s.Line,
			count(s.Count), duration(float64(s.P50NS)), duration(float64(s.P90NS)), duration(float64(s.P99NS)), duration(float64(s.MaxNS)),
			strings.Join(notes, "<br>"))
	}
}
