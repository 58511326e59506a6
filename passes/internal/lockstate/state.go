package lockstate

import (
	"go/token"
	"slices"
	"sort"
)

// Held is one lock in the held set at some program point.
type Held struct {
	ID
	Mode Mode
	Pos  token.Pos // where it was acquired

	// Must is true when the lock is held on every path to this point;
	// otherwise it is held on some path only.
	Must bool
	// Deferred is true when a deferred call releases the lock at return.
	Deferred bool
	// Inherited is true for a lock taken by the caller of a closure that is
	// invoked in place.
	Inherited bool
	// Restored is true for a lock that this function released and took again
	// (an unlock/relock window): it is not a lock the function acquires.
	Restored bool
}

// State is the set of locks held at a program point, sorted by key. A State is
// immutable once built: transfer functions return new slices.
type State struct {
	Held []Held
	// Released are locks reachable from parameters, free variables or
	// globals that were released on every path here without having been
	// acquired in this function: the effect of an unlock wrapper.
	Released []ID
	// Pending lists the keys of locks whose release a defer has
	// registered: it runs at return even if the lock is unlocked and
	// taken again in between (Lock; defer Unlock; Unlock; Wait; Lock).
	Pending []string
}

func (s State) pending(key string) bool {
	for _, k := range s.Pending {
		if k == key {
			return true
		}
	}
	return false
}

func (s State) withPending(key string) State {
	if s.pending(key) {
		return s
	}
	out := s
	out.Pending = append(append([]string(nil), s.Pending...), key)
	sort.Strings(out.Pending)
	return out
}

func (s *State) find(key string) int {
	i := sort.Search(len(s.Held), func(i int) bool { return s.Held[i].Key >= key })
	if i < len(s.Held) && s.Held[i].Key == key {
		return i
	}
	return -1
}

// Lookup returns the held entry for key.
func (s State) Lookup(key string) (Held, bool) {
	if i := s.find(key); i >= 0 {
		return s.Held[i], true
	}
	return Held{}, false
}

// with returns s with h added or replacing the entry of the same key.
func (s State) with(h Held) State {
	out := State{Released: s.Released, Pending: s.Pending}
	i := sort.Search(len(s.Held), func(i int) bool { return s.Held[i].Key >= h.Key })
	out.Held = make([]Held, 0, len(s.Held)+1)
	out.Held = append(out.Held, s.Held[:i]...)
	out.Held = append(out.Held, h)
	if i < len(s.Held) && s.Held[i].Key == h.Key {
		i++
	}
	out.Held = append(out.Held, s.Held[i:]...)
	return out
}

// without returns s with key removed.
func (s State) without(key string) State {
	i := s.find(key)
	if i < 0 {
		return s
	}
	out := State{Released: s.Released, Pending: s.Pending}
	out.Held = make([]Held, 0, len(s.Held)-1)
	out.Held = append(out.Held, s.Held[:i]...)
	out.Held = append(out.Held, s.Held[i+1:]...)
	return out
}

func (s State) released(key string) bool {
	for _, r := range s.Released {
		if r.Key == key {
			return true
		}
	}
	return false
}

func (s State) withReleased(id ID) State {
	if s.released(id.Key) {
		return s
	}
	out := State{Held: s.Held, Released: make([]ID, 0, len(s.Released)+1), Pending: s.Pending}
	out.Released = append(out.Released, s.Released...)
	out.Released = append(out.Released, id)
	sort.Slice(out.Released, func(i, j int) bool { return out.Released[i].Key < out.Released[j].Key })
	return out
}

func (s State) withoutReleased(key string) State {
	if !s.released(key) {
		return s
	}
	out := State{Held: s.Held, Pending: s.Pending}
	for _, r := range s.Released {
		if r.Key != key {
			out.Released = append(out.Released, r)
		}
	}
	return out
}

// join is the meet of two states reaching one point: a lock is must-held if
// both hold it must, may-held if either holds it; a release is kept only if
// both paths made it.
func join(a, b State) State {
	var out State
	i, j := 0, 0
	for i < len(a.Held) || j < len(b.Held) {
		switch {
		case j >= len(b.Held) || (i < len(a.Held) && a.Held[i].Key < b.Held[j].Key):
			h := a.Held[i]
			h.Must = false
			out.Held = append(out.Held, h)
			i++
		case i >= len(a.Held) || b.Held[j].Key < a.Held[i].Key:
			h := b.Held[j]
			h.Must = false
			out.Held = append(out.Held, h)
			j++
		default:
			h := a.Held[i]
			o := b.Held[j]
			h.Must = h.Must && o.Must
			h.Deferred = h.Deferred || o.Deferred
			h.Restored = h.Restored || o.Restored
			if o.Pos < h.Pos {
				h.Pos = o.Pos
			}
			out.Held = append(out.Held, h)
			i++
			j++
		}
	}
	for _, r := range a.Released {
		if b.released(r.Key) {
			out.Released = append(out.Released, r)
		}
	}
	// A release deferred on either path runs at return.
	out.Pending = a.Pending
	for _, k := range b.Pending {
		out = out.withPending(k)
	}
	return out
}

func (s State) equal(o State) bool {
	if len(s.Held) != len(o.Held) || len(s.Released) != len(o.Released) || len(s.Pending) != len(o.Pending) {
		return false
	}
	for i := range s.Pending {
		if s.Pending[i] != o.Pending[i] {
			return false
		}
	}
	for i := range s.Held {
		if s.Held[i] != o.Held[i] {
			return false
		}
	}
	for i := range s.Released {
		if s.Released[i].Key != o.Released[i].Key {
			return false
		}
	}
	return true
}

// MustHeld returns the locks held on every path, in acquisition order.
func (s State) MustHeld() []Held {
	var out []Held
	for _, h := range s.Held {
		if h.Must {
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// WithoutClasses returns held without the locks of the given classes (the
// caller's locks a callee releases before it takes its own).
func WithoutClasses(held []Held, classes []string) []Held {
	if len(classes) == 0 {
		return held
	}
	var out []Held
	for _, h := range held {
		if !slices.Contains(classes, h.Class) {
			out = append(out, h)
		}
	}
	return out
}
