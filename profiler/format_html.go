package profiler

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"strings"
)

// WriteHTML writes the report as one self-contained HTML file (no script,
// no font, no external reference): the hotspot tables, each wait site's
// histogram with p50 and p99 marked, each hotspot's critical section in
// source with its findings, and the p99 chart of benchmarks that report
// one per parameter (goroutines).
func (r *Report) WriteHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if err := htmlTemplate.Execute(bw, r.htmlView()); err != nil {
		return err
	}
	return bw.Flush()
}

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// The view of the report the template renders.
type htmlView struct {
	Kinds    []htmlKind
	Waits    []htmlWait
	Traces   int
	Capped   []string
	Details  []htmlDetail
	Charts   []template.HTML
	Packages []string
	Errors   []Error
}

type htmlKind struct {
	Kind, Heading, Total, Contentions string
	Rows                              []htmlHotspot
}

type htmlHotspot struct {
	Anchor, Rank, Function, Location, Delay, Share, Contentions, MeanWait string
	Findings                                                              int
	Holding                                                               string
}

type htmlWait struct {
	Rank, Op, Function, Location, Count, P50, P90, P99, Max string
	Convoy                                                  string
	Findings                                                []Finding
	Histogram                                               template.HTML
}

type htmlDetail struct {
	Anchor, Title, Holding string
	Findings               []Finding
	Source                 []htmlLine
}

type htmlLine struct {
	N    int
	Text string
	Hot  bool // a finding's line, or the hotspot's
}

func (r *Report) htmlView() htmlView {
	v := htmlView{Traces: r.traces, Capped: r.TraceCapped, Packages: r.Packages, Errors: r.Errors}
	decls := newDeclIndex()
	for _, k := range r.kindsPresent() {
		hk := htmlKind{Kind: string(k), Heading: kindHeading[k], Total: duration(float64(r.TotalDelayNS.Get(k))), Contentions: count(r.contentions.Get(k))}
		for _, h := range r.ofKind(k) {
			anchor := fmt.Sprintf("%s-%d", k, h.Rank)
			row := htmlHotspot{Anchor: anchor, Rank: fmt.Sprint(h.Rank), Function: shortName(h.Function), Location: fmt.Sprintf("%s:%d", h.File, h.Line),
				Delay: duration(float64(h.DelayNS)), Share: percent(h.Share), Contentions: count(h.Contentions), MeanWait: duration(h.MeanWait()), Findings: len(h.Findings)}
			d := htmlDetail{Anchor: anchor, Title: fmt.Sprintf("%s #%d %s", k, h.Rank, shortName(h.Function)), Findings: h.Findings}
			if h.Holding != nil {
				row.Holding, d.Holding = h.Holding.Summary, h.Holding.Summary+" ("+calleeList(h.Holding)+")"
			}
			d.Source = sourceLines(decls, h)
			hk.Rows = append(hk.Rows, row)
			v.Details = append(v.Details, d)
		}
		v.Kinds = append(v.Kinds, hk)
	}
	for _, s := range r.Waits {
		w := htmlWait{Rank: fmt.Sprint(s.Rank), Op: s.Op, Function: shortName(s.Function), Location: fmt.Sprintf("%s:%d", s.File, s.Line),
			Count: count(s.Count), P50: duration(float64(s.P50NS)), P90: duration(float64(s.P90NS)), P99: duration(float64(s.P99NS)), Max: duration(float64(s.MaxNS)),
			Findings: s.Findings, Histogram: histogramSVG(s)}
		if s.Convoy != nil {
			w.Convoy = convoyText(s)
		}
		v.Waits = append(v.Waits, w)
	}
	for _, c := range r.charts {
		v.Charts = append(v.Charts, chartSVG(c))
	}
	return v
}

// sourceLines returns the hotspot's critical section (or the lines around
// its line) from its source file, marking the hotspot's and the findings'
// lines.
func sourceLines(decls *declIndex, h *Hotspot) []htmlLine {
	if h.absFile == "" {
		return nil
	}
	data, err := os.ReadFile(h.absFile)
	if err != nil {
		return nil
	}
	from, to := h.Line-3, h.Line+3
	if sec, ok := decls.section(h.absFile, h.Line); ok && h.Kind == Mutex && sec.to-sec.from < 40 {
		from, to = sec.from, sec.to
	}
	hot := map[int]bool{h.Line: true}
	for _, f := range h.Findings {
		if f.File == h.File {
			hot[f.Line] = true
		}
	}
	var out []htmlLine
	for i, text := range strings.Split(string(data), "\n") {
		if n := i + 1; n >= from && n <= to {
			out = append(out, htmlLine{N: n, Text: strings.ReplaceAll(text, "\t", "    "), Hot: hot[n]})
		}
	}
	return out
}

// svgText styles SVG text with attributes, not CSS, so that each SVG
// also renders on its own.
const svgText = `font-family="sans-serif" font-size="10"`

// seriesColors colour the chart's series.
var seriesColors = []string{"#c0392b", "#4a7fb5", "#2c7a3f", "#8e44ad", "#d68910", "#555555"}

// Histogram geometry, in SVG user units.
const (
	histW, histH      = 520, 150
	histLeft, histTop = 40, 16
	plotW, plotH      = histW - histLeft - 30, histH - histTop - 30
	bucketsPerDecade  = 5
)

