package report

// SARIF 2.1.0 output. The structs below cover exactly what lockaudit writes;
// they are written by hand rather than with github.com/owenrumney/go-sarif
// because that library brings two modules (its v2 depends on its v1) for a
// few dozen lines of structs, and its zero-value defaults are what GitHub
// rejects in v3 (ids and indexes of -1). Here every optional field is
// omitempty and every index is a real one.

import (
	"encoding/json"
	"go/doc/comment"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/internal/rules"
)

// SARIFSrcRoot is the uriBaseId of the report root in SARIF logs: artifact
// URIs inside it are relative to it.
const SARIFSrcRoot = "%SRCROOT%"

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	infoURI      = "https://github.com/lockaudit/lockaudit"
)

type (
	sarifLog struct {
		Version string     `json:"version"`
		Schema  string     `json:"$schema"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		Invocations        []sarifInvocation                `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult                    `json:"results"`
		ColumnKind         string                           `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string             `json:"id"`
		Name                 string             `json:"name"`
		ShortDescription     sarifMessage       `json:"shortDescription"`
		FullDescription      sarifMessage       `json:"fullDescription"`
		Help                 sarifHelp          `json:"help"`
		HelpURI              string             `json:"helpUri,omitempty"`
		DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
		Properties           *sarifRuleProps    `json:"properties,omitempty"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifRuleProps struct {
		Tags []string `json:"tags,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          sarifResultProps  `json:"properties"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifResultProps struct {
		Category string `json:"category"`
		Package  string `json:"package,omitempty"`
		Function string `json:"function,omitempty"`
		Lock     string `json:"lock,omitempty"`
	}
	sarifLocation struct {
		ID               *int             `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLoc `json:"physicalLocation"`
		Message          *sarifMessage    `json:"message,omitempty"`
	}
	sarifPhysicalLoc struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           *sarifRegion          `json:"region,omitempty"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Replacements     []sarifReplacement    `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion   `json:"deletedRegion"`
		InsertedContent *sarifContent `json:"insertedContent,omitempty"`
	}
	sarifContent struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
)

// WriteSARIF writes the report as a SARIF 2.1.0 log with one run. Columns are
// converted to UTF-16 code units, SARIF's default column kind.
func (r *Report) WriteSARIF(w io.Writer) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "lockaudit",
			Version:        r.Version,
			InformationURI: infoURI,
			Rules:          []sarifRule{},
		}},
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{SARIFSrcRoot: {URI: r.Paths.rootURI()}},
		Results:            []sarifResult{},
		ColumnKind:         "utf16CodeUnits",
	}
	ruleIndex := make(map[string]int)
	for _, a := range r.Rules {
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleFor(a.Name, a.Doc, a.URL))
	}
	for _, f := range r.Findings {
		idx, ok := ruleIndex[f.Rule]
		if !ok { // a rule without analyzer metadata; keep the log consistent
			idx = len(run.Tool.Driver.Rules)
			ruleIndex[f.Rule] = idx
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleFor(f.Rule, f.Rule, ""))
		}
		res := sarifResult{
			RuleID:              f.Rule,
			RuleIndex:           idx,
			Level:               sarifLevel(f.Severity),
			Message:             sarifMessage{f.Message},
			Locations:           []sarifLocation{{PhysicalLocation: r.physical(f.File, f.Abs, f.Line, f.Column, f.EndLine, f.EndColumn)}},
			PartialFingerprints: map[string]string{FingerprintKey: f.Fingerprint},
			Properties:          sarifResultProps{Category: f.Category, Package: f.Package, Function: f.Function, Lock: f.Lock},
		}
		for i, rel := range f.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: r.physical(rel.File, rel.Abs, rel.Line, rel.Column, rel.EndLine, rel.EndColumn),
				Message:          &sarifMessage{rel.Message},
			})
		}
		for _, fix := range f.Fixes {
			res.Fixes = append(res.Fixes, r.sarifFixFor(fix))
		}
		run.Results = append(run.Results, res)
	}
	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	for _, e := range r.Errors {
		text := e.Message
		if e.Package != "" {
			text = e.Package + ": " + text
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "error", Message: sarifMessage{text}})
	}
	run.Invocations = []sarifInvocation{inv}

	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Version: sarifVersion, Schema: sarifSchema, Runs: []sarifRun{run}})
}

// sarifDescriptionMax is GitHub's limit on shortDescription.text and
// fullDescription.text.
const sarifDescriptionMax = 1024

// sarifRuleFor describes a rule from its analyzer's Doc: the first paragraph
// (the x/tools convention for an analyzer's title) as the short description,
// the leading paragraphs that fit GitHub's limit as the full description, and
// the whole Doc as help, also rendered from Go doc-comment syntax to Markdown.
func sarifRuleFor(name, doc, url string) sarifRule {
	short, _, _ := strings.Cut(doc, "\n\n")
	short = truncate(OneLine(short), sarifDescriptionMax)
	// The full description: the leading prose paragraphs (headings and the
	// x/tools "name: summary" line skipped), up to the first code block or
	// list and without the paragraph that introduces it.
	var paras []string
	for i, para := range strings.Split(doc, "\n\n") {
		if i > 0 && (strings.HasPrefix(para, "#") || strings.HasPrefix(para, name+": ")) {
			continue
		}
		if i > 0 && (strings.HasPrefix(para, "\t") || strings.HasPrefix(para, " ")) {
			if n := len(paras); n > 1 && strings.HasSuffix(paras[n-1], ":") {
				paras = paras[:n-1]
			}
			break
		}
		para = OneLine(para)
		if len(paras) > 0 && len(strings.Join(append(paras, para), "\n\n")) > sarifDescriptionMax {
			break
		}
		paras = append(paras, para)
	}
	full := truncate(strings.Join(paras, "\n\n"), sarifDescriptionMax)
	var p comment.Parser
	pr := comment.Printer{HeadingID: func(*comment.Heading) string { return "" }}
	md := string(pr.Markdown(p.Parse(doc)))
	if cats := rules.Categories[name]; len(cats) > 0 {
		list := "\n\nCategories (rule/category, for -enable and -disable): " + strings.Join(cats, ", ") + "."
		doc += list
		md += strings.TrimPrefix(list, "\n") + "\n"
	}
	return sarifRule{
		ID:                   name,
		Name:                 name,
		ShortDescription:     sarifMessage{short},
		FullDescription:      sarifMessage{full},
		Help:                 sarifHelp{Text: doc, Markdown: md},
		HelpURI:              url,
		DefaultConfiguration: sarifConfiguration{Level: "warning"},
		Properties:           &sarifRuleProps{Tags: []string{"concurrency", "performance"}},
	}
}

// truncate shortens s to at most n bytes, on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// sarifLevel maps a finding severity to a SARIF level.
func sarifLevel(severity string) string {
	switch severity {
	case "error", "note":
		return severity
	}
	return "warning"
}

// artifact returns the SARIF artifact location of a report path.
func (r *Report) artifact(reportPath string) sarifArtifactLocation {
	uri, relative := r.Paths.uri(reportPath)
	if relative {
		return sarifArtifactLocation{URI: uri, URIBaseID: SARIFSrcRoot}
	}
	return sarifArtifactLocation{URI: uri}
}

// physical returns a SARIF physical location; the region is left out when
// the position is unknown.
func (r *Report) physical(reportPath, abs string, line, col, endLine, endCol int) sarifPhysicalLoc {
	loc := sarifPhysicalLoc{ArtifactLocation: r.artifact(reportPath)}
	if line > 0 {
		loc.Region = &sarifRegion{
			StartLine:   line,
			StartColumn: r.Sources.utf16Col(abs, line, col),
			EndLine:     endLine,
			EndColumn:   r.Sources.utf16Col(abs, endLine, endCol),
		}
	}
	return loc
}

// sarifFixFor converts a suggested fix, grouping its edits by file.
func (r *Report) sarifFixFor(fix Fix) sarifFix {
	sf := sarifFix{Description: sarifMessage{fix.Message}, ArtifactChanges: []sarifArtifactChange{}}
	byFile := make(map[string]int)
	for _, e := range fix.Edits {
		i, ok := byFile[e.File]
		if !ok {
			i = len(sf.ArtifactChanges)
			byFile[e.File] = i
			sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: r.artifact(e.File)})
		}
		rep := sarifReplacement{DeletedRegion: sarifRegion{
			StartLine:   e.StartLine,
			StartColumn: r.Sources.utf16Col(e.Abs, e.StartLine, e.StartColumn),
			EndLine:     e.EndLine,
			EndColumn:   r.Sources.utf16Col(e.Abs, e.EndLine, e.EndColumn),
		}}
		if e.NewText != "" {
			rep.InsertedContent = &sarifContent{e.NewText}
		}
		sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
	}
	return sf
}
