package report

import (
	"fmt"
	"strings"
	"testing"
)

func TestSortFindings(t *testing.T) {
	fs := []Finding{
		{File: "b.go", Line: 1, Column: 1, Rule: "heldcall"},
		{File: "a.go", Line: 10, Column: 1, Rule: "heldcall"},
		{File: "a.go", Line: 2, Column: 9, Rule: "heldcall"},
		{File: "a.go", Line: 2, Column: 3, Rule: "lockorder"},
		{File: "a.go", Line: 2, Column: 3, Rule: "heldcall"},
	}
	SortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s:%d:%d:%s", f.File, f.Line, f.Column, f.Rule))
	}
	want := "a.go:2:3:heldcall a.go:2:3:lockorder a.go:2:9:heldcall a.go:10:1:heldcall b.go:1:1:heldcall"
	if strings.Join(got, " ") != want {
		t.Errorf("sorted: %s\nwant:   %s", strings.Join(got, " "), want)
	}
}

func TestSortErrors(t *testing.T) {
	got := SortErrors([]PackageError{{"b", "x"}, {"a", "y"}, {"b", "x"}, {"a", "x"}})
	want := []PackageError{{"a", "x"}, {"a", "y"}, {"b", "x"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
