package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// A Report is everything check has to say, ready for a writer.
type Report struct {
	Findings []Finding
	Errors   []PackageError
	Rules    []*analysis.Analyzer // rule metadata, for SARIF
	Version  string               // the tool's version, for SARIF

	Paths   *Paths   // how file names are shown (text) and where the root is (SARIF)
	Sources *Sources // the files, for SARIF's UTF-16 columns
}

// Write renders the report in the given format: "json", "sarif", or text
// for anything else.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "sarif":
		return r.WriteSARIF(w)
	default:
		return r.WriteText(w)
	}
}

// WriteFileAtomic writes data to name through a temporary file in the same
// directory and a rename, so that readers never see a partial file. An
// existing file keeps its permissions.
func WriteFileAtomic(name string, data []byte, perm os.FileMode) (err error) {
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	} else {
		perm &^= umask()
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return nil
}
