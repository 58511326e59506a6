// Models etcd#6708 (GoKer etcd_6708): the v2 client's httpClusterClient.Sync
// takes the client's embedded RWMutex for writing and, in
// EndpointSelectionPrioritizeLeader mode, looks the leader up through a
// MembersAPI built on the client itself; the members API calls back through
// the httpClient interface into httpClusterClient.Do, which read-locks the
// same RWMutex. The goroutine that holds the write lock waits for its own
// read lock (write then read lock on one goroutine; the second acquisition is
// reached through an interface that wraps the receiver).
package etcd_httpcluster_sync

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
)

// EndpointSelectionMode says how the client picks the endpoint it pins.
type EndpointSelectionMode int

const (
	// EndpointSelectionRandom pins a random endpoint.
	EndpointSelectionRandom EndpointSelectionMode = iota
	// EndpointSelectionPrioritizeLeader pins the cluster leader's endpoint.
	EndpointSelectionPrioritizeLeader
)

// ErrNoEndpoints is returned when the client has no endpoint to talk to.
var ErrNoEndpoints = errors.New("client: no endpoints available")

// Member is one etcd member as the members API reports it.
type Member struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	ClientURLs []string `json:"clientURLs"`
}

// httpClient sends one request to some endpoint of the cluster.
type httpClient interface {
	Do(ctx context.Context, path string) ([]byte, error)
}

// MembersAPI lists the cluster's members.
type MembersAPI interface {
	List(ctx context.Context) ([]Member, error)
	Leader(ctx context.Context) (*Member, error)
}

type httpMembersAPI struct {
	client httpClient
}

// NewMembersAPI returns a MembersAPI that talks through c.
func NewMembersAPI(c httpClient) MembersAPI { return &httpMembersAPI{client: c} }

func (m *httpMembersAPI) List(ctx context.Context) ([]Member, error) {
	body, err := m.client.Do(ctx, "/v2/members")
	if err != nil {
		return nil, err
	}
	var resp struct {
		Members []Member `json:"members"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	return resp.Members, nil
}

func (m *httpMembersAPI) Leader(ctx context.Context) (*Member, error) {
	body, err := m.client.Do(ctx, "/v2/members/leader")
	if err != nil {
		return nil, err
	}
	var leader Member
	if err := json.Unmarshal(body, &leader); err != nil {
		return nil, err
	}
	return &leader, nil
}

// transportFunc performs one round trip to endpoint.
type transportFunc func(ctx context.Context, endpoint, path string) ([]byte, error)

// httpClusterClient spreads requests over the cluster's endpoints. Buggy version.
type httpClusterClient struct {
	sync.RWMutex
	endpoints     []string
	pinned        int
	selectionMode EndpointSelectionMode
	transport     transportFunc
}

// Do sends path to the pinned endpoint, failing over to the others.
func (c *httpClusterClient) Do(ctx context.Context, path string) ([]byte, error) {
	c.RLock()
	leps := len(c.endpoints)
	eps := make([]string, leps)
	copy(eps, c.endpoints)
	pinned := c.pinned
	c.RUnlock()
	if leps == 0 {
		return nil, ErrNoEndpoints
	}
	var lastErr error
	for i := pinned; i < leps+pinned; i++ {
		k := i % leps
		body, err := c.transport(ctx, eps[k], path)
		if err != nil {
			lastErr = err
			continue
		}
		if k != pinned {
			c.Lock()
			c.pinned = k
			c.Unlock()
		}
		return body, nil
	}
	return nil, lastErr
}

func (c *httpClusterClient) getLeaderEndpoint(ctx context.Context) (string, error) {
	mAPI := NewMembersAPI(c)
	leader, err := mAPI.Leader(ctx)
	if err != nil {
		return "", err
	}
	if len(leader.ClientURLs) == 0 {
		return "", ErrNoEndpoints
	}
	return leader.ClientURLs[0], nil
}

// Sync refreshes the endpoint list from the cluster's member list.
func (c *httpClusterClient) Sync(ctx context.Context) error {
	mAPI := NewMembersAPI(c)
	ms, err := mAPI.List(ctx)
	if err != nil {
		return err
	}
	var eps []string
	for _, m := range ms {
		eps = append(eps, m.ClientURLs...)
	}
	sort.Strings(eps)

	c.Lock()
	defer c.Unlock()
	c.endpoints = eps
	c.pinned = 0
	switch c.selectionMode {
	case EndpointSelectionRandom:
		// the real client shuffles here
	case EndpointSelectionPrioritizeLeader:
		lep, err := c.getLeaderEndpoint(ctx) // BUG: Do read-locks c while Sync holds the write lock
		if err != nil {
			return err
		}
		for i := range c.endpoints {
			if c.endpoints[i] == lep {
				c.pinned = i
				break
			}
		}
	}
	return nil
}

// httpClusterClientFixed is the fixed version: Sync asks for the leader
// before it takes the write lock.
type httpClusterClientFixed struct {
	sync.RWMutex
	endpoints     []string
	pinned        int
	selectionMode EndpointSelectionMode
	transport     transportFunc
}

// Do sends path to the pinned endpoint, failing over to the others.
func (c *httpClusterClientFixed) Do(ctx context.Context, path string) ([]byte, error) {
	c.RLock()
	leps := len(c.endpoints)
	eps := make([]string, leps)
	copy(eps, c.endpoints)
	pinned := c.pinned
	c.RUnlock()
	if leps == 0 {
		return nil, ErrNoEndpoints
	}
	var lastErr error
	for i := pinned; i < leps+pinned; i++ {
		k := i % leps
		body, err := c.transport(ctx, eps[k], path)
		if err != nil {
			lastErr = err
			continue
		}
		if k != pinned {
			c.Lock()
			c.pinned = k
			c.Unlock()
		}
		return body, nil
	}
	return nil, lastErr
}

func (c *httpClusterClientFixed) getLeaderEndpointFixed(ctx context.Context) (string, error) {
	mAPI := NewMembersAPI(c)
	leader, err := mAPI.Leader(ctx)
	if err != nil {
		return "", err
	}
	if len(leader.ClientURLs) == 0 {
		return "", ErrNoEndpoints
	}
	return leader.ClientURLs[0], nil
}

// Sync refreshes the endpoint list from the cluster's member list.
func (c *httpClusterClientFixed) Sync(ctx context.Context) error {
	mAPI := NewMembersAPI(c)
	ms, err := mAPI.List(ctx)
	if err != nil {
		return err
	}
	var eps []string
	for _, m := range ms {
		eps = append(eps, m.ClientURLs...)
	}
	sort.Strings(eps)

	var lep string
	if c.selectionMode == EndpointSelectionPrioritizeLeader {
		if lep, err = c.getLeaderEndpointFixed(ctx); err != nil {
			return err
		}
	}

	c.Lock()
	defer c.Unlock()
	c.endpoints = eps
	c.pinned = 0
	for i := range c.endpoints {
		if c.endpoints[i] == lep {
			c.pinned = i
			break
		}
	}
	return nil
}
