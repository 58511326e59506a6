package profiler

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A BenchResult is one benchmark result line of a test binary's output,
// kept for the tail chart of the HTML report: its name (without the
// -GOMAXPROCS suffix) and metrics by unit ("ns/op", "p99-ns").
type BenchResult struct {
	Package string
	Name    string
	Metrics map[string]float64
}

// procsSuffix is the -GOMAXPROCS suffix of a benchmark name.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// parseBenchResults reads the result lines of go test -bench output.
func parseBenchResults(pkg, out string) []BenchResult {
	var res []BenchResult
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // not a result line (a log line starting with a name)
		}
		r := BenchResult{Package: pkg, Name: procsSuffix.ReplaceAllString(f[0], ""), Metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				r.Metrics = nil
				break
			}
			r.Metrics[f[i+1]] = v
		}
		if r.Metrics != nil {
			res = append(res, r)
		}
	}
	return res
}

// A tailChart is a family of benchmarks that report a p99: the p99 of each
// series (the name with the numeric parameter removed) at each value of
// the numeric parameter, such as goroutines=1..16.
type tailChart struct {
	Title  string
	Param  string    // the x axis, "goroutines"
	Xs     []float64 // its values, ascending
	Series []tailSeries
}

type tailSeries struct {
	Name string
	P99  []float64 // ns, by Xs; 0 where the series has no result
}

// tailCharts groups benchmark results with a p99-ns metric by the
// benchmark and its numeric parameter.
func tailCharts(results []BenchResult) []tailChart {
	type key struct{ bench, param string }
	charts := map[key]*tailChart{}
	points := map[key]map[string]map[float64]float64{}
	for _, r := range results {
		p99, ok := r.Metrics["p99-ns"]
		if !ok {
			continue
		}
		parts := strings.Split(r.Name, "/")
		for i, part := range parts[1:] {
			name, val, ok := strings.Cut(part, "=")
			x, err := strconv.ParseFloat(val, 64)
			if !ok || err != nil {
				continue
			}
			rest := slices.Delete(slices.Clone(parts[1:]), i, i+1)
			k := key{parts[0], name}
			if charts[k] == nil {
				charts[k] = &tailChart{Title: parts[0], Param: name}
				points[k] = map[string]map[float64]float64{}
			}
			series := strings.Join(rest, "/")
			if points[k][series] == nil {
				points[k][series] = map[float64]float64{}
			}
			points[k][series][x] = p99
			if !slices.Contains(charts[k].Xs, x) {
				charts[k].Xs = append(charts[k].Xs, x)
			}
			break
		}
	}
	var out []tailChart
	for k, c := range charts {
		slices.Sort(c.Xs)
		for _, name := range slices.Sorted(maps.Keys(points[k])) {
			s := tailSeries{Name: name}
			for _, x := range c.Xs {
				s.P99 = append(s.P99, points[k][name][x])
			}
			c.Series = append(c.Series, s)
		}
		if len(c.Xs) > 1 {
			out = append(out, *c)
		}
	}
	slices.SortFunc(out, func(a, b tailChart) int { return strings.Compare(a.Title+a.Param, b.Title+b.Param) })
	return out
}
