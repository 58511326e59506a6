package summary

import "testing"

func TestOptionName(t *testing.T) {
	for name, want := range map[string]bool{
		"Option":          true,
		"option":          true,
		"PublishOption":   true,
		"NetOpt":          true,
		"dialOptionFunc":  true,
		"ServerOptFunc":   true,
		"Adopt":           false,
		"Optional":        false,
		"OptionsProvider": false,
		"Hook":            false,
	} {
		if got := optionName(name); got != want {
			t.Errorf("optionName(%q) = %v, want %v", name, got, want)
		}
	}
}
