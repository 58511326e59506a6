package precision

import (
	"errors"
	"os"
	"sync"
)

// A shared scratch mount: the first user makes the scratch directory
// under the pool's lock and undoes each step when a later one fails, in
// deferred closures that run only when the named error result is set.
type scratchPool struct {
	mu    sync.Mutex
	root  string
	dir   string
	users int
}

var errNoScratch = errors.New("no scratch space")

func prepare(dir string) error {
	if dir == "" {
		return errNoScratch
	}
	return nil
}

// Acquire's last undo is deferred after the last step that can fail:
// every return after it returns nil, so the removal never runs with the
// lock held.
func (p *scratchPool) Acquire() (dir string, retErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dir == "" {
		d, err := os.MkdirTemp(p.root, "scratch") // want `p.mu held across call of os.MkdirTemp`
		if err != nil {
			return "", err
		}
		if err := prepare(d); err != nil {
			return "", err
		}
		defer func() {
			if retErr != nil {
				os.RemoveAll(d)
			}
		}()
		p.dir = d
	}
	p.users++
	return p.dir, nil
}

// AcquireChecked defers the same undo before a step that can still fail:
// on that path the directory is removed with the lock held.
func (p *scratchPool) AcquireChecked() (dir string, retErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dir == "" {
		d, err := os.MkdirTemp(p.root, "scratch") // want `p.mu held across call of os.MkdirTemp`
		if err != nil {
			return "", err
		}
		defer func() { // want `p.mu held across deferred call of \(\*scratchPool\).AcquireChecked.func1, which blocks`
			if retErr != nil {
				os.RemoveAll(d)
			}
		}()
		if err := prepare(d); err != nil {
			return "", err
		}
		p.dir = d
	}
	p.users++
	return p.dir, nil
}

// AcquireRetrying defers an undo in each attempt, on a variable declared
// in the loop: a failed attempt's undo sees its own copy, never set, and
// runs at the return with the lock held.
func (p *scratchPool) AcquireRetrying() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for attempt := 0; ; attempt++ {
		d := p.root + "/scratch"
		prepared := false
		defer func() { // want `p.mu held across deferred call of \(\*scratchPool\).AcquireRetrying.func1, which blocks`
			if !prepared {
				os.RemoveAll(d)
			}
		}()
		if err := prepare(d); err != nil {
			continue
		}
		prepared = true
		p.dir = d
		return d
	}
}

// AcquireOrPanic panics when the last step fails: the deferred undo runs
// on the way out, with the lock held.
func (p *scratchPool) AcquireOrPanic() (dir string, retErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.root + "/scratch"
	retErr = prepare(d)
	defer func() { // want `p.mu held across deferred call of \(\*scratchPool\).AcquireOrPanic.func1, which blocks`
		if retErr != nil {
			os.RemoveAll(d)
		}
	}()
	if retErr != nil {
		panic(retErr)
	}
	p.dir = d
	return d, nil
}
