// Package catalog is lockaudit's blocking catalogue: which functions and
// interface methods block (and why), and which interface methods are known to
// be cheap and non-blocking, so that calling them under a lock is not a finding.
//
// The catalogue is data. Entries are keyed by types.Func.FullName, for example
// "time.Sleep", "(*sync.WaitGroup).Wait" or "(net.Conn).Read". Users extend it
// with Catalog.Add (the heldcall -block flag and the golangci-lint settings).
package catalog

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"sync"
)

// Categories of blocking operations, as used in heldcall diagnostics.
const (
	Sleep = "sleep"
	Wait  = "wait"
	Net   = "net"
	File  = "file"
	Exec  = "exec"
	DB    = "db"
)

// Kinds is the set of categories an entry may have.
var Kinds = []string{DB, Exec, File, Net, Sleep, Wait}

// A Catalog maps function names to the category of blocking they do.
type Catalog struct {
	blocking map[string]string
	direct   map[string]string
	// memo caches Blocking by function (FullName allocates, and every
	// call site asks); several analyzers ask at once.
	mu   sync.Mutex
	memo map[*types.Func]memoEntry
}

type memoEntry struct {
	kind string
	ok   bool
}

// Default returns a new catalogue with the standard library and common
// ecosystem entries.
func Default() *Catalog {
	c := &Catalog{blocking: make(map[string]string, len(stdBlocking)), direct: directOnly}
	for name, kind := range stdBlocking {
		c.blocking[name] = kind
	}
	return c
}

// Add records name as blocking with the given category. name uses the
// types.Func.FullName form: "pkg/path.Func", "(*pkg/path.T).Method" or
// "(pkg/path.Interface).Method".
func (c *Catalog) Add(name, kind string) error {
	if !validKind(kind) {
		return fmt.Errorf("unknown blocking category %q for %s (want one of %s)", kind, name, strings.Join(Kinds, ", "))
	}
	if name == "" || strings.ContainsAny(name, " \t") {
		return fmt.Errorf("bad function name %q", name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocking[name] = kind
	c.memo = nil
	return nil
}

// ParseList adds entries from a comma-separated list of name=category pairs.
func (c *Catalog) ParseList(list string) error {
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, kind, ok := strings.Cut(item, "=")
		if !ok {
			return fmt.Errorf("bad blocking entry %q: want name=category", item)
		}
		if err := c.Add(strings.TrimSpace(name), strings.TrimSpace(kind)); err != nil {
			return err
		}
	}
	return nil
}

// Blocking reports the category of fn if the catalogue says it blocks.
func (c *Catalog) Blocking(fn *types.Func) (string, bool) {
	if fn == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.memo[fn]; ok {
		return e.kind, e.ok
	}
	kind, ok := c.blocking1(fn)
	if c.memo == nil {
		c.memo = map[*types.Func]memoEntry{}
	}
	c.memo[fn] = memoEntry{kind, ok}
	return kind, ok
}

func (c *Catalog) blocking1(fn *types.Func) (string, bool) {
	kind, ok := c.blocking[fn.FullName()]
	if ok {
		return kind, true
	}
	// Methods promoted through embedding or called on an instantiated generic
	// type are keyed by their origin.
	if o := fn.Origin(); o != fn {
		kind, ok = c.blocking[o.FullName()]
	}
	return kind, ok
}

// Direct reports the category of fn if calling it under a lock is a
// finding: a blocking function, or one that blocks only as much as its
// arguments (io.Copy) and so does not make its callers block.
func (c *Catalog) Direct(fn *types.Func) (string, bool) {
	if kind, ok := c.Blocking(fn); ok {
		return kind, true
	}
	if fn == nil {
		return "", false
	}
	kind, ok := c.direct[fn.Origin().FullName()]
	return kind, ok
}

// StreamHelper reports whether fn is an I/O helper that blocks only as
// much as the reader or writer it is given (io.Copy, io.ReadFull): its
// category is that of the stream, when the stream is known.
func (c *Catalog) StreamHelper(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	_, ok := c.direct[fn.Origin().FullName()]
	return ok
}

// quietFuncs are functions that never wait although what they call can:
// http.Error writes a short message into the ResponseWriter's buffer, which
// reaches the network only when the handler returns; os.Hostname asks the
// kernel (uname) and reads procfs only if that fails; net.LookupPort parses
// a numeric port, or looks a service name up in the services file, read
// once per process: it never asks a name server.
var quietFuncs = map[string]bool{
	"net/http.Error":             true,
	"net/http.NotFound":          true,
	"net/http.Redirect":          true,
	"os.Hostname":                true,
	"net.LookupPort":             true,
	"(*net.Resolver).LookupPort": true,
}

// nameResolving are the functions that bind or resolve an address and ask
// a name server only when its host is a name, not an IP address literal
// (a listen address is usually ":8080" or "0.0.0.0:4222"): a wait that
// depends on configuration, so plausible.
var nameResolving = map[string]bool{
	"net.Listen":                       true,
	"net.ListenPacket":                 true,
	"(*net.ListenConfig).Listen":       true,
	"(*net.ListenConfig).ListenPacket": true,
	"net.ResolveTCPAddr":               true,
	"net.ResolveUDPAddr":               true,
	"net.ResolveIPAddr":                true,
}

// ResolvesNames reports whether fn waits for a name server only when the
// address it is given names a host (see nameResolving).
func (c *Catalog) ResolvesNames(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "net" && nameResolving[fn.Origin().FullName()]
}

// ResolvesNamesWhy says why a call of a ResolvesNames function is only
// plausible.
const ResolvesNamesWhy = "it asks a name server only when the address names a host"

// Quiet reports whether fn never waits, whatever the functions it calls
// can do.
func (c *Catalog) Quiet(fn *types.Func) bool {
	// The bare name first: FullName builds a string, for every call
	// site of every package.
	return fn != nil && quietNames[fn.Name()] && quietFuncs[fn.Origin().FullName()]
}

// quietNames are the bare names of quietFuncs.
var quietNames = func() map[string]bool {
	m := map[string]bool{}
	for full := range quietFuncs {
		m[full[strings.LastIndex(full, ".")+1:]] = true
	}
	return m
}()

// Entries returns the catalogue's entries as sorted "name=category" strings.
func (c *Catalog) Entries() []string {
	out := make([]string, 0, len(c.blocking))
	for name, kind := range c.blocking {
		out = append(out, name+"="+kind)
	}
	sort.Strings(out)
	return out
}

func validKind(kind string) bool {
	for _, k := range Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
