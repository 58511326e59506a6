package profiler

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	xtrace "golang.org/x/exp/trace"
)

// DefaultMaxTraceBytes bounds how much of one execution trace is read: a
// long benchmark traces hundreds of megabytes. The waits of the part read
// are reported, and the report says the trace was capped.
const DefaultMaxTraceBytes = 512 << 20

func (l Limits) maxTraceBytes() int64 {
	if l.MaxTraceBytes > 0 {
		return l.MaxTraceBytes
	}
	return DefaultMaxTraceBytes
}

// traceMagic starts every execution trace: "go 1.22 trace\x00\x00\x00".
var traceMagic = []byte("go 1.")

// isTrace reports whether data starts like an execution trace.
func isTrace(head []byte) bool {
	return bytes.HasPrefix(head, traceMagic) && bytes.Contains(head[:min(len(head), 16)], []byte(" trace"))
}

// A cappedReader reads at most n bytes of r, then reports io.EOF and
// remembers that the cap, not r, ended the data.
type cappedReader struct {
	r   io.Reader
	n   int64
	hit bool // the cap ended the data
	eof bool // r ended the data
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	c.eof = c.eof || err == io.EOF
	return n, err
}

// parseTrace reads the sync waits of an execution trace, at most limit
// bytes of it. capped says the limit cut the trace short (the waits read
// so far are returned); an error means the data is not a trace, or is
// corrupt or truncated.
func parseTrace(r io.Reader, limit int64) (set *waitSet, capped bool, err error) {
	defer func() {
		// The trace reader trusts its input more than a file deserves.
		if v := recover(); v != nil {
			set, capped, err = nil, false, fmt.Errorf("corrupt execution trace: the reader failed: %v", v)
		}
	}()
	cr := &cappedReader{r: r, n: limit}
	rd, err := xtrace.NewReader(cr)
	if err != nil {
		if cr.hit {
			return newWaitSet(), true, nil
		}
		return nil, false, fmt.Errorf("not an execution trace: %v", oneLine(err.Error()))
	}
	p := &traceParser{set: newWaitSet(), waiting: map[xtrace.GoID]pendingWait{}, writers: map[string]*queuedWriters{}, sites: map[xtrace.Stack]*stackSite{}}
	for {
		ev, err := rd.ReadEvent()
		if err == io.EOF {
			return p.set, false, nil
		}
		if err != nil {
			if cr.hit {
				return p.set, true, nil
			}
			if cr.eof || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, false, fmt.Errorf("truncated execution trace (it ends mid-batch: %v)", oneLine(err.Error()))
			}
			return nil, false, fmt.Errorf("corrupt execution trace: %v", oneLine(err.Error()))
		}
		p.event(ev)
	}
}

// A traceParser turns goroutine state transitions into waits.
type traceParser struct {
	set     *waitSet
	waiting map[xtrace.GoID]pendingWait
	writers map[string]*queuedWriters   // by owner
	sites   map[xtrace.Stack]*stackSite // stacks seen, resolved once
}

// A pendingWait is a goroutine blocked in a sync operation.
type pendingWait struct {
	start  xtrace.Time
	key    waitKey
	owner  string
	behind string // the queued writer a reader began waiting behind
	starts int64  // the owner's writer waits begun before this one
}

// queuedWriters follows the writers of one owner blocked in RWMutex.Lock.
type queuedWriters struct {
	n      int    // waiting now
	first  string // function of the writer that started the queue
	starts int64  // writer waits begun so far
	last   string // function of the writer that began waiting last
}

func (p *traceParser) event(ev xtrace.Event) {
	if ev.Kind() != xtrace.EventStateTransition {
		return
	}
	st := ev.StateTransition()
	if st.Resource.Kind != xtrace.ResourceGoroutine {
		return
	}
	g := st.Resource.Goroutine()
	from, to := st.Goroutine()
	if w, ok := p.waiting[g]; ok && to != xtrace.GoWaiting {
		q := p.writers[w.owner]
		if w.key.op == "RWMutex.RLock" && w.behind == "" && q != nil && q.starts > w.starts {
			// A writer began waiting while this reader did: the writer
			// was pending when the reader blocked, but parked after it
			// (Lock marks itself pending before it parks). A reader
			// blocked by a writer that already holds the lock sees no
			// writer wait begin.
			w.behind = q.last
		}
		p.set.site(w.key).add(p.set.rng, durationNS(ev.Time().Sub(w.start)), w.behind)
		if w.key.op == "RWMutex.Lock" {
			q.n--
		}
		delete(p.waiting, g)
	}
	if to != xtrace.GoWaiting || !from.Executing() || !strings.HasPrefix(st.Reason, "sync") {
		return
	}
	stk := st.Stack
	if stk == xtrace.NoStack {
		stk = ev.Stack()
	}
	site, ok := p.sites[stk]
	if !ok {
		site = siteOf(stk)
		p.sites[stk] = site
	}
	if site == nil {
		return
	}
	w := pendingWait{start: ev.Time(), key: site.key, owner: site.owner}
	q := p.writers[w.owner]
	if q == nil {
		q = &queuedWriters{}
		p.writers[w.owner] = q
	}
	switch w.key.op {
	case "RWMutex.RLock":
		w.starts = q.starts
		if q.n > 0 {
			w.behind = q.first
		}
	case "RWMutex.Lock":
		if q.n == 0 {
			q.first = w.key.fn
		}
		q.n++
		q.starts++
		q.last = w.key.fn
	}
	p.waiting[g] = w
}

// A stackSite is what a wait's stack says: its site and owner.
type stackSite struct {
	key   waitKey
	owner string
}

// siteOf returns the wait site of a blocking stack, or nil for a wait of
// the test harness, one with no user frame, or one not in a sync
// operation.
func siteOf(stk xtrace.Stack) *stackSite {
	var frames []frame
	for f := range stk.Frames() {
		frames = append(frames, frame{fn: stripTypeArgs(f.Func), file: f.File, line: int(f.Line)})
	}
	i, ok := hotspotFrame(frames)
	if !ok || classifyFrame(frames[i]) != userFrame {
		return nil
	}
	op := waitOp(frames, i)
	if op == "" {
		return nil
	}
	return &stackSite{key: waitKey{op: op, fn: frames[i].fn, file: frames[i].file, line: frames[i].line}, owner: ownerOf(frames[i].fn)}
}

// readTraceFile parses the execution trace in file name.
func readTraceFile(name string, limits Limits) (*waitSet, bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		return nil, false, errors.New("empty execution trace (0 bytes)")
	}
	return parseTrace(f, limits.maxTraceBytes())
}

// fileIsTrace reports whether the file name starts like an execution
// trace.
func fileIsTrace(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	return isTrace(head[:n])
}
