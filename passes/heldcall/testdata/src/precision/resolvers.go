package precision

import "sync"

// A pubsub node reads its per-channel settings through resolvers its
// user configures, and logs through the user's log handler, while it
// holds the channel's lock. A resolver that maps a channel's name to its
// options is a setting, and a log handler is logging: neither is a hook a
// reviewer moves out of the critical section.

type ChannelOptions struct {
	HistorySize int
	Presence    bool
}

type LogEntry struct {
	Message string
	Fields  map[string]any
}

type LogHandler func(LogEntry)

type NodeConfig struct {
	GetChannelOptions func(channel string) ChannelOptions
	GetNamespaceLabel func(channel string) string
	LogHandler        LogHandler
	// LoadChannelState reads a channel's state from the user's store: a
	// loader that can fail is a hook.
	LoadChannelState func(channel string) ([]byte, error)
	// OnSubscribe runs the user's code for each new subscriber.
	OnSubscribe func(channel, client string)
}

type pubsubLogger struct {
	handler LogHandler
}

func (l *pubsubLogger) log(e LogEntry) {
	if l.handler != nil {
		l.handler(e)
	}
}

type PubsubNode struct {
	mu     sync.Mutex
	config NodeConfig
	logger *pubsubLogger
	subs   map[string]map[string]bool
	labels map[string]int
}

func NewPubsubNode(config NodeConfig) *PubsubNode {
	return &PubsubNode{config: config, logger: &pubsubLogger{handler: config.LogHandler}, subs: map[string]map[string]bool{}, labels: map[string]int{}}
}

func (n *PubsubNode) Subscribe(channel, client string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	opts := n.config.GetChannelOptions(channel)
	n.labels[n.config.GetNamespaceLabel(channel)]++
	if !opts.Presence {
		n.logger.log(LogEntry{Message: "subscribed without presence"})
	}
	if n.subs[channel] == nil {
		n.subs[channel] = map[string]bool{}
	}
	n.subs[channel][client] = true
}

// SubscribeLoaded is the twin that loads the channel's state from the
// user's store under the lock, and runs the user's subscribe hook there.
func (n *PubsubNode) SubscribeLoaded(channel, client string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, err := n.config.LoadChannelState(channel); err != nil { // want `n.mu held across call of func value n.config.LoadChannelState \(locked at resolvers.go:\d+, released by defer\)`
		return err
	}
	n.config.OnSubscribe(channel, client) // want `n.mu held across call of func value n.config.OnSubscribe \(locked at resolvers.go:\d+, released by defer\)`
	n.subs[channel][client] = true
	return nil
}
