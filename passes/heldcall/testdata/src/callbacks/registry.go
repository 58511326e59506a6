package callbacks

import (
	"errors"
	"strings"
	"sync"
)

// AuthFactory builds an authenticator from a configuration; plugins
// register theirs.
type AuthFactory func(config map[string]string) (func(token string) bool, error)

var (
	authMu        sync.Mutex
	authFactories = map[string]AuthFactory{}
	normalizers   = map[string]func(string) string{}
)

func init() {
	normalizers["lower"] = strings.ToLower
	normalizers["upper"] = strings.ToUpper
}

// RegisterAuth registers a plugin's factory.
func RegisterAuth(name string, f AuthFactory) error {
	authMu.Lock()
	defer authMu.Unlock()
	if _, dup := authFactories[name]; dup {
		return errors.New("auth plugin registered twice: " + name)
	}
	authFactories[name] = f
	return nil
}

// NewAuth runs a plugin's factory with the registry's lock held: a slow
// factory stalls every other lookup, and one that registers another
// plugin deadlocks.
func NewAuth(name string, config map[string]string) (func(string) bool, error) {
	authMu.Lock()
	defer authMu.Unlock()
	f, ok := authFactories[name]
	if !ok {
		return nil, errors.New("no auth plugin " + name)
	}
	return f(config) // want `authMu held across call of func value f \(locked at registry.go:\d+, released by defer\)`
}

// NewAuthFixed looks the factory up under the lock and runs it after.
func NewAuthFixed(name string, config map[string]string) (func(string) bool, error) {
	authMu.Lock()
	f, ok := authFactories[name]
	authMu.Unlock()
	if !ok {
		return nil, errors.New("no auth plugin " + name)
	}
	return f(config)
}

// Normalize runs one of the package's own normalizers under the lock: the
// map holds only what init puts there.
func Normalize(kind, s string) string {
	authMu.Lock()
	defer authMu.Unlock()
	if n, ok := normalizers[kind]; ok {
		return n(s)
	}
	return s
}
