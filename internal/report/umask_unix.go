//go:build unix

package report

import (
	"os"
	"sync"
	"syscall"
)

// umask returns the process's file mode creation mask, so that files written
// through a temporary file get the permissions os.WriteFile would give them.
var umask = sync.OnceValue(func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
})
