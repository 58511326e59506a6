// Package pending holds heldcall cases on which the analyzer disagrees with
// its specification: each file is one discrepancy (the failing positive or
// twin, with its failing expectation, and the code it needs), skipped until
// the engine is fixed. The discrepancies are described in
// /tmp/heldcall-discrepancies.md; HELDCALL_PENDING=1 runs this package.
// When one is fixed, move its case back to the package it came from.
package pending
