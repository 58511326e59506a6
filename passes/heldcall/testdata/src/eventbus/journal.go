package eventbus

import (
	"os"
	"sync"

	"eventbus/spawn"
)

// Journal appends entries through a loop, started through a starter,
// that is always ready for the next one and writes them out on its way
// out: a hand-off to it waits for no write, a wait for its end does.
type Journal struct {
	mu      sync.Mutex
	entries chan string
	stop    chan struct{}
	done    chan struct{}
	file    *os.File
	pending []string
	group   spawn.Group
}

func (j *Journal) loop() {
	defer close(j.done)
	defer j.flush()
	for {
		select {
		case <-j.stop:
			return
		case e := <-j.entries:
			j.pending = append(j.pending, e)
		}
	}
}

func (j *Journal) flush() {
	for _, e := range j.pending {
		j.file.WriteString(e)
	}
}

// Open starts the loop.
func (j *Journal) Open() { j.group.Start(j.loop) }

// Append hands the entry to the loop with the lock held: the loop is
// always ready for it.
func (j *Journal) Append(e string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	select {
	case j.entries <- e:
	case <-j.stop:
	}
}

// Close waits, with the lock held, for the loop's end, which comes after
// it has written every pending entry.
func (j *Journal) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	close(j.stop)
	<-j.done // want `j.mu held across channel receive \(locked at journal.go:\d+, released by defer\)`
}
