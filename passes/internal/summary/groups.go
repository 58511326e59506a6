package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file treats goroutine groups as the WaitGroups they are: a
// sync.WaitGroup's Go method (Go 1.25) and golang.org/x/sync/errgroup's
// Group.Go and TryGo start their func on a goroutine of its own, which
// marks the group done as it returns, and the group's Wait waits for them:
//
//	var wg sync.WaitGroup
//	for _, l := range x.lists {
//		wg.Go(func() { sort.Ints(l) }) // go func() { defer wg.Done(); ... }()
//	}
//	wg.Wait()
//
//	g, ctx := errgroup.WithContext(ctx)
//	g.Go(func() error { return merge(ctx, a) })
//	err := g.Wait()
//
// So such a Wait is a join with the funcs handed to the group when the
// package's own code is all they run (joins.go), as a Wait for
// goroutines started with go statements is.

// errgroupPath is the import path of golang.org/x/sync/errgroup.
const errgroupPath = "golang.org/x/sync/errgroup"

// isGroup reports whether t is *sync.WaitGroup or *errgroup.Group.
func isGroup(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && (isNamed(p.Elem(), "sync", "WaitGroup") || isNamed(p.Elem(), errgroupPath, "Group"))
}

// groupMethod returns the group and the name of a call of a method of
// *sync.WaitGroup or *errgroup.Group.
func groupMethod(c *ssa.CallCommon) (group ssa.Value, name string, ok bool) {
	callee := c.StaticCallee()
	if c.IsInvoke() || callee == nil || len(c.Args) == 0 {
		return nil, "", false
	}
	// A method of the group, not a function of the program that takes
	// one (func Wait(wg *sync.WaitGroup)).
	obj := FuncObject(callee)
	if obj == nil || obj.Signature().Recv() == nil || !isGroup(obj.Signature().Recv().Type()) {
		return nil, "", false
	}
	return c.Args[0], obj.Name(), true
}

// groupGo returns the group and the func a call of a group's Go or TryGo
// starts on a goroutine of its own.
func groupGo(c *ssa.CallCommon) (group, body ssa.Value, ok bool) {
	g, name, ok := groupMethod(c)
	if !ok || name != "Go" && name != "TryGo" || len(c.Args) != 2 {
		return nil, nil, false
	}
	return g, c.Args[1], true
}

// newErrgroup reports whether v is the group errgroup.WithContext
// returns: a group of its own for each call.
func newErrgroup(v *ssa.Extract) bool {
	call, ok := v.Tuple.(*ssa.Call)
	if !ok || v.Index != 0 {
		return false
	}
	obj := FuncObject(call.Common().StaticCallee())
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == errgroupPath && obj.Name() == "WithContext"
}

// indexGroupStarts records, for a call of a group's Go or TryGo, the
// goroutine it starts (as a go statement's) and the call as the signal
// of the group that the goroutine's return makes (groupDone).
func (a *analyzer) indexGroupStart(ix *joinIndex, fn *ssa.Function, c *ssa.Call) {
	g, body, ok := groupGo(c.Common())
	if !ok {
		return
	}
	ix.starts = append(ix.starts, a.startOf(&ssa.CallCommon{Value: body}))
	t := a.declared(ClosureFn(body))
	if t != nil {
		ix.goBodies[t] = true
	} else {
		ix.openGo = true
	}
	for _, k := range a.chanKeysOf(fn, g) {
		ix.signals[k] = append(ix.signals[k], c)
	}
	if ix.groupDone == nil {
		ix.groupDone = map[ssa.Instruction]*ssa.Function{}
	}
	ix.groupDone[c] = t
}
