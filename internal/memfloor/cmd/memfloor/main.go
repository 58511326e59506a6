// Command memfloor is a vet tool that only builds SSA and exports one fact
// per function: the memory floor lockaudit is measured against.
//
//	go build -o /tmp/memfloor ./internal/memfloor/cmd/memfloor
//	go vet -vettool=/tmp/memfloor ./server
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockaudit/lockaudit/internal/memfloor"
	"github.com/lockaudit/lockaudit/internal/memfloor/peakprof"
)

func main() {
	peakprof.Start()
	unitchecker.Main(memfloor.Analyzer)
}
