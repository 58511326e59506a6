package srcname

import "testing"

func TestTeardown(t *testing.T) {
	for name, want := range map[string]bool{
		"Close":       true,
		"close":       true,
		"closeLocked": true,
		"StopAndWait": true,
		"Shutdown":    true,
		"shutdownNow": true,
		"Terminate":   true,
		"Destroy":     true,
		"Dispose":     true,
		"Teardown":    true,
		"Closest":     false,
		"Stopwatch":   false,
		"closed":      false,
		"Open":        false,
		"Log":         false,
		"Truncate":    false,
		"":            false,
	} {
		if got := Teardown(name); got != want {
			t.Errorf("Teardown(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestStartup(t *testing.T) {
	for name, want := range map[string]bool{
		"Start":       true,
		"start":       true,
		"startLocked": true,
		"StartAsync":  true,
		"Started":     false,
		"Startup":     false,
		"restart":     false,
		"Stop":        false,
		"":            false,
	} {
		if got := Startup(name); got != want {
			t.Errorf("Startup(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEndedFlag(t *testing.T) {
	for name, want := range map[string]bool{
		"closed":    true,
		"isClosed":  true,
		"Stopped":   true,
		"shutdown":  true,
		"cancelled": true,
		"aborted":   true,
		"done":      false,
		"finished":  false,
		"closing":   false,
		"closer":    false,
		"isOpen":    false,
		"is":        false,
		"":          false,
	} {
		if got := EndedFlag(name); got != want {
			t.Errorf("EndedFlag(%q) = %v, want %v", name, got, want)
		}
	}
}
