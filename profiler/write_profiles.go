package profiler

import (
	"os"
	"path/filepath"
)

// WriteProfiles writes the merged profile of each kind to dir as
// <kind>.pb.gz (mutex.pb.gz, block.pb.gz, fgprof.pb.gz, cpu.pb.gz), for go tool pprof,
// creating dir if needed. It returns the files written, in kind order.
func (r *Report) WriteProfiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	var written []string
	for _, k := range kinds {
		p := r.merged[k]
		if p == nil {
			continue
		}
		name := filepath.Join(dir, string(k)+".pb.gz")
		tmp := name + ".tmp"
		f, err := os.Create(tmp)
		if err != nil {
			return written, err
		}
		err = p.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, name)
		}
		if err != nil {
			os.Remove(tmp)
			return written, err
		}
		written = append(written, name)
	}
	return written, nil
}
