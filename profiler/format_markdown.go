package profiler

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as GitHub-flavoured markdown for a pull
// request comment: a table per kind, findings inline, stacks folded.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "## lockaudit profile")
	kinds := r.kindsPresent()
	if len(kinds) == 0 && r.traces == 0 {
		fmt.Fprintln(bw, "\nNo mutex or block profiles were collected.")
	}
	for _, k := range kinds {
		hs := r.ofKind(k)
		fmt.Fprintf(bw, "\n### %s: %s total delay, %s contentions\n\n", k, duration(float64(r.TotalDelayNS.Get(k))), count(r.contentions.Get(k)))
		fmt.Fprintf(bw, "_%s._\n\n", kindHeading[k])
		if len(hs) == 0 {
			fmt.Fprintln(bw, "No contention outside the test harness.")
			continue
		}
		fmt.Fprintln(bw, "| # | function | location | delay | share | contentions | mean wait | static findings |")
		fmt.Fprintln(bw, "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- |")
		for _, h := range hs {
			var fs []string
			for _, f := range h.Findings {
				fs = append(fs, fmt.Sprintf("`%s` %s:%d: %s", ruleTag(f), f.File, f.Line, mdEscape(f.Message)))
			}
			if h.Holding != nil {
				fs = append(fs, "on CPU while held: "+mdEscape(h.Holding.Summary))
			}
			fmt.Fprintf(bw, "| %d | `%s` | %s:%d | %s | %s | %s | %s | %s |\n", h.Rank, shortName(h.Function), h.File, h.Line,
				duration(float64(h.DelayNS)), percent(h.Share), count(h.Contentions), duration(h.MeanWait()), strings.Join(fs, "<br>"))
		}
		fmt.Fprintln(bw, "\n<details><summary>Top stacks</summary>")
		for _, h := range hs {
			fmt.Fprintf(bw, "\n**%s #%d** `%s`\n", k, h.Rank, shortName(h.Function))
			for _, st := range h.stacks {
				fmt.Fprintf(bw, "\n%s in %s contentions:\n\n```\n%s\n```\n", duration(float64(st.DelayNS)), count(st.Contentions), strings.Join(st.Frames, "\n"))
			}
		}
		fmt.Fprintln(bw, "\n</details>")
	}
	r.writeWaitsMarkdown(bw)
	if len(r.Errors) > 0 {
		fmt.Fprintln(bw, "\n### Not profiled")
		fmt.Fprintln(bw)
		for _, e := range r.Errors {
			src := e.Source
			if src == "" {
				src = "(go command)"
			}
			fmt.Fprintf(bw, "- `%s`: %s\n", src, mdEscape(e.Message))
		}
	}
	return bw.Flush()
}

// mdEscape keeps a message from breaking a table row.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}
