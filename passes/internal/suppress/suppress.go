// Package suppress implements lockaudit's suppression comments:
//
//	//lockaudit:ignore RULE[,RULE] reason
//
// on the line of a finding or on the line above silences the named rules
// there (RULE may also be rule/category, or "all"). golangci-lint's
// //nolint:lockaudit is honoured the same way, so that one comment works
// under every driver.
package suppress

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// Reporter reports diagnostics for one pass, dropping suppressed ones, those
// below the confidence threshold and, when SkipTests is set, those in
// _test.go files.
type Reporter struct {
	pass  *analysis.Pass
	rule  string
	lines map[string]map[int][]string // file -> line -> rules silenced there

	// SkipTests drops findings located in _test.go files.
	SkipTests bool
}

// New returns a Reporter for pass whose findings belong to rule.
func New(pass *analysis.Pass, rule string) *Reporter {
	return &Reporter{pass: pass, rule: rule}
}

// Report reports d, a proven finding (a warning), unless a suppression
// comment covers it.
func (r *Reporter) Report(d analysis.Diagnostic) { r.ReportLevel(d, confidence.Warning, "") }

// ReportLevel reports d at confidence level l; a note's message is tagged
// with why it is only plausible. Findings below the confidence threshold are
// dropped, and so are suppressed ones.
func (r *Reporter) ReportLevel(d analysis.Diagnostic, l confidence.Level, why string) {
	if !confidence.Reported(l) || r.Suppressed(d.Pos, d.Category) {
		return
	}
	if r.SkipTests && srcname.InTest(r.pass.Fset, d.Pos) {
		return
	}
	if l == confidence.Note {
		d.Message = confidence.Tag(d.Message, why)
	}
	r.pass.Report(d)
}

// Suppressed reports whether a comment silences rule/category at pos.
func (r *Reporter) Suppressed(pos token.Pos, category string) bool {
	if r.lines == nil {
		r.index()
	}
	p := r.pass.Fset.Position(pos)
	byLine := r.lines[p.Filename]
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, rule := range byLine[line] {
			if rule == "all" || rule == r.rule || rule == r.rule+"/"+category {
				return true
			}
		}
	}
	return false
}

func (r *Reporter) index() {
	r.lines = map[string]map[int][]string{}
	for _, f := range r.pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				rules := Parse(c.Text)
				if len(rules) == 0 {
					continue
				}
				p := r.pass.Fset.Position(c.Slash)
				if r.lines[p.Filename] == nil {
					r.lines[p.Filename] = map[int][]string{}
				}
				r.lines[p.Filename][p.Line] = append(r.lines[p.Filename][p.Line], rules...)
			}
		}
	}
}

// Parse returns the rules a comment silences, or nil when it is not a
// suppression comment. For //nolint it returns "all" when lockaudit is
// named (golangci-lint reports all of lockaudit's rules as one linter).
func Parse(text string) []string {
	text = strings.TrimPrefix(text, "//")
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, "lockaudit:ignore"); ok {
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return nil
		}
		var rules []string
		for _, r := range strings.Split(fields[0], ",") {
			if r = strings.TrimSpace(r); r != "" {
				rules = append(rules, r)
			}
		}
		return rules
	}
	if rest, ok := strings.CutPrefix(text, "nolint:"); ok {
		list, _, _ := strings.Cut(rest, " ")
		for _, l := range strings.Split(list, ",") {
			if strings.TrimSpace(l) == "lockaudit" {
				return []string{"all"}
			}
		}
	}
	return nil
}

// File returns the syntax tree of pass that contains pos, or nil.
func File(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
