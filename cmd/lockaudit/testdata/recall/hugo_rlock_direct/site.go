// Package hugo_rlock_direct is modelled on a Hugo site page-collection
// deadlock with a recursive read lock: RegularPages read-locks the site's
// page index and calls PageCount, which read-locks it again. When a
// rebuild (AddPage, from the file watcher) queues for the write lock
// between the two read locks, the second RLock waits behind the writer
// and the writer waits for the first RLock: both hang.
package hugo_rlock_direct

import "sync"

// Page is a content page.
type Page struct {
	Path string
	Kind string
}

// Site holds the pages of one site. Buggy version.
type Site struct {
	mu    sync.RWMutex
	pages map[string]*Page
}

// NewSite returns an empty site.
func NewSite() *Site { return &Site{pages: map[string]*Page{}} }

// AddPage adds or replaces p (called on rebuild).
func (s *Site) AddPage(p *Page) {
	s.mu.Lock()
	s.pages[p.Path] = p
	s.mu.Unlock()
}

// PageCount returns the number of pages.
func (s *Site) PageCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.pages)
}

// RegularPages returns the pages of kind "page".
func (s *Site) RegularPages() []*Page {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Page, 0, s.PageCount()) // BUG: PageCount read-locks s.mu again
	for _, p := range s.pages {
		if p.Kind == "page" {
			out = append(out, p)
		}
	}
	return out
}

// SiteFixed is the fixed version: the exported method locks, the
// unexported helper expects the lock to be held.
type SiteFixed struct {
	mu    sync.RWMutex
	pages map[string]*Page
}

// NewSiteFixed returns an empty site.
func NewSiteFixed() *SiteFixed { return &SiteFixed{pages: map[string]*Page{}} }

// AddPage adds or replaces p (called on rebuild).
func (s *SiteFixed) AddPage(p *Page) {
	s.mu.Lock()
	s.pages[p.Path] = p
	s.mu.Unlock()
}

// PageCount returns the number of pages.
func (s *SiteFixed) PageCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pageCountLocked()
}

func (s *SiteFixed) pageCountLocked() int { return len(s.pages) }

// RegularPages returns the pages of kind "page".
func (s *SiteFixed) RegularPages() []*Page {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Page, 0, s.pageCountLocked())
	for _, p := range s.pages {
		if p.Kind == "page" {
			out = append(out, p)
		}
	}
	return out
}
