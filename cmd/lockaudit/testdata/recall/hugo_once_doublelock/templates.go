// Package hugo_once_doublelock is modelled on a Hugo template-handler
// self-deadlock through sync.Once: Lookup holds the handler's mutex and
// lazily initialises the template set with once.Do(h.loadAll); loadAll
// registers each template through addTemplate, which takes the same mutex.
// The first Lookup of every build hangs.
package hugo_once_doublelock

import "sync"

// Template is a parsed template.
type Template struct {
	Name string
	Src  string
}

// Handler owns a site's templates. Buggy version.
type Handler struct {
	mu        sync.Mutex
	once      sync.Once
	sources   map[string]string
	templates map[string]*Template
}

// NewHandler returns a handler over sources.
func NewHandler(sources map[string]string) *Handler {
	return &Handler{sources: sources, templates: map[string]*Template{}}
}

func (h *Handler) addTemplate(name, src string) {
	h.mu.Lock()
	h.templates[name] = &Template{Name: name, Src: src}
	h.mu.Unlock()
}

func (h *Handler) loadAll() {
	for name, src := range h.sources {
		h.addTemplate(name, src)
	}
}

// Lookup returns template name.
func (h *Handler) Lookup(name string) *Template {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.once.Do(h.loadAll) // BUG: loadAll -> addTemplate locks h.mu
	return h.templates[name]
}

// HandlerFixed is the fixed version: the one-time load runs before the
// mutex is taken.
type HandlerFixed struct {
	mu        sync.Mutex
	once      sync.Once
	sources   map[string]string
	templates map[string]*Template
}

// NewHandlerFixed returns a handler over sources.
func NewHandlerFixed(sources map[string]string) *HandlerFixed {
	return &HandlerFixed{sources: sources, templates: map[string]*Template{}}
}

func (h *HandlerFixed) addTemplate(name, src string) {
	h.mu.Lock()
	h.templates[name] = &Template{Name: name, Src: src}
	h.mu.Unlock()
}

func (h *HandlerFixed) loadAll() {
	for name, src := range h.sources {
		h.addTemplate(name, src)
	}
}

// Lookup returns template name.
func (h *HandlerFixed) Lookup(name string) *Template {
	h.once.Do(h.loadAll)
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.templates[name]
}
