package profiler

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
)

// Limits bound what reading one profile may cost.
type Limits struct {
	// MaxBytes is the largest response or file accepted, as sent or stored
	// (usually gzip-compressed). Zero means DefaultMaxBytes.
	MaxBytes int64
	// MaxDecompressed is the largest profile accepted once decompressed,
	// the guard against gzip bombs. Zero means DefaultMaxDecompressed.
	MaxDecompressed int64
	// MaxTraceBytes is how much of an execution trace is read; the rest
	// is left out and the report says so. Zero means
	// DefaultMaxTraceBytes.
	MaxTraceBytes int64
}

// Default limits: real mutex and block profiles are kilobytes to a few
// megabytes.
const (
	DefaultMaxBytes        = 64 << 20
	DefaultMaxDecompressed = 256 << 20
)

func (l Limits) maxBytes() int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return DefaultMaxBytes
}

func (l Limits) maxDecompressed() int64 {
	if l.MaxDecompressed > 0 {
		return l.MaxDecompressed
	}
	return DefaultMaxDecompressed
}

// errTooLarge is wrapped by the errors of readLimited.
var errTooLarge = errors.New("too large")

// readLimited reads r to the end, failing once more than limit bytes come.
func readLimited(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s: %w", what, byteSize(limit), errTooLarge)
	}
	return data, nil
}

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// parseProfile parses a profile, gzip-compressed or not, decompressing at
// most limits.MaxDecompressed bytes. data has already been limited to
// limits.MaxBytes by the caller.
func parseProfile(data []byte, limits Limits) (*profile.Profile, error) {
	if len(data) == 0 {
		return nil, errors.New("empty profile (0 bytes)")
	}
	if bytes.HasPrefix(data, gzipMagic) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("corrupt gzip data: %v", err)
		}
		raw, err := readLimited(zr, limits.maxDecompressed(), "decompressed profile")
		if err != nil {
			if errors.Is(err, errTooLarge) {
				return nil, err
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, errors.New("truncated gzip data (unexpected end of file)")
			}
			return nil, fmt.Errorf("corrupt gzip data: %v", err)
		}
		if bytes.HasPrefix(raw, gzipMagic) {
			// profile.ParseData would decompress it again, without a limit.
			return nil, errors.New("gzip data inside gzip data: not a profile")
		}
		data = raw
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("not a valid pprof profile: %v", oneLine(err.Error()))
	}
	return p, nil
}
