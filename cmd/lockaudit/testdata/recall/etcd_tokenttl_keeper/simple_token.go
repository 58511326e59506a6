// Models etcd#7492 (GoKer etcd_7492): assignSimpleTokenToUser holds simpleTokensMu while addSimpleToken sends on the keeper's 1-buffered channel; the keeper goroutine, in its ticker case, calls the deleteTokenFunc closure, which takes simpleTokensMu (lock held across a send to a goroutine that needs the same lock via a func field; reached through the TokenProvider interface).
package etcd_tokenttl_keeper

import (
	"strconv"
	"sync"
	"time"
)

const simpleTokenTTL = 5 * time.Minute

// TokenProvider issues auth tokens.
type TokenProvider interface {
	assign(username string) string
	enable()
}

type simpleTokenTTLKeeper struct {
	tokens           map[string]time.Time
	addSimpleTokenCh chan string
	stopCh           chan chan struct{}
	deleteTokenFunc  func(string)
}

func newSimpleTokenTTLKeeper(deletefunc func(string)) *simpleTokenTTLKeeper {
	tm := &simpleTokenTTLKeeper{
		tokens:           map[string]time.Time{},
		addSimpleTokenCh: make(chan string, 1),
		stopCh:           make(chan chan struct{}),
		deleteTokenFunc:  deletefunc,
	}
	go tm.run()
	return tm
}

func (tm *simpleTokenTTLKeeper) run() {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case tk := <-tm.addSimpleTokenCh:
			tm.tokens[tk] = time.Now().Add(simpleTokenTTL)
		case now := <-ticker.C:
			for tk, end := range tm.tokens {
				if now.After(end) {
					tm.deleteTokenFunc(tk)
					delete(tm.tokens, tk)
				}
			}
		case waitCh := <-tm.stopCh:
			waitCh <- struct{}{}
			return
		}
	}
}

func (tm *simpleTokenTTLKeeper) addSimpleToken(tk string) {
	tm.addSimpleTokenCh <- tk
}

// tokenSimple is the simple token provider. Buggy version.
type tokenSimple struct {
	simpleTokenKeeper *simpleTokenTTLKeeper
	simpleTokensMu    sync.RWMutex
	simpleTokens      map[string]string
	seq               int
}

func newDeleterFunc(t *tokenSimple) func(string) {
	return func(tk string) {
		t.simpleTokensMu.Lock()
		defer t.simpleTokensMu.Unlock()
		delete(t.simpleTokens, tk)
	}
}

func (t *tokenSimple) enable() {
	t.simpleTokens = map[string]string{}
	t.simpleTokenKeeper = newSimpleTokenTTLKeeper(newDeleterFunc(t))
}

func (t *tokenSimple) assign(username string) string { return t.assignSimpleTokenToUser(username) }

func (t *tokenSimple) assignSimpleTokenToUser(username string) string {
	t.simpleTokensMu.Lock()
	defer t.simpleTokensMu.Unlock()
	t.seq++
	tk := username + "." + strconv.Itoa(t.seq)
	t.simpleTokens[tk] = username
	t.simpleTokenKeeper.addSimpleToken(tk) // BUG: send under simpleTokensMu; the keeper may be in deleteTokenFunc waiting for it
	return tk
}

// authStore authenticates users.
type authStore struct{ tokenProvider TokenProvider }

// Authenticate returns a token for username.
func (as *authStore) Authenticate(username string) string { return as.tokenProvider.assign(username) }

// NewAuthStore uses the simple token provider.
func NewAuthStore() *authStore {
	t := &tokenSimple{}
	t.enable()
	return &authStore{tokenProvider: t}
}

// The fixed version (as etcd did): the keeper has no channel; it shares
// the provider's mutex, takes it in its ticker case, and the deleter and
// addSimpleToken run with the mutex already held.
type simpleTokenTTLKeeperFixed struct {
	tokens          map[string]time.Time
	stopc           chan struct{}
	deleteTokenFunc func(string)
	mu              *sync.RWMutex
}

func (tm *simpleTokenTTLKeeperFixed) run() {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case now := <-ticker.C:
			tm.mu.Lock()
			for tk, end := range tm.tokens {
				if now.After(end) {
					tm.deleteTokenFunc(tk)
					delete(tm.tokens, tk)
				}
			}
			tm.mu.Unlock()
		case <-tm.stopc:
			return
		}
	}
}

// addSimpleToken requires tm.mu to be held.
func (tm *simpleTokenTTLKeeperFixed) addSimpleToken(tk string) {
	tm.tokens[tk] = time.Now().Add(simpleTokenTTL)
}

type tokenSimpleFixed struct {
	simpleTokenKeeper *simpleTokenTTLKeeperFixed
	simpleTokensMu    sync.RWMutex
	simpleTokens      map[string]string
	seq               int
}

func newDeleterFuncFixed(t *tokenSimpleFixed) func(string) {
	return func(tk string) { delete(t.simpleTokens, tk) }
}

func (t *tokenSimpleFixed) enable() {
	t.simpleTokens = map[string]string{}
	t.simpleTokenKeeper = &simpleTokenTTLKeeperFixed{
		tokens:          map[string]time.Time{},
		stopc:           make(chan struct{}),
		deleteTokenFunc: newDeleterFuncFixed(t),
		mu:              &t.simpleTokensMu,
	}
	go t.simpleTokenKeeper.run()
}

func (t *tokenSimpleFixed) assign(username string) string { return t.assignSimpleTokenToUser(username) }

func (t *tokenSimpleFixed) assignSimpleTokenToUser(username string) string {
	t.simpleTokensMu.Lock()
	defer t.simpleTokensMu.Unlock()
	t.seq++
	tk := username + "." + strconv.Itoa(t.seq)
	t.simpleTokens[tk] = username
	t.simpleTokenKeeper.addSimpleToken(tk)
	return tk
}

// NewAuthStoreFixed uses the fixed simple token provider.
func NewAuthStoreFixed() *authStore {
	t := &tokenSimpleFixed{}
	t.enable()
	return &authStore{tokenProvider: t}
}
