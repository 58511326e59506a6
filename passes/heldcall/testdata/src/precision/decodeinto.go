package precision

import "sync"

// A codec decodes into whatever its caller hands it: a map, a struct, or a
// channel it streams the bytes into. A member list decodes each member's
// tags into a map under its lock: the channel path runs only for a
// channel, which no caller here passes. The twin streams a member's
// bytes into the list's own feed channel, which a slow reader fills.

type tagDecoder struct{ data []byte }

func (d *tagDecoder) decode(v any) {
	switch out := v.(type) {
	case *map[string]string:
		*out = map[string]string{"raw": string(d.data)}
	default:
		ch, ok := v.(chan<- byte)
		if !ok {
			ch = v.(chan byte)
		}
		for _, b := range d.data {
			ch <- b
		}
	}
}

type MemberList struct {
	mu   sync.Mutex
	tags map[string]map[string]string
	feed chan byte
}

// UpdateTags decodes under the lock: a note at most.
func (m *MemberList) UpdateTags(name string, raw []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var tags map[string]string
	d := &tagDecoder{data: raw}
	d.decode(&tags) // want `m.mu held across call of \(\*tagDecoder\).decode, which blocks: \(\*tagDecoder\).decode -> channel send .*\(plausible: the channel is the caller's value asserted out of an interface, a channel only if the caller passes one\)`
	m.tags[name] = tags
}

// Stream sends the member's bytes into the list's feed under the lock.
func (m *MemberList) Stream(raw []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range raw {
		m.feed <- b // want `m.mu held across channel send \(locked at decodeinto.go:\d+, released by defer\)$`
	}
}
