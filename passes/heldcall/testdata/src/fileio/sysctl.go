package fileio

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A VPN router sets kernel knobs while it holds its configuration lock.
// A file under /proc or /sys is the kernel's own state, answered in the
// call without a disk; the router's saved state on disk is real file I/O.

type router struct {
	mu       sync.Mutex
	stateDir string
	routes   []string
}

// writeSysctl sets one sysctl through its /proc/sys file.
func writeSysctl(key, val string) error {
	fn := "/proc/sys/" + strings.ReplaceAll(key, ".", "/")
	return os.WriteFile(fn, []byte(val), 0o644)
}

// ipv6Disabled reads a kernel flag by a joined path.
func ipv6Disabled(iface string) bool {
	b, err := os.ReadFile(filepath.Join("/proc/sys/net/ipv6/conf", iface, "disable_ipv6"))
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// linkMTU reads the interface's MTU from sysfs by a formatted path.
func linkMTU(iface string) string {
	b, _ := os.ReadFile(fmt.Sprintf("/sys/class/net/%s/mtu", iface))
	return string(b)
}

// EnableForwarding flips kernel knobs under the lock. Not a finding.
func (r *router) EnableForwarding(iface string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ipv6Disabled(iface) {
		return writeSysctl("net.ipv4.ip_forward", "1")
	}
	_ = linkMTU(iface)
	return writeSysctl("net.ipv6.conf.all.forwarding", "1")
}

// saveRoutes writes the router's state to its directory on disk.
func (r *router) saveRoutes() error {
	return os.WriteFile(filepath.Join(r.stateDir, "routes"), []byte(strings.Join(r.routes, "\n")), 0o600)
}

// AddRoute persists the routes under the lock: every reader of the
// router waits for the disk.
func (r *router) AddRoute(route string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes = append(r.routes, route)
	return r.saveRoutes() // want `r.mu held across call of \(\*router\).saveRoutes, which blocks: \(\*router\).saveRoutes -> os.WriteFile`
}

// SetKnob writes a sysctl file named by its caller directly. The path
// is not seen to be under /proc: reported.
func (r *router) SetKnob(path, val string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return os.WriteFile(path, []byte(val), 0o644) // want `r.mu held across call of os.WriteFile`
}

// SetForwarding writes the sysctl file directly. Not a finding.
func (r *router) SetForwarding(on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	val := "0"
	if on {
		val = "1"
	}
	return os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte(val), 0o644)
}
