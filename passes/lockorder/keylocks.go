package lockorder

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A registry of per-key locks keeps each key's lock in a map guarded by
// the registry's own lock (locks map[string]*sync.Mutex). The engine names
// a lock by the path it is reached by, and a lock looked up in a map (l, ok
// := r.locks[key], possibly created on a miss, possibly returned by a
// helper) is a value with no path: it has no class, so it joins no
// lock-order edge. keyLocks gives such a lock the class of the map's
// elements, "(*pkg.Registry).locks[]", and remembers the object whose map
// it is, so that the registry's lock and a key's lock of the same registry
// are related instances.

// A keyLock is a lock that is an element of a container field.
type keyLock struct {
	class string    // the container's element class: "(*pkg.T).f[]"
	owner ssa.Value // the object whose field the container is
}

// maxKeyLockDepth bounds the helpers followed back to a map lookup.
const maxKeyLockDepth = 3

// keyLocks returns, by lock key, f's acquired locks that have no class of
// their own but are elements of a container field.
func (c *checker) keyLocks(f *summary.Func) map[string]keyLock {
	var out map[string]keyLock
	for call, op := range lockOps(f.Fn) {
		if _, ok := call.(*ssa.Call); !ok || op.Kind != lockstate.Acquire && op.Kind != lockstate.Release {
			continue
		}
		id := f.Flow.IDOf(op.Recv)
		if id.Full != "" || (id.Root != lockstate.RootValue && id.Root != lockstate.RootLocal) {
			continue
		}
		if _, done := out[id.Key]; done {
			continue
		}
		if kl, ok := c.containerElem(f.Fn, op.Recv, 0, map[ssa.Value]*elemResult{}); ok {
			if out == nil {
				out = map[string]keyLock{}
			}
			out[id.Key] = kl
		}
	}
	return out
}

// containerElem reports whether v, in fn, is an element of a container
// field, looked up, indexed, created on a miss (a phi of the lookup and a
// fresh lock), or returned by a helper of the package that does so.
func (c *checker) containerElem(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]*elemResult) (keyLock, bool) {
	kl, st := c.elem(fn, v, depth, seen)
	return kl, st == elemYes
}

// elemResult memoises elem: a value met again while it is being worked
// out (a loop through a phi, the result slot two returns load) adds
// nothing.
type elemResult struct {
	kl    keyLock
	state elemState
}

type elemState uint8

const (
	elemPending elemState = iota // being worked out: adds nothing
	elemNo
	elemYes
)

// elem is containerElem with the memo: each value is looked at once.
func (c *checker) elem(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]*elemResult) (keyLock, elemState) {
	if r, ok := seen[v]; ok {
		return r.kl, r.state
	}
	r := &elemResult{}
	seen[v] = r
	kl, ok := c.elemOf(fn, v, depth, seen)
	r.kl, r.state = kl, elemNo
	if ok {
		r.state = elemYes
	}
	return r.kl, r.state
}

func (c *checker) elemOf(fn *ssa.Function, v ssa.Value, depth int, seen map[ssa.Value]*elemResult) (keyLock, bool) {
	switch x := v.(type) {
	case *ssa.ChangeType:
		return c.elemOf(fn, x.X, depth, seen)
	case *ssa.MakeInterface:
		return c.elemOf(fn, x.X, depth, seen)
	case *ssa.ChangeInterface:
		return c.elemOf(fn, x.X, depth, seen)
	case *ssa.UnOp:
		switch y := x.X.(type) {
		case *ssa.IndexAddr:
			return fieldContainer(y.X)
		case *ssa.Alloc:
			// A local variable, such as the result slot a function
			// with a defer returns from: every value stored to it.
			var stored []ssa.Value
			for _, r := range *y.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == y {
					stored = append(stored, st.Val)
				}
			}
			return c.agree(fn, stored, depth, seen)
		}
	case *ssa.Lookup:
		return fieldContainer(x.X)
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.Lookup:
			if x.Index == 0 {
				return fieldContainer(t.X)
			}
		case *ssa.Call:
			return c.returnedElem(t, x.Index, depth, seen)
		}
	case *ssa.Call:
		return c.returnedElem(x, 0, depth, seen)
	case *ssa.Phi:
		return c.agree(fn, x.Edges, depth, seen)
	}
	return keyLock{}, false
}

