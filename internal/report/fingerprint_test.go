package report

import "testing"

func TestFingerprintOccurrences(t *testing.T) {
	fs := []Finding{
		{Rule: "heldcall", Category: "sleep", File: "a.go", Line: 3, Function: "F", Message: "m (locked at a.go:2)"},
		{Rule: "heldcall", Category: "sleep", File: "a.go", Line: 5, Function: "F", Message: "m (locked at a.go:4)"},
		{Rule: "heldcall", Category: "sleep", File: "a.go", Line: 9, Function: "G", Message: "m (locked at a.go:8)"},
	}
	AssignFingerprints(fs)
	base := Fingerprint(fs[0])
	if fs[0].Fingerprint != base+":1" || fs[1].Fingerprint != base+":2" {
		t.Errorf("same base: got %s and %s, want %s:1 and :2", fs[0].Fingerprint, fs[1].Fingerprint, base)
	}
	if fs[2].Fingerprint != Fingerprint(fs[2])+":1" || Fingerprint(fs[2]) == base {
		t.Errorf("other function: %s", fs[2].Fingerprint)
	}
}

func TestFileLineRE(t *testing.T) {
	got := fileLineRE.ReplaceAllString("p.mu held across call of f (locked at pool.go:41, released by defer; via x/y_test.go:3:9)", "")
	want := "p.mu held across call of f (locked at , released by defer; via )"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
