package main

import (
	"github.com/lockaudit/lockaudit/internal/testfile"

	"github.com/lockaudit/lockaudit/internal/driver"
	"github.com/lockaudit/lockaudit/internal/fix/fixtest"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/internal/report/sariftest"
)

// writeFile writes content to dir/name and returns the absolute name.
var writeFile = testfile.Write

// The end-to-end tests read the SARIF report with internal/report's
// sariftest, and its constants from internal/report.
const (
	fingerprintKey = report.FingerprintKey
	srcRoot        = report.SARIFSrcRoot
)

type sarifDoc = sariftest.Doc

var (
	checkGitHubSARIF = sariftest.CheckGitHub
	obj              = sariftest.Obj
	list             = sariftest.List
	listOpt          = sariftest.ListOpt
	str              = sariftest.Str
)

// goCommandWaitDelay is how long check lets an interrupted go command
// clean up before it is killed.
const goCommandWaitDelay = driver.GoCommandWaitDelay

// applyUnified applies -diff's output to a file, strictly.
var applyUnified = fixtest.ApplyUnified

// jsonFix is a fix as the JSON report writes it.
type jsonFix struct {
	Message string `json:"message"`
	Edits   []struct {
		File        string `json:"file"`
		StartLine   int    `json:"start_line"`
		StartColumn int    `json:"start_column"`
		EndLine     int    `json:"end_line"`
		EndColumn   int    `json:"end_column"`
		NewText     string `json:"new_text"`
	} `json:"edits"`
}
