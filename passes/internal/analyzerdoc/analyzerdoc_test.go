package analyzerdoc

import "testing"

func TestFromDocGo(t *testing.T) {
	src := "// Package heldcall defines an Analyzer that reports calls\n// under a lock.\n//\n//\tcode\npackage heldcall\n"
	want := "Reports calls\nunder a lock.\n\n\tcode"
	if got := FromDocGo(src, "heldcall"); got != want {
		t.Errorf("FromDocGo = %q, want %q", got, want)
	}
}
