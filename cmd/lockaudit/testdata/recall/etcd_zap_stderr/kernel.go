// Package etcd_zap_stderr reproduces etcd-io/etcd#22214 (same root cause as
// #22326): linearizable reads hang for ever when the stderr log sink stops draining.
//
// etcd logs through zap's locked write syncer, one mutex around write(2) on
// stderr; when the container runtime stops reading the pipe, one goroutine blocks
// in write(2) holding that mutex and every other log call queues behind it,
// including the one linearizableReadLoop makes for a slow read, so all linearizable
// reads hang while the member reports healthy. The fixed twin hands log lines to a
// single writer goroutine without holding a lock across the write (dropping when
// the queue is full).
package etcd_zap_stderr

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// lockedWriteSyncer is zapcore.Lock(os.Stderr).
type lockedWriteSyncer struct {
	sync.Mutex
	ws *os.File
}

func (s *lockedWriteSyncer) Write(p []byte) (int, error) {
	s.Lock()
	n, err := s.ws.Write(p)
	s.Unlock()
	return n, err
}

type Logger struct{ out *lockedWriteSyncer }

func NewLogger() *Logger { return &Logger{out: &lockedWriteSyncer{ws: os.Stderr}} }

func (l *Logger) Warn(msg string, took time.Duration) {
	_, _ = l.out.Write(fmt.Appendf(nil, "{\"level\":\"warn\",\"msg\":%q,\"took\":%q}\n", msg, took))
}

type EtcdServer struct {
	lg        *Logger
	readwaitc chan struct{}
	readIndex func() uint64
	applied   chan uint64
}

// linearizableReadLoop serves every linearizable read of the member.
func (s *EtcdServer) linearizableReadLoop(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-s.readwaitc:
		}
		start := time.Now()
		idx := s.readIndex()
		if took := time.Since(start); took > 100*time.Millisecond {
			s.lg.Warn("apply request took too long", took)
		}
		s.applied <- idx
	}
}

// ---- fixed twin: a single writer goroutine owns stderr; no lock across write(2) ----

type asyncWriteSyncerFixed struct {
	lines chan []byte
	ws    *os.File
}

func newAsyncWriteSyncerFixed(ws *os.File) *asyncWriteSyncerFixed {
	s := &asyncWriteSyncerFixed{lines: make(chan []byte, 4096), ws: ws}
	go func() {
		for p := range s.lines {
			_, _ = s.ws.Write(p)
		}
	}()
	return s
}

func (s *asyncWriteSyncerFixed) Write(p []byte) (int, error) {
	select {
	case s.lines <- append([]byte(nil), p...):
	default: // sink is stuck: drop rather than block the caller
	}
	return len(p), nil
}
