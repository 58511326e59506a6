package driver

import "testing"

func TestIsVetToolInvocation(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "-heldcall.block=x=db", "/tmp/go-build1/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"check", "./..."}, false},
		{[]string{"-format", "json", "./..."}, false},
		{[]string{"version"}, false},
	} {
		if got := IsVetToolInvocation(c.args); got != c.want {
			t.Errorf("IsVetToolInvocation(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
