// Package regressions holds heldcall cases that the analyzer once got wrong,
// each file one case with its twin: a user-set package-level hook, locks
// reached through a map lookup or a call result (named as written), a callee
// that releases the caller's lock around its callback (an unlock/relock
// window), a call deferred after the deferred Unlock, and a lock wrapper
// that returns its unlock function.
package regressions
