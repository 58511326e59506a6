package report

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
)

// FingerprintKey names lockaudit's fingerprint in SARIF partialFingerprints.
// Bump the version when Fingerprint changes, so that consumers see new keys
// instead of silently mismatching old ones.
const FingerprintKey = "lockaudit/v1"

// fileLineRE matches "file.go:41" and "file.go:41:7" references inside
// messages ("locked at pool.go:41"): they change whenever code above moves.
var fileLineRE = regexp.MustCompile(`[^\s(),;:]+\.go:\d+(?::\d+)?`)

// Fingerprint returns the line-independent identity of a finding: a hash of
// its rule, category, report path, enclosing function, lock and message with
// file:line references removed. It does not change when unrelated edits move
// the finding to another line, so it can match findings across commits
// (SARIF partialFingerprints, baselines).
//
// Several findings of one function can share a fingerprint (the same call
// made twice under the same lock); AssignFingerprints adds an occurrence
// number to tell them apart.
func Fingerprint(f Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Rule, f.Category, f.File, f.Function, f.Lock, fileLineRE.ReplaceAllString(f.Message, "")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// AssignFingerprints sets Finding.Fingerprint to Fingerprint(f) + ":" + n,
// where n counts the findings with the same base fingerprint in report order
// (1 for the first). findings must be sorted.
func AssignFingerprints(findings []Finding) {
	seen := make(map[string]int)
	for i := range findings {
		base := Fingerprint(findings[i])
		seen[base]++
		findings[i].Fingerprint = base + ":" + strconv.Itoa(seen[base])
	}
}
