// Package codec compresses frames for the connections of package
// precision: its constructors' summaries reach them as facts, as a
// compression library's do.
package codec

import (
	"io"
	"sync"
)

// Encoder compresses frames on a writer goroutine once it has somewhere
// to write; Reset stops the previous goroutine before it points the
// encoder elsewhere, which waits for it.
type Encoder struct {
	level  int
	output chan []byte
	done   sync.WaitGroup
	dst    io.Writer
}

// EncoderOption configures a new Encoder.
type EncoderOption func(*Encoder)

// WithLevel sets the compression level.
func WithLevel(n int) EncoderOption { return func(e *Encoder) { e.level = n } }

// Reset stops the running writer, if any, and starts one for w.
func (e *Encoder) Reset(w io.Writer) {
	if e.output != nil {
		close(e.output)
		e.done.Wait()
		e.output = nil
	}
	e.dst = w
	if w == nil {
		return
	}
	e.output = make(chan []byte, 8)
	e.done.Add(1)
	go func() {
		defer e.done.Done()
		for b := range e.output {
			e.dst.Write(b)
		}
	}()
}

// NewEncoder builds the encoder in a variable and hands its address to
// the options: they set the level, and nothing but Reset starts a writer,
// so the Reset of the new encoder has none to wait for.
func NewEncoder(w io.Writer, opts ...EncoderOption) *Encoder {
	e := Encoder{level: 1}
	for _, o := range opts {
		o(&e)
	}
	e.Reset(w)
	return &e
}

// NewMirrorEncoder starts a writer through a helper before it resets the
// encoder to its final destination: that Reset waits for the first one.
func NewMirrorEncoder(primary, mirror io.Writer) *Encoder {
	e := Encoder{level: 1}
	e.start(primary)
	e.Reset(io.MultiWriter(primary, mirror))
	return &e
}

func (e *Encoder) start(w io.Writer) { e.Reset(w) }
