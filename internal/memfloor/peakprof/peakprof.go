// Package peakprof writes a heap profile of a vet-tool process near its
// peak: where the memory of one package's analysis goes. The go command runs
// a vet tool as a child process, per package, so a profile can only be
// asked for through the environment:
//
//	LOCKAUDIT_HEAPPROFILE=/tmp/heap go vet -vettool=$(command -v lockaudit) ./pkg
//
// writes /tmp/heap.<pid> for each package analysed, rewritten each time
// the heap grows by a 32nd over the largest seen so far. The profile's
// in-use figures are those of the last garbage collection before that.
package peakprof

import (
	"fmt"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// Env is the variable that names the profile's path prefix.
const Env = "LOCKAUDIT_HEAPPROFILE"

// Start starts the sampler when Env is set; it runs until the process exits.
func Start() {
	prefix := os.Getenv(Env)
	if prefix == "" {
		return
	}
	path := fmt.Sprintf("%s.%d", prefix, os.Getpid())
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		for {
			time.Sleep(50 * time.Millisecond)
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak+peak/32 {
				peak = v
				if f, err := os.Create(path); err == nil {
					// A debugging aid: a profile that fails to write is
					// simply missing, the analysis goes on.
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					_ = f.Close()
				}
			}
		}
	}()
}
