// Package analyzerdoc derives an analyzer's Doc from its package's doc.go,
// so that the long description is written once, as Go documentation.
package analyzerdoc

import "strings"

// FromDocGo returns the package comment of doc.go's source src, without the
// comment markers and with the leading "Package NAME defines an Analyzer
// that " dropped and the first letter capitalised, for analysis.Analyzer.Doc.
func FromDocGo(src, name string) string {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		l = strings.TrimPrefix(l, "//")
		l = strings.TrimPrefix(l, " ")
		lines = append(lines, l)
	}
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	text = strings.TrimPrefix(text, "Package "+name+" defines an Analyzer that ")
	if text != "" {
		text = strings.ToUpper(text[:1]) + text[1:]
	}
	return text
}
