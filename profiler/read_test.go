package profiler

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipped compresses data.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// validProfile returns a small mutex profile, gzip-compressed.
func validProfile(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := contentionProfile(fakeStack{[]string{"sync.(*Mutex).Unlock /go/sync/mutex.go:1", "example.com/p.F /src/p.go:10"}, 1, 100}).Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestParseProfileBadInput(t *testing.T) {
	good := validProfile(t)
	bomb := gzipped(t, make([]byte, 4<<20)) // 4 MiB of zeros in a few KiB
	for _, tc := range []struct {
		name   string
		data   []byte
		limits Limits
		want   string
	}{
		{"empty", nil, Limits{}, "empty profile"},
		{"corrupt", []byte("this is not a profile at all"), Limits{}, "not a valid pprof profile"},
		{"truncated gzip", good[:len(good)/2], Limits{}, "truncated gzip data"},
		{"corrupt gzip header", append([]byte{0x1f, 0x8b, 0xff}, good[3:]...), Limits{}, "corrupt gzip data"},
		{"gzip bomb", bomb, Limits{MaxDecompressed: 1 << 20}, "decompressed profile is larger than 1 MiB"},
		{"nested gzip", gzipped(t, good), Limits{}, "gzip data inside gzip data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseProfile(tc.data, tc.limits)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("parseProfile = %v, %v; want an error containing %q", p, err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := parseProfile(good, Limits{}); err != nil {
		t.Errorf("parseProfile(valid) = %v", err)
	}
}

func TestCollectFilesErrorsAndKinds(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := validProfile(t)
	var block bytes.Buffer
	if err := contentionProfile(fakeStack{[]string{"runtime.chanrecv1 /go/chan.go:1", "example.com/p.G /src/p.go:20"}, 1, 100}).Write(&block); err != nil {
		t.Fatal(err)
	}
	var empty bytes.Buffer
	if err := contentionProfile().Write(&empty); err != nil {
		t.Fatal(err)
	}
	files := []string{
		write("a.pb.gz", good),                       // mutex by its stacks
		write("b.pb.gz", block.Bytes()),              // block by its stacks
		write("empty-block.pb.gz", empty.Bytes()),    // block by its name
		write("empty.pb.gz", empty.Bytes()),          // cannot tell
		write("truncated.pb.gz", good[:len(good)-9]), // truncated
		write("large.pb.gz", bytes.Repeat([]byte{1}, 2<<20)),
		filepath.Join(dir, "missing.pb.gz"),
		dir,
	}
	c := NewCollection()
	CollectFiles(c, files, Limits{MaxBytes: 1 << 20})
	if c.Count(Mutex) != 1 || c.Count(Block) != 2 || c.Count(Fgprof) != 0 {
		t.Errorf("counts mutex %d block %d fgprof %d, want 1, 2, 0", c.Count(Mutex), c.Count(Block), c.Count(Fgprof))
	}
	want := map[string]string{
		"empty.pb.gz":      "cannot tell a mutex profile from a block profile: it has no samples",
		"truncated.pb.gz":  "truncated gzip data",
		"large.pb.gz":      "file is larger than 1 MiB",
		"missing.pb.gz":    "no such file",
		filepath.Base(dir): "is a directory",
	}
	errs := c.Errors()
	if len(errs) != len(want) {
		t.Errorf("errors = %v, want %d", errs, len(want))
	}
	for _, e := range errs {
		w, ok := want[filepath.Base(e.Source)]
		if !ok || !strings.Contains(e.Message, w) {
			t.Errorf("error %s: %q, want one containing %q", e.Source, e.Message, w)
		}
	}
}
