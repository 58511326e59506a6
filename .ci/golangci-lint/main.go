// Command golangci-lint is golangci-lint v2 with lockaudit's module plugin
// compiled in: the binary "golangci-lint custom" would build, built from the
// Go module proxy instead of a clone from GitHub.
//
// From this directory:
//
//	go build -o golangci-lint .
//
// go.mod requires github.com/lockaudit/lockaudit v0.0.0 and replaces it with
// the checkout (../..). Without the require line, the go command would ask
// the module proxy for the module.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/lockaudit/lockaudit" // registers the lockaudit module plugin
)

func main() {
	info := commands.BuildInfo{Version: "2.15.0+lockaudit", Commit: "(module proxy build)", Date: "(unknown)"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		info.BuildInfo = bi
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
