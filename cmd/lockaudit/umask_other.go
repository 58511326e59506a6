//go:build !unix

package main

import "os"

// umask returns the usual mask; files keep os.CreateTemp's permissions
// adjusted to it.
func umask() os.FileMode { return 0o022 }
