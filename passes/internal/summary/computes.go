package summary

import (
	"go/types"
)

// Computes reports whether values of the func type t compute a number from
// the bytes of a key or a value: every parameter is plain data (a number,
// a string, a bool, or a slice, array or map of data), one of them is text
// or bytes (a string, a []byte, a []string) or a generic key (a type
// parameter constrained only by comparable), and every result is a number.
// Such a function is a size, a hash or a weight (a cache's sizer, a
// postings label sizer, a weigher): whoever supplies it writes a
// calculation, not a hook that does I/O or waits for another goroutine, so
// a call of one that the package's callers supply is only a plausible
// callback. Other shapes stay proven callbacks: a func() int reads some
// state, often under its owner's lock (memberlist's NumNodes); a function
// of numbers to a number can be an accountant that commits what it
// returns (quic-go's send limiter); and a result of any other type (an
// error, an interface, nothing at all as for a queued job) is a hook.
//
// A predicate over values is one too: a single bool result, from
// parameters that are all passed by value (numbers, strings, bools, struct
// or array values such as a time.Time or a url.URL, slices and maps of
// plain data). It decides on copies of what it is given (an expiry test,
// a status filter, a flag mapping); a predicate handed a pointer or an
// interface can reach and change shared state (raft's observer filter,
// which may deregister its observer), and stays a proven callback, unless
// it compares two values of one type (a comparator: less(a, b *Item),
// changed(old, new *Namespace)), pure by contract.
//
// A sort routine is one as well: a function of a sort.Interface alone and
// nothing else (a search request's replacement for sort.Sort, handed the
// hits to order). It may only call Len, Less and Swap on what it is given,
// by the contract of the type its one parameter has.
func Computes(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if ok && sorter(sig) {
		return true
	}
	if !ok || sig.Results().Len() == 0 || sig.TypeParams().Len() > 0 {
		return false
	}
	if predicateOverValues(sig) || comparator(sig) {
		return true
	}
	for v := range sig.Results().Variables() {
		if !number(v.Type()) {
			return false
		}
	}
	return keyedByText(sig)
}

// keyedByText reports whether every parameter of sig is plain data and
// one of them is text: the function is handed a key or a value's bytes.
func keyedByText(sig *types.Signature) bool {
	text := false
	for v := range sig.Params().Variables() {
		if !plainData(v.Type(), 0) {
			return false
		}
		text = text || textual(v.Type())
	}
	return text
}

// textual reports whether t is a string, or a slice or array of bytes or
// strings.
func textual(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return genericKey(tp)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		return textual(u.Elem()) || isByte(u.Elem())
	case *types.Array:
		return textual(u.Elem()) || isByte(u.Elem())
	}
	return false
}

// genericKey reports whether tp is a type parameter constrained only to
// be comparable (K comparable): a generic container's key, which its
// sizer or hash reads as a key's bytes.
func genericKey(tp *types.TypeParam) bool {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	return ok && iface.NumMethods() == 0 && iface.IsComparable() && !iface.IsMethodSet()
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Rune)
}

// ComputesWhy is the reason a call of a func value that Computes is only
// plausible.
func ComputesWhy(t types.Type) string {
	what := " computes a number"
	if sig, ok := t.Underlying().(*types.Signature); ok && predicateOverValues(sig) {
		what = " is a predicate over values"
	} else if ok && comparator(sig) {
		what = " compares two values"
	} else if ok && sorter(sig) {
		what = " sorts what it is given"
	}
	return "a func value of type " + types.TypeString(t.Underlying(), (*types.Package).Name) + what
}

// comparator reports whether sig compares two values of one type: a
// single bool result, two parameters of identical types, and any others
// plain data passed by value (less(a, b), equal(a, b), changed(cluster,
// old, new)); no parameter is an interface. Like sort.Interface's Less, it
// is pure by contract, whatever the two values point to. Two interfaces
// (func(key, value any) bool) are an entry handed to a filter.
func comparator(sig *types.Signature) bool {
	if sig.Results().Len() != 1 || sig.Params().Len() < 2 || sig.Variadic() {
		return false
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	params := sig.Params()
	paired := false
	for i := range params.Len() {
		t := params.At(i).Type()
		if _, isIface := t.Underlying().(*types.Interface); isIface {
			return false
		}
		twins := 0
		for j := range params.Len() {
			if j != i && types.Identical(t, params.At(j).Type()) {
				twins++
			}
		}
		switch {
		case twins == 1:
			paired = true
		case !byValue(t):
			return false // a reference with no twin, or one of three
		}
	}
	return paired
}

// sorter reports whether sig is func(sort.Interface): a sort routine, with
// no results and no other parameters.
func sorter(sig *types.Signature) bool {
	if sig.Results().Len() != 0 || sig.Params().Len() != 1 || sig.Variadic() {
		return false
	}
	named, ok := sig.Params().At(0).Type().(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "sort" && named.Obj().Name() == "Interface"
}

// predicateOverValues reports whether sig returns a bool only, from at
// least one parameter, each passed by value.
func predicateOverValues(sig *types.Signature) bool {
	if sig.Results().Len() != 1 || sig.Params().Len() == 0 || sig.Variadic() {
		return false
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	for v := range sig.Params().Variables() {
		if !byValue(v.Type()) {
			return false
		}
	}
	return true
}

// byValue reports whether a parameter of type t hands the callee a copy:
// plain data, or a struct or array value (whatever pointers it holds
// inside, such as a time.Time's location, are not the caller's shared
// state).
func byValue(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return plainData(t, 0)
}

func number(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// plainData reports whether t holds only data: basic values and slices,
// arrays and maps of them (no pointer, func, channel or interface through
// which the callee could reach shared state).
func plainData(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	if tp, ok := t.(*types.TypeParam); ok {
		return genericKey(tp)
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer && u.Kind() != types.Uintptr
	case *types.Slice:
		return plainData(u.Elem(), depth+1)
	case *types.Array:
		return plainData(u.Elem(), depth+1)
	case *types.Map:
		return plainData(u.Key(), depth+1) && plainData(u.Elem(), depth+1)
	}
	return false
}
