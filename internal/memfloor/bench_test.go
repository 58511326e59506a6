package memfloor_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit"
	"github.com/lockaudit/lockaudit/internal/memfloor"
)

// unit is one lock-heavy type of the generated package, with its methods:
// wrappers, defers, RLock readers, channel operations under locks, a
// blocking helper behind a flag, callbacks, a call into the next type
// (lock-order edges), a goroutine and a closure invoked in place.
const unit = `
type Store%[1]d struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	items map[string]int
	ch    chan int
	next  *Store%[2]d
	cond  bool
	n     int
}

func (s *Store%[1]d) lock()   { s.mu.Lock() }
func (s *Store%[1]d) unlock() { s.mu.Unlock() }

func (s *Store%[1]d) Get(k string) (int, bool) {
	s.rw.RLock()
	defer s.rw.RUnlock()
	v, ok := s.items[k]
	return v, ok
}

func (s *Store%[1]d) Put(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	if s.cond {
		s.ch <- v
	}
	s.mu.Unlock()
}

func (s *Store%[1]d) flush(sync bool) error {
	if sync {
		time.Sleep(time.Millisecond)
	}
	return nil
}

func (s *Store%[1]d) Flush(force bool) {
	s.lock()
	defer s.unlock()
	for k, v := range s.items {
		if v > %[1]d && force {
			_ = s.flush(force)
		}
		delete(s.items, k)
	}
	select {
	case s.ch <- 1:
	default:
	}
}

func (s *Store%[1]d) Chain() {
	s.mu.Lock()
	if s.next != nil {
		s.next.Put("x", s.n)
	}
	s.mu.Unlock()
}

func (s *Store%[1]d) Each(f func(string, int)) {
	s.rw.RLock()
	defer s.rw.RUnlock()
	for k, v := range s.items {
		f(k, v)
	}
}

func (s *Store%[1]d) Run(done chan struct{}) {
	go func() {
		s.mu.Lock()
		s.items["g"]++
		s.mu.Unlock()
		close(done)
	}()
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.cond = !s.cond
	}()
	<-done
	s.rw.Lock()
	s.n++
	s.rw.Unlock()
}
`

// generate writes a package of about lines lines of lock-heavy code into
// a new module in dir.
func generate(tb testing.TB, dir string, lines int) {
	perUnit := strings.Count(unit, "\n")
	units := lines / perUnit
	const perFile = 50
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/huge\n\ngo 1.26\n"), 0o666); err != nil {
		tb.Fatal(err)
	}
	for f := 0; f*perFile < units; f++ {
		var b strings.Builder
		b.WriteString("package huge\n\nimport (\n\t\"sync\"\n\t\"time\"\n)\n")
		for i := f * perFile; i < (f+1)*perFile && i < units; i++ {
			fmt.Fprintf(&b, unit, i, (i+1)%units)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), []byte(b.String()), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkHugePackage runs lockaudit's analyzers, and the memory floor
// (SSA and one fact per function), over a generated package of about 50k
// lines: B/op and allocs/op are what a vet process pays on top of type
// checking for a large package. Compare runs with benchstat.
func BenchmarkHugePackage(b *testing.B) {
	dir := b.TempDir()
	generate(b, dir, 50000)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatal("generated package does not compile")
	}
	for _, bc := range []struct {
		name      string
		analyzers []*analysis.Analyzer
	}{
		{"floor", []*analysis.Analyzer{memfloor.Analyzer}},
		{"lockaudit", lockaudit.Analyzers()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g, err := checker.Analyze(bc.analyzers, pkgs, nil)
				if err != nil {
					b.Fatal(err)
				}
				for act := range g.All() {
					if act.Err != nil {
						b.Fatal(act.Err)
					}
				}
			}
		})
	}
}
