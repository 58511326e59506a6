package summary

import (
	"encoding/binary"
	"errors"
	"go/token"
	"strings"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// FuncFacts are encoded compactly (GobEncode): unitchecker writes the facts
// of a package, and again those of every method of its dependencies, into
// each package's vetx file, and that encoding set the vet process's peak
// memory on a big package (docs/measurements.md, "Memory on a huge
// package"). Gob's field-by-field form repeats every string: an effect's
// lock identity alone has nine, mostly the same path over and over, and
// reason chains share their functions. The compact form is
//
//	version byte
//	string table: count, then each string (a reference, length, bytes)
//	the summary, with every string an index into the table
//
// in unsigned varints (zig-zag for signed values). A string of the table
// that has a separator ('.', '/', '[') after its first byte is written as
// a reference to the string before its last separator (1 + its index) and
// the rest: the paths of one fact (".common.parent.parent.mu", "...") and
// its lock classes and function names ("(*example.com/pkg.T).mu",
// "pkg.(*T).Flush") share their prefixes. A reference of 0 is a string
// written whole. Of a lock identity, Key, Name and Full are written as a
// prefix and a flag when they end in Path, NamePath and FullPath: "p0" and
// ".mu" instead of "p0.mu" and ".mu".
//
// Decoding is lazy: GobDecode keeps the bytes, and the summary is decoded
// when a package asks for it (Summary). unitchecker re-exports the facts of
// the dependencies' methods, most of which no one asks for: GobEncode hands
// back the bytes it was given.

// factVersion is the first byte of an encoded FuncFact.
const factVersion = 12

// GobEncode encodes the fact compactly (see above).
func (f *FuncFact) GobEncode() ([]byte, error) {
	if f.raw != nil {
		return f.raw, nil
	}
	return encodeSummary(&f.Summary), nil
}

// GobDecode keeps a copy of the encoded fact, decoded on first use.
func (f *FuncFact) GobDecode(data []byte) error {
	if len(data) == 0 || data[0] != factVersion {
		return errors.New("lockfacts: unknown fact encoding")
	}
	*f = FuncFact{raw: append([]byte(nil), data...)}
	return nil
}

// decoded returns the fact's summary, decoding it if the fact came from
// another package's vetx file.
func (f *FuncFact) decoded() (*Summary, error) {
	if f.raw == nil {
		return &f.Summary, nil
	}
	s, err := decodeSummary(f.raw)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// factWriter builds an encoded summary: the body, and the string table
// that is written before it.
type factWriter struct {
	body    []byte
	entries []tableEntry
	indices map[string]int
}

// A tableEntry is a string of the table: the string at ref-1 (none if ref
// is 0) followed by suffix.
type tableEntry struct {
	ref    uint64
	suffix string
}

func (w *factWriter) uint(v uint64) { w.body = binary.AppendUvarint(w.body, v) }
func (w *factWriter) int(v int64)   { w.body = binary.AppendVarint(w.body, v) }
func (w *factWriter) len(n int)     { w.uint(uint64(n)) }

func (w *factWriter) bool(b bool) {
	if b {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *factWriter) index(s string) uint64 {
	if i, ok := w.indices[s]; ok {
		return uint64(i)
	}
	e := tableEntry{suffix: s}
	if p := strings.LastIndexAny(s, "./["); p > 0 {
		e = tableEntry{ref: w.index(s[:p]) + 1, suffix: s[p:]}
	}
	i := len(w.entries)
	w.indices[s] = i
	w.entries = append(w.entries, e)
	return uint64(i)
}

func (w *factWriter) string(s string) { w.uint(w.index(s)) }

func (w *factWriter) strings(ss []string) {
	w.len(len(ss))
	for _, s := range ss {
		w.string(s)
	}
}

// suffixed writes s, which usually ends in suffix (written elsewhere), as
// its prefix and a flag.
func (w *factWriter) suffixed(s, suffix string) {
	if suffix != "" && strings.HasSuffix(s, suffix) {
		w.uint(w.index(s[:len(s)-len(suffix)])<<1 | 1)
		return
	}
	w.uint(w.index(s) << 1)
}

func (w *factWriter) id(id *lockstate.ID) {
	w.string(id.Path)
	w.string(id.NamePath)
	w.string(id.FullPath)
	w.suffixed(id.Key, id.Path)
	w.suffixed(id.Name, id.NamePath)
	w.suffixed(id.Full, id.FullPath)
	w.string(id.Class)
	w.uint(uint64(id.Root))
	w.int(int64(id.RootIndex))
	w.int(int64(id.Arg))
	w.string(id.ArgPath)
}

func (w *factWriter) conds(cs []lockstate.Cond) {
	w.len(len(cs))
	for _, c := range cs {
		w.int(int64(c.Param))
		w.string(c.Path)
		w.bool(c.Nil)
		w.bool(c.Value)
		w.int(int64(c.Cmp))
		w.int(c.K)
		w.string(c.Opt)
		w.string(c.Setters)
	}
}

func (w *factWriter) effects(es []lockstate.Effect) {
	w.len(len(es))
	for i := range es {
		e := &es[i]
		w.id(&e.Lock)
		w.bool(e.Release)
		w.uint(uint64(e.Mode))
		w.bool(e.Returned)
		w.conds(e.When)
		w.strings(e.Outside)
		w.bool(e.Forever)
		w.bool(e.Once)
	}
}

func (w *factWriter) reason(r *Reason) {
	if r == nil {
		w.uint(0)
		return
	}
	w.uint(1)
	w.string(r.Kind)
	w.strings(r.Chain)
	w.string(r.CondLock)
	w.strings(r.Released)
	w.string(r.Plausible)
	w.conds(r.When)
	w.bool(r.Guarded)
	w.bool(r.Join)
	w.strings(r.JoinTakes)
}

func (w *factWriter) ints(xs []int) {
	w.len(len(xs))
	for _, x := range xs {
		w.int(int64(x))
	}
}

// encodeSummary encodes s (all but its version counter).
func encodeSummary(s *Summary) []byte {
	w := &factWriter{indices: map[string]int{}}
	w.effects(s.Effects)
	w.len(len(s.Blocks))
	for _, b := range s.Blocks {
		w.reason(b)
	}
	w.reason(s.Callback)
	w.reason(s.Unknown)
	w.ints(s.CallsParams)
	w.len(len(s.CalledReleased))
	for _, pc := range s.CalledReleased {
		w.int(int64(pc.Param))
		w.strings(pc.Classes)
	}
	w.ints(s.InvokesParams)
	w.strings(s.Acquires)
	w.effects(s.Takes)
	w.bool(s.NoReturn)
	w.bool(s.Fresh)
	w.ints(s.Starts)
	w.len(len(s.Zeros))
	for _, z := range s.Zeros {
		w.int(int64(z.Result))
		w.string(z.Field)
		w.len(len(z.Unless))
		for _, u := range z.Unless {
			w.conds(u)
		}
	}

	n := 1 + binary.MaxVarintLen64 + len(w.body)
	for _, e := range w.entries {
		n += 2*binary.MaxVarintLen64 + len(e.suffix)
	}
	out := make([]byte, 0, n)
	out = append(out, factVersion)
	out = binary.AppendUvarint(out, uint64(len(w.entries)))
	for _, e := range w.entries {
		out = binary.AppendUvarint(out, e.ref)
		out = binary.AppendUvarint(out, uint64(len(e.suffix)))
		out = append(out, e.suffix...)
	}
	return append(out, w.body...)
}

var errCorrupt = errors.New("lockfacts: corrupt fact")

// factReader decodes what factWriter wrote. The first error sticks, and
// reads after it return zero values.
type factReader struct {
	data []byte
	strs []string
	err  error
}

func (r *factReader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.data = nil
}

func (r *factReader) uint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *factReader) int() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *factReader) bool() bool { return r.uint() != 0 }

// len reads a count of elements, each at least one byte long.
func (r *factReader) len() int {
	n := r.uint()
	if n > uint64(len(r.data)) {
		r.fail()
		return 0
	}
	return int(n)
}

func (r *factReader) lookup(i uint64) string {
	if i >= uint64(len(r.strs)) {
		r.fail()
		return ""
	}
	return r.strs[i]
}

func (r *factReader) string() string { return r.lookup(r.uint()) }

func (r *factReader) strings() []string {
	return readList(r, func(s *string) { *s = r.string() })
}

// readList reads a length, then that many elements with read; an empty
// list is nil, as it was before encoding.
func readList[T any](r *factReader, read func(*T)) []T {
	n := r.len()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		read(&out[i])
	}
	return out
}

