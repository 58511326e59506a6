package lockorder

import (
	"go/types"
	"strings"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// distinct reports whether the cycle of e and other, its opposite edge,
// joins two locks that can never be the same (distinctOwners).
func (c *checker) distinct(e, other edge) bool {
	return c.distinctOwners(e.to, other.from.ID) || c.distinctOwners(e.from.ID, other.to)
}

// sameInstances returns an edge of back, related and not distinct from e,
// that can deadlock with it.
func (c *checker) sameInstances(e edge, back []edge) (edge, bool) {
	for _, b := range back {
		if b.related && c.canDeadlock(e, b) && !c.distinct(e, b) {
			return b, true
		}
	}
	return edge{}, false
}

// distinctOwners reports whether x and y, two locks of one class on the
// two sides of a cycle, can never be the same lock: each hangs off a
// pointer field of a different struct type of the package that owns what
// it points to (summary.Result.OwnedPointerField). A resource manager's
// peer scopes and connection scopes both embed a *resourceScope, each its
// own, so a peer scope's lock taken under the manager's lock and a
// connection scope's lock held while it takes the manager's are not two
// orders of one pair.
func (c *checker) distinctOwners(x, y lockstate.ID) bool {
	tx, fx, ok := c.owner(x)
	if !ok {
		return false
	}
	ty, fy, ok := c.owner(y)
	if !ok || types.Identical(tx, ty) {
		return false
	}
	return c.res.OwnedPointerField(tx, fx) && c.res.OwnedPointerField(ty, fy)
}

// owner returns the outermost named type of the package that lock id hangs
// off, and the field of it that leads to the lock, read from id.Full
// ("(*pkg.peerScope).resourceScope.Mutex").
func (c *checker) owner(id lockstate.ID) (*types.Named, string, bool) {
	full := strings.TrimPrefix(id.Full, "(")
	end := strings.Index(full, ").")
	if end < 0 || len(full) == len(id.Full) {
		return nil, "", false
	}
	typ, path := strings.TrimPrefix(full[:end], "*"), full[end+2:]
	dot := strings.LastIndexByte(typ, '.')
	if dot < 0 || typ[:dot] != c.pass.Pkg.Path() {
		return nil, "", false
	}
	obj, _ := c.pass.Pkg.Scope().Lookup(typ[dot+1:]).(*types.TypeName)
	if obj == nil {
		return nil, "", false
	}
	named, _ := obj.Type().(*types.Named)
	field, _, _ := strings.Cut(path, ".")
	if named == nil || field == "" || strings.ContainsAny(field, "[]") {
		return nil, "", false
	}
	return named, field, true
}
