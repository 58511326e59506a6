package precision

import (
	"net"
	"sync"
)

// An HTTP/3 server advertises its listeners' ports in Alt-Svc headers,
// rebuilt under the server's lock as listeners come and go.

type altSvcServer struct {
	mu     sync.Mutex
	ports  map[string]int
	header string
}

// AddListener resolves the listener's port: a number, or a service name
// from the services file. It asks no name server. Not a finding.
func (s *altSvcServer) AddListener(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	p, err := net.LookupPort("udp", port)
	if err != nil {
		return err
	}
	s.ports[addr] = p
	return nil
}

// AddListenerByName resolves the listener's host as well: a DNS query
// every request that reads the header waits for.
func (s *altSvcServer) AddListenerByName(addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	addrs, err := net.LookupHost(host) // want `s.mu held across call of net.LookupHost \(locked at lookupport.go:\d+, released by defer\)`
	if err != nil {
		return err
	}
	s.header = addrs[0]
	return nil
}

// Serve binds the listener under the lock: it asks a name server only if
// the configured address names a host, which is configuration, not a
// certain wait.
func (s *altSvcServer) Serve(addr string) (net.Listener, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := listenOn(addr) // want `s.mu held across call of listenOn, which blocks: listenOn -> net.Listen \(locked at lookupport.go:\d+, released by defer\) \(plausible: it asks a name server only when the address names a host\)`
	if err != nil {
		return nil, err
	}
	s.ports[addr] = l.Addr().(*net.TCPAddr).Port
	return l, nil
}

func listenOn(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// ServeUnlocked is its twin: it binds first and records the port under the
// lock.
func (s *altSvcServer) ServeUnlocked(addr string) (net.Listener, error) {
	l, err := listenOn(addr)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ports[addr] = l.Addr().(*net.TCPAddr).Port
	return l, nil
}
