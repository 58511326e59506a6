package report

import (
	"encoding/json"
	"fmt"
	"os"
)

// baselineVersion is the format version of baseline files.
const baselineVersion = 1

// A baselineFile records accepted findings by fingerprint. The other fields
// are for the people reviewing the file; only the fingerprints are matched.
type baselineFile struct {
	Version  int             `json:"lockaudit_baseline"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Category    string `json:"category"`
	File        string `json:"file"`
	Function    string `json:"function"`
	Message     string `json:"message"`
}

// ReadBaseline returns the fingerprints recorded in a baseline file.
func ReadBaseline(name string) (map[string]bool, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var bf baselineFile
	if err := json.Unmarshal(data, &bf); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if bf.Version != baselineVersion {
		return nil, fmt.Errorf("%s is not a lockaudit baseline (version %d), write one with -write-baseline", name, bf.Version)
	}
	set := make(map[string]bool, len(bf.Findings))
	for _, e := range bf.Findings {
		set[e.Fingerprint] = true
	}
	return set, nil
}

// WriteBaseline records findings in a baseline file.
func WriteBaseline(name string, findings []Finding) error {
	bf := baselineFile{Version: baselineVersion, Findings: []baselineEntry{}}
	for _, f := range findings {
		bf.Findings = append(bf.Findings, baselineEntry{
			Fingerprint: f.Fingerprint,
			Rule:        f.Rule,
			Category:    f.Category,
			File:        f.File,
			Function:    f.Function,
			Message:     f.Message,
		})
	}
	data, err := json.MarshalIndent(bf, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(name, append(data, '\n'), 0o666)
}