func (r *factReader) suffixed(suffix string) string {
	v := r.uint()
	s := r.lookup(v >> 1)
	if v&1 != 0 {
		return s + suffix
	}
	return s
}

func (r *factReader) id() lockstate.ID {
	var id lockstate.ID
	id.Path = r.string()
	id.NamePath = r.string()
	id.FullPath = r.string()
	id.Key = r.suffixed(id.Path)
	id.Name = r.suffixed(id.NamePath)
	id.Full = r.suffixed(id.FullPath)
	id.Class = r.string()
	id.Root = lockstate.RootKind(r.uint())
	id.RootIndex = int(r.int())
	id.Arg = int(r.int())
	id.ArgPath = r.string()
	return id
}

func (r *factReader) conds() []lockstate.Cond {
	return readList(r, func(c *lockstate.Cond) {
		c.Param = int(r.int())
		c.Path = r.string()
		c.Nil = r.bool()
		c.Value = r.bool()
		c.Cmp = token.Token(r.int())
		c.K = r.int()
		c.Opt = r.string()
		c.Setters = r.string()
	})
}

func (r *factReader) effects() []lockstate.Effect {
	return readList(r, func(e *lockstate.Effect) {
		e.Lock = r.id()
		e.Release = r.bool()
		e.Mode = lockstate.Mode(r.uint())
		e.Returned = r.bool()
		e.When = r.conds()
		e.Outside = r.strings()
		e.Forever = r.bool()
		e.Once = r.bool()
	})
}

