package report

import (
	"encoding/json"
	"io"
)

// The JSON report (DESIGN §4). Lists are never null.
type (
	jsonReport struct {
		Findings []jsonFinding `json:"findings"`
		Errors   []jsonError   `json:"errors"`
	}
	jsonFinding struct {
		Rule      string        `json:"rule"`
		Category  string        `json:"category"`
		Severity  string        `json:"severity"`
		Message   string        `json:"message"`
		File      string        `json:"file"`
		Line      int           `json:"line"`
		Column    int           `json:"column"`
		EndLine   int           `json:"end_line"`
		EndColumn int           `json:"end_column"`
		Package   string        `json:"package"`
		Function  string        `json:"function"`
		Lock      string        `json:"lock"`
		Related   []jsonRelated `json:"related"`
		Fixes     []jsonFix     `json:"fixes"`
	}
	jsonRelated struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		File        string `json:"file"`
		StartLine   int    `json:"start_line"`
		StartColumn int    `json:"start_column"`
		EndLine     int    `json:"end_line"`
		EndColumn   int    `json:"end_column"`
		NewText     string `json:"new_text"`
	}
	jsonError struct {
		Package string `json:"package"`
		Message string `json:"message"`
	}
)

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Findings: []jsonFinding{}, Errors: []jsonError{}}
	for _, f := range r.Findings {
		jf := jsonFinding{
			Rule:      f.Rule,
			Category:  f.Category,
			Severity:  f.Severity,
			Message:   f.Message,
			File:      f.File,
			Line:      f.Line,
			Column:    f.Column,
			EndLine:   f.EndLine,
			EndColumn: f.EndColumn,
			Package:   f.Package,
			Function:  f.Function,
			Lock:      f.Lock,
			Related:   []jsonRelated{},
			Fixes:     []jsonFix{},
		}
		for _, rel := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{File: rel.File, Line: rel.Line, Message: rel.Message})
		}
		for _, fix := range f.Fixes {
			jfix := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.Edits {
				jfix.Edits = append(jfix.Edits, jsonEdit{
					File:        e.File,
					StartLine:   e.StartLine,
					StartColumn: e.StartColumn,
					EndLine:     e.EndLine,
					EndColumn:   e.EndColumn,
					NewText:     e.NewText,
				})
			}
			jf.Fixes = append(jf.Fixes, jfix)
		}
		out.Findings = append(out.Findings, jf)
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, jsonError(e))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
