package precision

import "sync"

// A channel's consumers: one buffering goroutine per consumer tag, fed
// through a channel kept in a map. Closing stops them all: close closes
// the quit channel and every feed before it waits, and each buffer
// blocks only on its feed or in a select with the quit channel.

type delivery struct{ body []byte }

type consumerSet struct {
	sync.WaitGroup
	sync.Mutex
	closed chan struct{}
	feeds  map[string]chan *delivery
}

func (cs *consumerSet) buffer(in chan *delivery, out chan delivery) {
	defer close(out)
	defer cs.Done()
	var queue []*delivery
	for d := range in {
		queue = append(queue, d)
		for len(queue) > 0 {
			select {
			case <-cs.closed:
				return
			case out <- *queue[0]:
				queue = queue[1:]
			}
		}
	}
}

func (cs *consumerSet) add(tag string, out chan delivery) {
	cs.Lock()
	defer cs.Unlock()
	in := make(chan *delivery)
	cs.feeds[tag] = in
	cs.Add(1)
	go cs.buffer(in, out)
}

// close waits for buffers it has just stopped. Not a finding.
func (cs *consumerSet) close() {
	cs.Lock()
	defer cs.Unlock()
	close(cs.closed)
	for tag, in := range cs.feeds {
		delete(cs.feeds, tag)
		close(in)
	}
	cs.Wait()
}

// A set whose buffers hand each delivery on without a way out: closing the
// feeds does not stop a buffer stuck on a slow consumer.

type strictConsumerSet struct {
	sync.WaitGroup
	sync.Mutex
	feeds map[string]chan *delivery
}

func (cs *strictConsumerSet) buffer(in chan *delivery, out chan delivery) {
	defer cs.Done()
	for d := range in {
		out <- *d
	}
}

func (cs *strictConsumerSet) add(tag string, out chan delivery) {
	cs.Lock()
	defer cs.Unlock()
	in := make(chan *delivery)
	cs.feeds[tag] = in
	cs.Add(1)
	go cs.buffer(in, out)
}

func (cs *strictConsumerSet) close() {
	cs.Lock()
	defer cs.Unlock()
	for tag, in := range cs.feeds {
		delete(cs.feeds, tag)
		close(in)
	}
	cs.Wait() // want `cs.Mutex held across call of sync.\(\*WaitGroup\).Wait \(locked at stopworkers.go:\d+, released by defer\)$`
}

// A set that closes only the feeds of one tag before it waits for every
// buffer.

type tagConsumerSet struct {
	sync.WaitGroup
	sync.Mutex
	feeds map[string]chan *delivery
}

func (cs *tagConsumerSet) buffer(in chan *delivery, out chan delivery) {
	defer cs.Done()
	for d := range in {
		select {
		case out <- *d:
		default:
		}
	}
}

func (cs *tagConsumerSet) add(tag string, out chan delivery) {
	cs.Lock()
	defer cs.Unlock()
	in := make(chan *delivery)
	cs.feeds[tag] = in
	cs.Add(1)
	go cs.buffer(in, out)
}

func (cs *tagConsumerSet) cancel(tag string) {
	cs.Lock()
	defer cs.Unlock()
	for t, in := range cs.feeds {
		if t == tag {
			delete(cs.feeds, t)
			close(in)
		}
	}
	cs.Wait() // want `cs.Mutex held across call of sync.\(\*WaitGroup\).Wait \(locked at stopworkers.go:\d+, released by defer\)$`
}