func (r *factReader) reason() *Reason {
	if !r.bool() {
		return nil
	}
	return &Reason{
		Kind:      r.string(),
		Chain:     r.strings(),
		CondLock:  r.string(),
		Released:  r.strings(),
		Plausible: r.string(),
		When:      r.conds(),
		Guarded:   r.bool(),
		Join:      r.bool(),
		JoinTakes: r.strings(),
	}
}

func (r *factReader) ints() []int {
	return readList(r, func(x *int) { *x = int(r.int()) })
}

// decodeSummary decodes what encodeSummary wrote.
func decodeSummary(data []byte) (*Summary, error) {
	if len(data) == 0 || data[0] != factVersion {
		return nil, errCorrupt
	}
	r := &factReader{data: data[1:]}
	r.strs = make([]string, r.len())
	// The strings are spelled out one after the other in buf, and then
	// cut from one string.
	var buf []byte
	bounds := make([][2]int, len(r.strs))
	for i := range r.strs {
		ref := r.uint()
		n := r.len()
		if r.err != nil {
			break
		}
		if ref > uint64(i) {
			r.fail() // a reference to itself or to a later string
			break
		}
		start := len(buf)
		if ref > 0 {
			b := bounds[ref-1]
			buf = append(buf, buf[b[0]:b[1]]...)
		}
		buf = append(buf, r.data[:n]...)
		r.data = r.data[n:]
		bounds[i] = [2]int{start, len(buf)}
	}
	all := string(buf)
	for i, b := range bounds {
		r.strs[i] = all[b[0]:b[1]]
	}
	s := &Summary{}
	s.Effects = r.effects()
	s.Blocks = readList(r, func(b **Reason) { *b = r.reason() })
	s.Callback = r.reason()
	s.Unknown = r.reason()
	s.CallsParams = r.ints()
	s.CalledReleased = readList(r, func(pc *ParamClasses) {
		pc.Param = int(r.int())
		pc.Classes = r.strings()
	})
	s.InvokesParams = r.ints()
	s.Acquires = r.strings()
	s.Takes = r.effects()
	s.NoReturn = r.bool()
	s.Fresh = r.bool()
	s.Starts = r.ints()
	s.Zeros = readList(r, func(z *ZeroField) {
		z.Result = int(r.int())
		z.Field = r.string()
		z.Unless = readList(r, func(u *[]lockstate.Cond) { *u = r.conds() })
	})
	if r.err == nil && len(r.data) != 0 {
		r.fail()
	}
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}
