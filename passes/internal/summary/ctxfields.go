package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// This file reads, for ctxpairs.go, what the package stores into its
// fields: whether a field only ever holds one result of one
// context.WithCancel-family call (so that s.cancel() cancels s.ctx), and
// whether it is only set where its object is allocated (so that no call on
// an existing object replaces it).

// ctxStore describes a field of the package that only ever holds one result
// of one context.WithCancel-family call.
type ctxStore struct {
	call  *ssa.Call
	index int         // 0: the context, 1: the cancel func
	bases []ssa.Value // the objects the package stores the result into
}

// fieldInfo is what the package's stores say of one of its fields.
type fieldInfo struct {
	atBirth bool      // see setAtBirth
	ctx     *ctxStore // see ctxStoreOf
}

// ctxStoreOf returns what the package stores into field f when that is
// only ever one result of one WithCancel-family call, and nil otherwise.
func (a *analyzer) ctxStoreOf(f *types.Var) *ctxStore {
	if info := a.fieldInfoOf(f); info != nil {
		return info.ctx
	}
	return nil
}

// fieldInfoOf returns what the package's stores say of field f, or nil
// when f can be set from elsewhere (exported, another package's) or its
// address is taken.
func (a *analyzer) fieldInfoOf(f *types.Var) *fieldInfo {
	if f == nil || f.Exported() || f.Pkg() != a.pkg.Pkg {
		return nil
	}
	f = f.Origin()
	if info, ok := a.fieldInfos[f]; ok {
		return info
	}
	if a.fieldInfos == nil {
		a.fieldInfos = map[*types.Var]*fieldInfo{}
	}
	info := a.collectFieldInfo(f)
	a.fieldInfos[f] = info
	return info
}

// collectFieldInfo scans every use of field f's address in the package.
func (a *analyzer) collectFieldInfo(f *types.Var) *fieldInfo {
	info := &fieldInfo{atBirth: true}
	var s *ctxStore
	single := true // every store is of one result of one call
	ok := a.eachFieldStore(f, func(fa *ssa.FieldAddr, st *ssa.Store) bool {
		fn := fa.Parent()
		_, base := throughCells(fn, fa.X)
		if alloc, ok := base.(*ssa.Alloc); !ok || alloc.Parent() != fn {
			info.atBirth = false
		}
		_, val := throughCells(fn, st.Val)
		call, i := extractOf(val)
		switch {
		case call == nil || s != nil && (s.call != call || s.index != i):
			single = false
		case s == nil:
			s = &ctxStore{call: call, index: i, bases: []ssa.Value{base}}
		default:
			s.bases = append(s.bases, base)
		}
		return true
	})
	if !ok {
		return nil // the field's address is kept somewhere
	}
	if single {
		info.ctx = s
	}
	return info
}

// pairedCtxField returns, for a load address of a field that only ever
// holds the cancel func of one WithCancel-family call, the sibling field
// of the same struct that only ever holds that call's context, stored into
// the same objects; otherwise nil.
func (a *analyzer) pairedCtxField(fa *ssa.FieldAddr) *types.Var {
	cancel := a.ctxStoreOf(FieldVar(fa))
	if cancel == nil || cancel.index != 1 {
		return nil
	}
	st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		ctx := a.ctxStoreOf(st.Field(i))
		if ctx != nil && ctx.index == 0 && ctx.call == cancel.call && sameValues(ctx.bases, cancel.bases) {
			return st.Field(i)
		}
	}
	return nil
}

// sameValues reports whether a and b hold the same values.
func sameValues(a, b []ssa.Value) bool {
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	for _, v := range b {
		if !slices.Contains(a, v) {
			return false
		}
	}
	return true
}

// setAtBirth reports whether the package sets field f only in the function
// that allocates the object (a constructor filling in its new value): no
// call made on an existing object can change it.
func (a *analyzer) setAtBirth(f *types.Var) bool {
	info := a.fieldInfoOf(f)
	return info != nil && info.atBirth
}

// callProof reports whether no call can make v, a value of fn, another
// value: v is computed, not loaded, or loaded from a field set only where
// its object is allocated (see setAtBirth) of such a value, following
// variables set once.
func (a *analyzer) callProof(fn *ssa.Function, v ssa.Value) bool {
	for range 8 {
		var ld ssa.Value
		fn, ld = throughCells(fn, v)
		u, ok := ld.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			return true
		}
		fa, ok := u.X.(*ssa.FieldAddr)
		if !ok || !a.setAtBirth(FieldVar(fa)) {
			return false
		}
		v = fa.X
	}
	return false
}
