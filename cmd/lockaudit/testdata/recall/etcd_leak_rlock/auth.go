// Package etcd_leak_rlock is modelled on an etcd auth-store bug where an
// error path forgets the RUnlock: IsAdminPermitted read-locks the store,
// and when the token does not resolve to a user it returns the error with
// the read lock still held. Reads keep working, but the next
// UserAdd/RoleGrant (write lock) waits forever, and with it every reader
// that arrives after it.
package etcd_leak_rlock

import (
	"errors"
	"sync"
)

// Errors returned by the auth store.
var (
	ErrInvalidToken     = errors.New("auth: invalid token")
	ErrPermissionDenied = errors.New("auth: permission denied")
)

// AuthStore maps tokens to users and users to roles. Buggy version.
type AuthStore struct {
	mu     sync.RWMutex
	tokens map[string]string   // token -> user
	roles  map[string][]string // user -> roles
}

// NewAuthStore returns an empty store.
func NewAuthStore() *AuthStore {
	return &AuthStore{tokens: map[string]string{}, roles: map[string][]string{}}
}

// Authenticate issues token for user.
func (s *AuthStore) Authenticate(user, token string) {
	s.mu.Lock()
	s.tokens[token] = user
	s.mu.Unlock()
}

// RoleGrant gives user role.
func (s *AuthStore) RoleGrant(user, role string) {
	s.mu.Lock()
	s.roles[user] = append(s.roles[user], role)
	s.mu.Unlock()
}

// IsAdminPermitted reports whether token belongs to an admin.
func (s *AuthStore) IsAdminPermitted(token string) error {
	s.mu.RLock()
	user, ok := s.tokens[token]
	if !ok {
		return ErrInvalidToken // BUG: s.mu stays read-locked
	}
	for _, r := range s.roles[user] {
		if r == "root" {
			s.mu.RUnlock()
			return nil
		}
	}
	s.mu.RUnlock()
	return ErrPermissionDenied
}

// AuthStoreFixed is the fixed version: the read lock is released by defer.
type AuthStoreFixed struct {
	mu     sync.RWMutex
	tokens map[string]string
	roles  map[string][]string
}

// NewAuthStoreFixed returns an empty store.
func NewAuthStoreFixed() *AuthStoreFixed {
	return &AuthStoreFixed{tokens: map[string]string{}, roles: map[string][]string{}}
}

// Authenticate issues token for user.
func (s *AuthStoreFixed) Authenticate(user, token string) {
	s.mu.Lock()
	s.tokens[token] = user
	s.mu.Unlock()
}

// RoleGrant gives user role.
func (s *AuthStoreFixed) RoleGrant(user, role string) {
	s.mu.Lock()
	s.roles[user] = append(s.roles[user], role)
	s.mu.Unlock()
}

// IsAdminPermitted reports whether token belongs to an admin.
func (s *AuthStoreFixed) IsAdminPermitted(token string) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	user, ok := s.tokens[token]
	if !ok {
		return ErrInvalidToken
	}
	for _, r := range s.roles[user] {
		if r == "root" {
			return nil
		}
	}
	return ErrPermissionDenied
}
