package lockorder

import "testing"

// TestAcquirerName checks which names make a function an acquirer: the
// verb alone or followed by the next word, not a longer word.
func TestAcquirerName(t *testing.T) {
	for name, want := range map[string]bool{
		"acquire": true, "Acquire": true, "acquireConn": true, "BeginTx": true,
		"enterCritical": true, "checkout": true, "CheckOutSlot": true, "pin": true, "PinPage": true,
		"Ping": false, "pinned": false, "Entering": false, "beginning": false, "grabbed": false, "acquired": false,
		"get": false, "lockConn": false,
	} {
		if got := acquirerName.MatchString(name); got != want {
			t.Errorf("%s: acquirer %v, want %v", name, got, want)
		}
	}
}
