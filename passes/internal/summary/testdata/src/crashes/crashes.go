// Package crashes holds crash handlers, which act only once recover()
// has returned a panic, and deferred helpers that are not.
package crashes

import (
	"os"
	"time"
)

// PanicHooks are told of every panic.
var PanicHooks []func(recovered any)

// HandleCrash tells the hooks of a panic and lets it go on.
func HandleCrash() { // want HandleCrash:`lockfacts\(runs func value PanicHooks\[i\]; acts on a panic\)`
	if r := recover(); r != nil {
		for _, fn := range PanicHooks {
			fn(r)
		}
		panic(r)
	}
}

// LogCrash returns early when nothing panicked.
func LogCrash(log *os.File) { // want LogCrash:`lockfacts\(blocks: crashes.LogCrash -> os.\(\*File\).WriteString; acts on a panic\)`
	r := recover()
	if r == nil {
		return
	}
	log.WriteString("panic\n")
}

// FlushAndRecover writes the log whether or not anything panicked: no
// crash handler.
func FlushAndRecover(log *os.File) { // want FlushAndRecover:`lockfacts\(blocks: crashes.FlushAndRecover -> os.\(\*File\).Sync\)`
	r := recover()
	log.Sync()
	if r != nil {
		panic(r)
	}
}

// Backoff sleeps before it recovers: no crash handler.
func Backoff() { // want Backoff:`lockfacts\(blocks: crashes.Backoff -> time.Sleep\)`
	time.Sleep(time.Second)
	if r := recover(); r != nil {
		panic(r)
	}
}

// Worker sums what it is sent, restarted by its supervisor.
type Worker struct{ in chan int }

func (w *Worker) run() {
	for range w.in {
	}
}

// RestartAfterBackoff recovers a panic of the worker and starts it again
// after a back-off: no crash handler, the work goes on.
func (w *Worker) RestartAfterBackoff() { // want RestartAfterBackoff:`lockfacts\(blocks: crashes.\(\*Worker\).RestartAfterBackoff -> time.Sleep\)`
	if r := recover(); r != nil {
		time.Sleep(time.Second)
		w.restart()
	}
}

func (w *Worker) restart() { go w.run() }
