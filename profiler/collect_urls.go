package profiler

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
)

// URLOptions control CollectURLs.
type URLOptions struct {
	// Seconds is the profiling window: each endpoint returns the contention
	// of the next Seconds seconds (a delta profile). Zero means 10.
	Seconds int
	// Grace is how much longer than the window a request may take before
	// it is abandoned. Zero means DefaultGrace.
	Grace time.Duration
	// Limits bound each response.
	Limits Limits
	// Client sends the requests; nil means a client with default transport.
	Client *http.Client
	// Trace also records an execution trace of the window
	// (/debug/pprof/trace?seconds=N, skipped quietly where the service
	// does not serve it), read up to Limits.MaxTraceBytes.
	Trace bool
}

// DefaultGrace is added to the window to bound each request.
const DefaultGrace = 15 * time.Second

// The endpoints collected from each service, relative to its base URL.
var endpoints = []struct {
	kind     Kind
	path     string
	optional bool // a 404 means the service does not offer it: skip quietly
}{
	{Mutex, "/debug/pprof/mutex", false},
	{Block, "/debug/pprof/block", false},
	{Fgprof, "/debug/fgprof", true},
	{CPU, "/debug/pprof/profile", true},
}

// CollectURLs pulls delta mutex and block profiles, and an fgprof profile
// where offered, from each service, all at once so that their windows
// coincide. A base URL may name the service root (http://host:6060) or its
// /debug/pprof/ page. Every failure becomes an error of c naming the
// endpoint.
func CollectURLs(ctx context.Context, c *Collection, bases []string, opts URLOptions) {
	seconds := opts.Seconds
	if seconds <= 0 {
		seconds = 10
	}
	grace := opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	client := opts.Client
	if client == nil {
		client = &http.Client{}
	}
	var wg sync.WaitGroup
	for _, base := range bases {
		root, err := serviceRoot(base)
		if err != nil {
			c.addError(base, "%v", err)
			continue
		}
		var contributed sync.Once
		for _, ep := range endpoints {
			wg.Go(func() {
				u := root + ep.path + "?seconds=" + strconv.Itoa(seconds)
				if ep.kind == Fgprof {
					u += "&format=pprof"
				}
				timeout := time.Duration(seconds)*time.Second + grace
				p, err := fetchProfile(ctx, client, u, timeout, opts.Limits)
				if errors.Is(err, errNotFound) && ep.optional {
					return
				}
				if err == nil {
					err = checkKind(p, ep.kind)
				}
				if err != nil {
					c.addError(u, "%v", err)
					return
				}
				c.add(ep.kind, p)
				contributed.Do(func() { c.addSource(base) })
			})
		}
		if opts.Trace {
			wg.Go(func() {
				u := root + "/debug/pprof/trace?seconds=" + strconv.Itoa(seconds)
				set, capped, err := fetchTrace(ctx, client, u, time.Duration(seconds)*time.Second+grace, opts.Limits)
				if errors.Is(err, errNotFound) {
					return
				}
				if err != nil {
					c.addError(u, "%v", err)
					return
				}
				c.addWaits(base, set, capped)
				contributed.Do(func() { c.addSource(base) })
			})
		}
	}
	wg.Wait()
}

// fetchTrace GETs an execution trace within timeout and reads its sync
// waits as it streams in, up to limits.MaxTraceBytes.
func fetchTrace(ctx context.Context, client *http.Client, u string, timeout time.Duration, limits Limits) (*waitSet, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := get(ctx, client, u, timeout)
	if err != nil {
		return nil, false, err
	}
	defer resp.Body.Close()
	set, capped, err := parseTrace(resp.Body, limits.maxTraceBytes())
	if err != nil && ctx.Err() != nil {
		return nil, false, requestError(ctx, err, timeout)
	}
	return set, capped, err
}

// serviceRoot validates a base URL and returns it without a trailing
// /debug/pprof/ and slash.
func serviceRoot(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", errors.New("bad URL: want http://host[:port][/path]")
	}
	u.RawQuery, u.Fragment = "", ""
	s := strings.TrimSuffix(u.String(), "/")
	s = strings.TrimSuffix(s, "/debug/pprof")
	return s, nil
}

// errNotFound is returned by fetchProfile for a 404 response.
var errNotFound = errors.New("not found (404)")

// fetchProfile GETs one profile within timeout and limits.
func fetchProfile(ctx context.Context, client *http.Client, u string, timeout time.Duration, limits Limits) (*profile.Profile, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := get(ctx, client, u, timeout)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > limits.maxBytes() {
		return nil, fmt.Errorf("response is larger than %s (Content-Length %d)", byteSize(limits.maxBytes()), resp.ContentLength)
	}
	data, err := readLimited(resp.Body, limits.maxBytes(), "response")
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, err
		}
		return nil, requestError(ctx, err, timeout)
	}
	return parseProfile(data, limits)
}

// get sends a GET and returns the response of a 200, errNotFound for a
// 404, or an error describing any other status. The caller closes the
// body.
func get(ctx context.Context, client *http.Client, u string, timeout time.Duration) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, requestError(ctx, err, timeout)
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, errNotFound
	}
	body, _ := readLimited(resp.Body, 512, "body")
	msg := strings.TrimSpace(oneLine(string(body)))
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	if msg != "" {
		msg = ": " + msg
	}
	return nil, fmt.Errorf("HTTP %s%s", resp.Status, msg)
}

// requestError explains a failed request, naming the timeout when it was
// the cause.
func requestError(ctx context.Context, err error, timeout time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no complete response within %v (window plus grace)", timeout)
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return errors.New("interrupted")
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("request failed: %v", err)
}