// histogramSVG draws a wait site's waits on a logarithmic time axis, with
// its p50 and p99 marked.
func histogramSVG(s *WaitSite) template.HTML {
	if len(s.samples) == 0 {
		return ""
	}
	lo := math.Floor(math.Log10(math.Max(float64(s.samples[0]), 1)))
	hi := math.Ceil(math.Log10(math.Max(float64(s.samples[len(s.samples)-1]), 1) + 1e-9))
	if hi <= lo {
		hi = lo + 1
	}
	n := int(hi-lo) * bucketsPerDecade
	counts := make([]int, n)
	for _, d := range s.samples {
		i := int((math.Log10(math.Max(float64(d), 1)) - lo) * bucketsPerDecade)
		counts[min(max(i, 0), n-1)]++
	}
	peak := 1
	for _, c := range counts {
		peak = max(peak, c)
	}
	x := func(ns float64) float64 { return histLeft + (math.Log10(math.Max(ns, 1))-lo)/(hi-lo)*plotW }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="histogram of %s waits">`,
		histW, histH, histW, histH, template.HTMLEscapeString(s.Op))
	bw := float64(plotW) / float64(n)
	for i, c := range counts {
		if c == 0 {
			continue
		}
		h := float64(plotH) * math.Sqrt(float64(c)/float64(peak)) // square root: the tail's few waits stay visible
		fmt.Fprintf(&b, `<rect fill="#4a7fb5" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%d waits</title></rect>`,
			histLeft+float64(i)*bw+0.5, histTop+plotH-h, bw-1, h, c)
	}
	fmt.Fprintf(&b, `<line stroke="#666" x1="%d" y1="%d" x2="%d" y2="%d"/>`, histLeft, histTop+plotH, histLeft+plotW, histTop+plotH)
	for d := lo; d <= hi; d++ {
		px := x(math.Pow(10, d))
		fmt.Fprintf(&b, `<line stroke="#666" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/><text `+svgText+` x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			px, histTop+plotH, px, histTop+plotH+4, px, histTop+plotH+16, duration(math.Pow(10, d)))
	}
	for _, m := range []struct {
		name, color string
		ns          int64
	}{{"p50", "#2c7a3f", s.P50NS}, {"p99", "#c0392b", s.P99NS}} {
		px := x(float64(m.ns))
		// Labels sit right of their line, or left of it near the right edge.
		tx, anchor := px+3, "start"
		if px > histLeft+plotW*0.8 {
			tx, anchor = px-3, "end"
		}
		ty := histTop + 8
		if m.name == "p99" {
			ty += 12 // below p50's, should the two lines be close
		}
		fmt.Fprintf(&b, `<line stroke="%s" stroke-dasharray="3 2" x1="%.1f" y1="%d" x2="%.1f" y2="%d"/><text `+svgText+` x="%.1f" y="%d" text-anchor="%s">%s %s</text>`,
			m.color, px, histTop, px, histTop+plotH, tx, ty, anchor, m.name, duration(float64(m.ns)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// chartSVG draws the p99 of each benchmark series against its numeric
// parameter, on a logarithmic p99 axis: the field report's picture.
func chartSVG(c tailChart) template.HTML {
	const w, h, left, top, pw, ph = 560, 260, 60, 20, 340, 200
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for _, v := range s.P99 {
			if v > 0 {
				lo, hi = math.Min(lo, math.Log10(v)), math.Max(hi, math.Log10(v))
			}
		}
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi <= lo {
		hi = lo + 1
	}
	x := func(i int) float64 { return left + float64(i)*pw/float64(max(len(c.Xs)-1, 1)) }
	y := func(v float64) float64 { return top + ph - (math.Log10(v)-lo)/(hi-lo)*ph }
	var b strings.Builder
	fmt.Fprintf(&b, "<h3>%s: p99 by %s</h3>\n", template.HTMLEscapeString(c.Title), template.HTMLEscapeString(c.Param))
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="p99 by %s">`,
		w, h+20, w, h+20, template.HTMLEscapeString(c.Param))
	for d := lo; d <= hi; d++ {
		fmt.Fprintf(&b, `<line stroke="#e3e3e3" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text `+svgText+` x="%d" y="%.1f" text-anchor="end">%s</text>`,
			left, y(math.Pow(10, d)), left+pw, y(math.Pow(10, d)), left-4, y(math.Pow(10, d))+4, duration(math.Pow(10, d)))
	}
	for i, xv := range c.Xs {
		fmt.Fprintf(&b, `<text `+svgText+` x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(i), top+ph+16, template.HTMLEscapeString(fmt.Sprint(xv)))
	}
	fmt.Fprintf(&b, `<text `+svgText+` x="%d" y="%d" text-anchor="middle">%s</text>`, left+pw/2, top+ph+34, template.HTMLEscapeString(c.Param))
	for si, s := range c.Series {
		var pts []string
		for i, v := range s.P99 {
			if v > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
			}
		}
		color := seriesColors[si%len(seriesColors)]
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"><title>%s</title></polyline>`, color, strings.Join(pts, " "), template.HTMLEscapeString(s.Name))
		for _, pt := range pts {
			px, py, _ := strings.Cut(pt, ",")
			fmt.Fprintf(&b, `<circle fill="%s" cx="%s" cy="%s" r="3"/>`, color, px, py)
		}
		fmt.Fprintf(&b, `<text `+svgText+` fill="%s" x="%d" y="%d">%s</text>`, color, left+pw+12, top+14+18*si, template.HTMLEscapeString(s.Name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
