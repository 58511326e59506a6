//go:build !unix

package report

import "os"

// umask returns the usual mask; files keep os.CreateTemp's permissions
// adjusted to it.
func umask() os.FileMode { return 0o022 }
