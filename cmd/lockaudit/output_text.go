package main

import (
	"bufio"
	"fmt"
	"io"
)

// writeText writes one line per finding,
//
//	path:line:col: message (rule/category)
//
// with paths relative to the current directory when inside it. Errors are
// not part of the text report; check prints them on stderr.
func writeText(w io.Writer, r *report) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		tag := f.Rule
		if f.Category != "" {
			tag += "/" + f.Category
		}
		fmt.Fprintf(bw, "%s:%d:%d: %s (%s)\n", r.paths.display(f.abs), f.Line, f.Column, f.Message, tag)
	}
	return bw.Flush()
}
