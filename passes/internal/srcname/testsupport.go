package srcname

import (
	"path/filepath"
	"strings"
)

// TestSupport says why code is there for tests although it is not in a
// _test.go file, or returns "": a package of test doubles or helpers (a
// path element testing, testutil, mocks, fake..., as in
// k8s.io/client-go/tools/cache/testing or sarama/mocks, or a test tree:
// test, tests, e2e, as in istio.io/istio/pkg/test/framework), a file of
// test doubles (fakewatcher.go, store_mock.go, testing.go), or a function
// named as a hook for tests (TestOnlyReset..., setClockForTesting) or as a
// constructor for them (NewTestEngine, newTestServer). Its locks are held
// by the test that drives it, which nothing else contends with. fileName
// is the file that declares the function ("" when unknown).
func TestSupport(pkgPath, fileName, funcName string) string {
	for _, elem := range strings.Split(pkgPath, "/") {
		if testSupportPackage(elem) {
			return "test-support code (package " + elem + ")"
		}
	}
	if base := filepath.Base(fileName); fileName != "" && testSupportFile(base) {
		return "test-support code (" + base + ")"
	}
	if strings.HasPrefix(funcName, "TestOnly") || strings.HasPrefix(funcName, "testOnly") || newTest(funcName) ||
		strings.HasSuffix(funcName, "ForTest") || strings.HasSuffix(funcName, "ForTests") || strings.HasSuffix(funcName, "ForTesting") {
		return "test-support code (" + funcName + ")"
	}
	return ""
}

func testSupportPackage(elem string) bool {
	switch elem {
	case "testing", "testutil", "testutils", "testhelper", "testhelpers", "testlib", "mock", "mocks", "fake", "fakes",
		"test", "tests", "e2e":
		return true
	}
	return strings.HasPrefix(elem, "fake") || strings.HasPrefix(elem, "mock") || strings.HasPrefix(elem, "testutil")
}

// testSupportFile reports whether a file's base name says it holds test
// doubles or helpers built into the package for its tests and its users'
// (fakefilewatcher.go, mock_store.go, store_mock.go, testing.go).
func testSupportFile(base string) bool {
	name, ok := strings.CutSuffix(base, ".go")
	if !ok {
		return false
	}
	switch name {
	case "testing", "testutil", "testutils", "testhelper", "testhelpers", "test_helpers", "test_util", "test_utils":
		return true
	}
	for _, w := range []string{"fake", "mock"} {
		if strings.HasPrefix(name, w) || strings.HasSuffix(name, "_"+w) || strings.HasSuffix(name, "_"+w+"s") {
			return true
		}
	}
	return false
}

// newTest reports whether funcName is a constructor for tests: NewTest or
// newTest followed by a name (NewTestEngine), not a word that starts with
// Test (NewTester).
func newTest(funcName string) bool {
	rest, ok := strings.CutPrefix(funcName, "NewTest")
	if !ok {
		rest, ok = strings.CutPrefix(funcName, "newTest")
	}
	return ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}