// agree reports whether the values (a phi's edges, the values stored to a
// variable) that are not fresh locks or nil are all one container's
// elements, of one object.
func (c *checker) agree(fn *ssa.Function, vals []ssa.Value, depth int, seen map[ssa.Value]*elemResult) (keyLock, bool) {
	var found keyLock
	ok := false
	for _, v := range vals {
		if fresh(v) || summary.IsNil(v) {
			continue
		}
		kl, st := c.elem(fn, v, depth, seen)
		if st == elemPending {
			continue
		}
		if st == elemNo || (ok && (kl.class != found.class || kl.owner != found.owner)) {
			return keyLock{}, false
		}
		found, ok = kl, true
	}
	return found, ok
}

// returnedElem reports whether the i'th result of a call of a function of
// the package is an element of a container field of one of its arguments,
// on every return.
func (c *checker) returnedElem(call *ssa.Call, i, depth int, seen map[ssa.Value]*elemResult) (keyLock, bool) {
	callee := summary.StaticCallee(call.Common())
	if callee == nil || depth >= maxKeyLockDepth || c.res.Func(callee) == nil {
		return keyLock{}, false
	}
	rk := returnKey{callee, i, depth}
	r, done := c.returned[rk]
	if !done {
		r = c.returnedIn(callee, i, depth, seen)
		if c.returned == nil {
			c.returned = map[returnKey]returned{}
		}
		c.returned[rk] = r
	}
	if !r.ok || r.param >= len(call.Call.Args) {
		return keyLock{}, false
	}
	return keyLock{class: r.class, owner: call.Call.Args[r.param]}, true
}

// returnKey identifies a function's result, looked at depth calls deep.
type returnKey struct {
	fn    *ssa.Function
	i     int
	depth int
}

// returned is what returnedIn found: the i'th result is an element of the
// container field class of the param'th parameter.
type returned struct {
	class string
	param int
	ok    bool
}

// returnedIn reports whether the i'th result of callee is, on every
// return, an element of a container field of one of its parameters.
func (c *checker) returnedIn(callee *ssa.Function, i, depth int, seen map[ssa.Value]*elemResult) returned {
	var found returned
	for _, b := range callee.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || i >= len(ret.Results) || summary.IsNil(ret.Results[i]) {
			continue // a nil result (the recover block's zero value) locks nothing
		}
		kl, st := c.elem(callee, ret.Results[i], depth+1, seen)
		if st == elemPending {
			continue
		}
		if st == elemNo {
			return returned{}
		}
		p, isParam := kl.owner.(*ssa.Parameter)
		if !isParam {
			return returned{}
		}
		j := paramIndex(callee, p)
		if j < 0 || (found.ok && (kl.class != found.class || j != found.param)) {
			return returned{}
		}
		found = returned{class: kl.class, param: j, ok: true}
	}
	return found
}

// fieldContainer reports whether the container x is loaded from a field
// of a struct (x is *p.f or p.f's address).
func fieldContainer(x ssa.Value) (keyLock, bool) {
	if u, ok := x.(*ssa.UnOp); ok {
		x = u.X
	}
	fa, ok := x.(*ssa.FieldAddr)
	if !ok {
		return keyLock{}, false
	}
	class := lockstate.FieldClass(fa)
	if class == "" {
		return keyLock{}, false
	}
	return keyLock{class: class + "[]", owner: fa.X}, true
}

// fresh reports whether v is a newly allocated value (a lock created on a
// miss), which no other goroutine holds yet.
func fresh(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x.Heap
	case *ssa.ChangeType:
		return fresh(x.X)
	case *ssa.MakeInterface:
		return fresh(x.X)
	}
	return false
}

func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}
