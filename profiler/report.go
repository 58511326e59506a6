package profiler

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// A Report is the result of lockaudit profile: the ranked hotspots of each
// kind with their findings, the totals, and what could not be collected.
// Its JSON form is the contract of DESIGN §6.
type Report struct {
	Hotspots     []*Hotspot `json:"hotspots"` // mutex first, then block; by rank within each
	TotalDelayNS Totals     `json:"total_delay_ns"`
	Packages     []string   `json:"packages"` // packages, URLs and files that contributed profiles
	Errors       []Error    `json:"errors"`
	// Waits are the sync wait sites of the execution traces, worst p99
	// first; TraceCapped names the sources whose trace was read only up
	// to the size cap.
	Waits       []*WaitSite `json:"waits"`
	TraceCapped []string    `json:"trace_capped,omitempty"`

	traces int         // execution traces read
	charts []tailChart // p99 by benchmark parameter, for the HTML report

	contentions Totals           // total contentions by kind
	fgprof      *profile.Profile // merged wall-clock profile, not ranked
	cwd         string           // for the text report's paths
	root        string           // report paths are relative to it
	merged      map[Kind]*profile.Profile
}

// Totals holds one number per ranked kind.
type Totals struct {
	Mutex int64 `json:"mutex"`
	Block int64 `json:"block"`
}

func (t *Totals) set(k Kind, v int64) {
	switch k {
	case Mutex:
		t.Mutex = v
	case Block:
		t.Block = v
	}
}

// Get returns the value of kind k.
func (t Totals) Get(k Kind) int64 {
	switch k {
	case Mutex:
		return t.Mutex
	case Block:
		return t.Block
	}
	return 0
}

// ReportOptions control BuildReport.
type ReportOptions struct {
	Top      int             // hotspots kept per kind; 0 means all
	Findings []StaticFinding // static findings to join
	Root     string          // report paths are relative to Root when inside it
	Cwd      string          // text report paths are relative to Cwd when inside it
}

// BuildReport merges the collection's profiles per kind, ranks each
// contention kind, keeps the top hotspots and joins the findings to them.
func BuildReport(c *Collection, opts ReportOptions) *Report {
	merged := c.Merge()
	r := &Report{Hotspots: []*Hotspot{}, cwd: opts.Cwd, root: opts.Root, merged: merged, fgprof: merged[Fgprof]}
	paths := func(abs string) string { return relPath(opts.Root, abs) }
	for _, k := range []Kind{Mutex, Block} {
		hs, delay, cont := rank(k, merged[k], paths)
		r.TotalDelayNS.set(k, delay)
		r.contentions.set(k, cont)
		if opts.Top > 0 && len(hs) > opts.Top {
			hs = hs[:opts.Top]
		}
		r.Hotspots = append(r.Hotspots, hs...)
	}
	Join(r.Hotspots, opts.Findings)
	attributeHolding(r.Hotspots, merged[CPU], newDeclIndex())
	r.Waits, r.traces, r.TraceCapped = c.waitSites(paths)
	if opts.Top > 0 && len(r.Waits) > opts.Top {
		// A writer convoy is what the table is for: a site that has one
		// stays in it below the top.
		kept := r.Waits[:opts.Top:opts.Top]
		for _, w := range r.Waits[opts.Top:] {
			if w.Convoy != nil {
				kept = append(kept, w)
			}
		}
		r.Waits = kept
	}
	joinWaits(r.Waits, opts.Findings)
	r.charts = tailCharts(c.benchResults())
	r.Packages = c.Sources()
	if r.Packages == nil {
		r.Packages = []string{}
	}
	r.Errors = c.Errors()
	if r.Errors == nil {
		r.Errors = []Error{}
	}
	return r
}

// Merged returns the merged profile of each kind collected.
func (r *Report) Merged() map[Kind]*profile.Profile { return r.merged }

// ofKind returns the report's hotspots of kind k, by rank.
func (r *Report) ofKind(k Kind) []*Hotspot {
	var hs []*Hotspot
	for _, h := range r.Hotspots {
		if h.Kind == k {
			hs = append(hs, h)
		}
	}
	return hs
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON, such as a baseline.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// relPath returns abs relative to root, slash-separated, when it is inside
// root, else abs unchanged.
func relPath(root, abs string) string {
	if root == "" || abs == "" || !filepath.IsAbs(abs) {
		return abs
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return filepath.ToSlash(rel)
}

// displayPath returns a report path as the text report shows it: relative
// to the current directory when inside it.
func (r *Report) displayPath(reportPath string) string {
	if reportPath == "" || filepath.IsAbs(reportPath) || r.root == "" || r.cwd == "" {
		return reportPath
	}
	abs := filepath.Join(r.root, filepath.FromSlash(reportPath))
	if rel := relPath(r.cwd, abs); !filepath.IsAbs(rel) {
		return rel
	}
	return abs
}

// kindsPresent returns the ranked kinds the report has profiles of.
func (r *Report) kindsPresent() []Kind {
	var ks []Kind
	for _, k := range []Kind{Mutex, Block} {
		if r.merged[k] != nil || slices.ContainsFunc(r.Hotspots, func(h *Hotspot) bool { return h.Kind == k }) {
			ks = append(ks, k)
		}
	}
	return ks
}
