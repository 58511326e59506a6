package summary

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file extends Unshared to closures: a func literal called in place
// (err := func() error { fs.mu.Lock(); defer fs.mu.Unlock(); ... }())
// locks the object its parent captured, which is as private as it is in
// the parent at the call.

// maxCaptureDepth bounds the closures nested in each other that one
// question walks out of.
const maxCaptureDepth = 4

// unsharedCaptured reports whether lock l of closure fn, rooted at a
// captured variable, belongs to an object no other goroutine can reach at
// instruction at: it lies inside the captured object (not behind one of
// its pointers: a new follower's fl.file.mu is the shared log's lock), and
// that object is unshared (see unsharedCapture). The other roots do not
// ask for this yet: a new store's own blocks, reached through its slice
// of pointers, are as private as the store, and telling them from a
// shared log handed to the constructor needs to know who made them.
func (a *analyzer) unsharedCaptured(fn *ssa.Function, l lockstate.ID, at ssa.Instruction, mode escapeMode) bool {
	if l.RootIndex >= len(fn.FreeVars) {
		return false
	}
	t := fn.FreeVars[l.RootIndex].Type()
	if cellType(t) {
		t = t.Underlying().(*types.Pointer).Elem() // the variable's value
	}
	return inObject(t, l.Path) && a.unsharedCapture(fn, l.RootIndex, at, mode, 0)
}

// unsharedCapture reports whether the object that closure fn captures as
// its i'th free variable is unshared at instruction at of fn: fn is made
// once and only ever called in place, the object is unshared in the parent
// at every such call, and fn lets it escape nowhere before at.
func (a *analyzer) unsharedCapture(fn *ssa.Function, i int, at ssa.Instruction, mode escapeMode, depth int) bool {
	parent := fn.Parent()
	if parent == nil || depth > maxCaptureDepth || i >= len(fn.FreeVars) {
		return false
	}
	calls, mc, ok := inPlaceCalls(parent, fn)
	if !ok || mc == nil || len(calls) == 0 || i >= len(mc.Bindings) {
		return false
	}
	if a.captureEscapesBefore(fn.FreeVars[i], at, mode) {
		return false
	}
	obj := mc.Bindings[i]
	if cell, ok := obj.(*ssa.Alloc); ok && isCell(cell) {
		// A captured variable: the object is the one value it is ever
		// set to (a parameter or a new object the parent keeps in it).
		if obj = lockstate.CellValue(cell); obj == nil {
			return false
		}
	}
	for _, call := range calls {
		if !a.unsharedValue(parent, obj, call, mode, depth+1) {
			return false
		}
	}
	return true
}

// unsharedValue reports whether v, a value of function fn, is an object no
// other goroutine can reach at instruction at: private where fn gets it
// (see privateObject) or captured unshared, and not escaped before at.
func (a *analyzer) unsharedValue(fn *ssa.Function, v ssa.Value, at ssa.Instruction, mode escapeMode, depth int) bool {
	if fv, ok := v.(*ssa.FreeVar); ok {
		return a.unsharedCapture(fn, slices.Index(fn.FreeVars, fv), at, mode, depth)
	}
	return a.privateObject(fn, v, mode) && !a.escapesBefore(v, at, nil, mode)
}

// captureEscapesBefore reports whether the object a closure's free variable
// fv holds (or, for a captured variable, the variable's value) can become
// reachable from elsewhere inside the closure before instruction at.
func (a *analyzer) captureEscapesBefore(fv *ssa.FreeVar, at ssa.Instruction, mode escapeMode) bool {
	w := a.newWalk(mode, 0)
	if cellType(fv.Type()) {
		w.cells[fv] = true // its loads are the object
	}
	w.visit(fv)
	if w.full {
		return true
	}
	for _, esc := range w.out {
		if Precedes(esc, at) {
			return true
		}
	}
	for _, l := range w.into {
		if Precedes(l.store, at) {
			return true
		}
	}
	return false
}

// cellType reports whether t, the type of an address, is that of a
// variable holding a pointer or a func value rather than of an object.
func cellType(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	switch p.Elem().Underlying().(type) {
	case *types.Pointer, *types.Signature:
		return true
	}
	return false
}

// inObject reports whether the lock at path (".LogFile.fsopMu",
// ".parts[0].mu") below an object of pointer type t lies inside that
// object: every step is a field or an array element held by value. A step
// through a pointer, slice or map leads to another object, which may be
// shared although this one is not.
func inObject(t types.Type, path string) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	cur := p.Elem()
	for path != "" {
		switch path[0] {
		case '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			name := path[1 : 1+end]
			path = path[1+end:]
			s, ok := cur.Underlying().(*types.Struct)
			if !ok {
				return false
			}
			var next types.Type
			for f := range s.Fields() {
				if f.Name() == name {
					next = f.Type()
					break
				}
			}
			if next == nil {
				return false
			}
			cur = next
		case '[':
			end := closingBracket(path)
			if end < 0 {
				return false
			}
			path = path[end+1:]
			a, ok := cur.Underlying().(*types.Array)
			if !ok {
				return false
			}
			cur = a.Elem()
		default:
			return false
		}
		switch cur.Underlying().(type) {
		case *types.Pointer, *types.Interface, *types.Slice, *types.Map:
			return false
		}
	}
	return true
}

// closingBracket returns the index in path, which starts with '[', of the
// bracket that closes it, or -1.
func closingBracket(path string) int {
	depth := 0
	for i, c := range path {
		switch c {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
