package profiler

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// A WaitSite is where goroutines waited in one sync operation, as an
// execution trace records it: every wait, from the goroutine blocking to
// its becoming runnable again, at the first frame outside sync, runtime
// and internal packages. Its percentiles show the tail that a profile's
// total and mean hide.
type WaitSite struct {
	Rank     int    `json:"rank"` // by p99, then count
	Op       string `json:"op"`   // the sync frame: Mutex.Lock, RWMutex.RLock, RWMutex.Lock, WaitGroup.Wait, Cond.Wait, ...
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Count    int64  `json:"count"`
	TotalNS  int64  `json:"total_ns"`
	P50NS    int64  `json:"p50_ns"`
	P90NS    int64  `json:"p90_ns"`
	P99NS    int64  `json:"p99_ns"`
	MaxNS    int64  `json:"max_ns"`
	// Convoy, for an RWMutex.RLock site, counts the reader waits that
	// began while a writer of the same owner was queued in RWMutex.Lock:
	// the writer-preferring lock's convoy.
	Convoy   *Convoy   `json:"convoy,omitempty"`
	Findings []Finding `json:"findings"`

	absFile string
	samples []int64 // sorted, for the HTML report's histogram
}

// A Convoy is the part of a reader site's waits that queued behind a
// waiting writer.
type Convoy struct {
	Waits  int64  `json:"waits"`
	P99NS  int64  `json:"p99_ns"`
	Writer string `json:"writer"` // the function of the first writer seen queued
}

// maxWaitSamples bounds the durations kept per site; beyond it a
// reservoir sample keeps the percentiles unbiased (count, total and max
// stay exact).
const maxWaitSamples = 1 << 16

// waitKey identifies a wait site.
type waitKey struct {
	op   string
	fn   string
	file string
	line int
}

// waitAcc accumulates one site's waits.
type waitAcc struct {
	key          waitKey
	count, total int64
	max          int64
	samples      []int64
	convoy       []int64 // reader waits that began behind a queued writer
	convoyCount  int64
	writer       string
}

func (a *waitAcc) add(rng *rand.Rand, d int64, behindWriter string) {
	a.count++
	a.total += d
	a.max = max(a.max, d)
	a.samples = reservoir(rng, a.samples, a.count, d)
	if behindWriter != "" {
		a.convoyCount++
		a.convoy = reservoir(rng, a.convoy, a.convoyCount, d)
		if a.writer == "" {
			a.writer = behindWriter
		}
	}
}

// reservoir adds the n'th value d to a sample of at most maxWaitSamples.
func reservoir(rng *rand.Rand, s []int64, n, d int64) []int64 {
	if len(s) < maxWaitSamples {
		return append(s, d)
	}
	if i := rng.Int64N(n); i < maxWaitSamples {
		s[i] = d
	}
	return s
}

// A waitSet is the waits of one or more traces, by site.
type waitSet struct {
	sites map[waitKey]*waitAcc
	rng   *rand.Rand
}

func newWaitSet() *waitSet {
	return &waitSet{sites: map[waitKey]*waitAcc{}, rng: rand.New(rand.NewPCG(1, 2))} // fixed seed: reports are reproducible
}

func (s *waitSet) site(k waitKey) *waitAcc {
	a := s.sites[k]
	if a == nil {
		a = &waitAcc{key: k}
		s.sites[k] = a
	}
	return a
}

// merge adds the waits of o to s.
func (s *waitSet) merge(o *waitSet) {
	for k, b := range o.sites {
		a := s.site(k)
		if a.count == 0 {
			*a = *b
			continue
		}
		for _, d := range b.samples {
			a.samples = reservoir(s.rng, a.samples, a.count+1, d)
			a.count++
		}
		a.count += b.count - int64(len(b.samples))
		for _, d := range b.convoy {
			a.convoy = reservoir(s.rng, a.convoy, a.convoyCount+1, d)
			a.convoyCount++
		}
		a.convoyCount += b.convoyCount - int64(len(b.convoy))
		a.total += b.total
		a.max = max(a.max, b.max)
		if a.writer == "" {
			a.writer = b.writer
		}
	}
}

// sitesByTail returns the sites, worst p99 first.
func (s *waitSet) sitesByTail(paths pathFunc) []*WaitSite {
	var out []*WaitSite
	for _, a := range s.sites {
		sorted := slices.Clone(a.samples)
		slices.Sort(sorted)
		w := &WaitSite{
			Op: a.key.op, Function: a.key.fn, File: paths(a.key.file), Line: a.key.line, absFile: a.key.file,
			Count: a.count, TotalNS: a.total, MaxNS: a.max,
			P50NS: percentile(sorted, 50), P90NS: percentile(sorted, 90), P99NS: percentile(sorted, 99),
			Findings: []Finding{}, samples: sorted,
		}
		if a.convoyCount > 0 {
			c := slices.Clone(a.convoy)
			slices.Sort(c)
			w.Convoy = &Convoy{Waits: a.convoyCount, P99NS: percentile(c, 99), Writer: a.writer}
		}
		out = append(out, w)
	}
	// Lock waits first, then the other sync waits (WaitGroup.Wait,
	// Cond.Wait, Once.Do): a load generator waiting for its workers has
	// the longest waits of all, and says nothing about a lock.
	slices.SortFunc(out, func(x, y *WaitSite) int {
		return cmp.Or(cmp.Compare(lockOpRank(x.Op), lockOpRank(y.Op)), cmp.Compare(y.P99NS, x.P99NS), cmp.Compare(y.Count, x.Count),
			cmp.Compare(x.Function, y.Function), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Op, y.Op))
	})
	for i, w := range out {
		w.Rank = i + 1
	}
	return out
}

// lockOpRank is 0 for a wait to acquire a lock, 1 for any other sync wait.
func lockOpRank(op string) int {
	switch op {
	case "Mutex.Lock", "RWMutex.Lock", "RWMutex.RLock":
		return 0
	}
	return 1
}

// percentile returns the nearest-rank p'th percentile of sorted values.
func percentile(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100 // ceil(n*p/100), 1-based
	return sorted[max(i, 1)-1]
}

// waitOp names the sync operation of a wait's stack (leaf first, up to the
// site at index site): the outermost sync frame, "RWMutex.RLock" for
// sync.(*RWMutex).RLock. A wait inside a sync.Mutex that RWMutex.Lock
// takes is the writer's wait.
func waitOp(frames []frame, site int) string {
	op := ""
	for _, f := range frames[:site] {
		if name, ok := strings.CutPrefix(f.fn, "sync."); ok {
			name = strings.NewReplacer("(*", "", ")", "").Replace(name)
			op = name
		}
	}
	return op
}

// ownerOf returns what a wait site's lock most likely belongs to, for
// pairing readers with writers: the receiver type of a method
// ("pkg.(*Cache)"), or the package of a function.
func ownerOf(fn string) string {
	decl := declName(fn)
	if i := strings.LastIndex(decl, ")."); i >= 0 {
		return decl[:i+1]
	}
	return packageOf(decl)
}

// durationNS converts a trace duration.
func durationNS(d time.Duration) int64 { return int64(d) }
