package report

import (
	"bufio"
	"fmt"
	"io"
)

// WriteText writes one line per finding,
//
//	path:line:col: message (rule/category)
//
// with paths relative to the current directory when inside it. Errors are
// not part of the text report; check prints them on stderr.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		tag := f.Rule
		if f.Category != "" {
			tag += "/" + f.Category
		}
		fmt.Fprintf(bw, "%s:%d:%d: %s (%s)\n", r.Paths.Display(f.Abs), f.Line, f.Column, f.Message, tag)
	}
	return bw.Flush()
}
