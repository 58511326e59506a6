package suppress

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		comment string
		want    []string
	}{
		{"//lockaudit:ignore heldcall the hook returns at once", []string{"heldcall"}},
		{"// lockaudit:ignore heldcall/chan,lockorder reason", []string{"heldcall/chan", "lockorder"}},
		{"//lockaudit:ignore all", []string{"all"}},
		{"//lockaudit:ignore", nil},
		{"//nolint:lockaudit // reason", []string{"all"}},
		{"//nolint:errcheck,lockaudit", []string{"all"}},
		{"//nolint:errcheck", nil},
		{"// an ordinary comment about lockaudit:ignore", nil},
	}
	for _, tt := range tests {
		if got := Parse(tt.comment); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %q, want %q", tt.comment, got, tt.want)
		}
	}
}
