package summary

import (
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
)

// TestOfIsExclusive checks that Of hands a package's Result to one analyzer
// at a time: the drivers run heldcall, lockorder and shardlock on a package
// concurrently, and a Result fills its caches as it answers (two analyzers
// filling one map at once crashed go vet on database/sql).
func TestOfIsExclusive(t *testing.T) {
	res := &Result{}
	pass := &analysis.Pass{ResultOf: map[*analysis.Analyzer]any{Analyzer: res}}
	_, release, err := Of(pass)
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan func())
	go func() {
		_, release2, err := Of(pass)
		if err != nil {
			t.Error(err)
		}
		second <- release2
	}()
	select {
	case <-second:
		t.Fatal("a second analyzer got the Result while the first still held it")
	case <-time.After(50 * time.Millisecond):
		// Still waiting, as it should. (A false pass is possible only if
		// the scheduler never ran the goroutine; it cannot fail falsely.)
	}
	release()
	select {
	case release2 := <-second:
		release2()
	case <-time.After(10 * time.Second):
		t.Fatal("the second analyzer never got the Result after the first released it")
	}
}
