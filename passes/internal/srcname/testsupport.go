package srcname

import "strings"

// TestSupport says why code is there for tests although it is not in a
// _test.go file, or returns "": a package of test doubles or helpers (a
// path element testing, testutil, mocks, fake..., as in
// k8s.io/client-go/tools/cache/testing or sarama/mocks), or a function
// named as a hook for tests (TestOnlyReset..., setClockForTesting) or as a
// constructor for them (NewTestEngine, newTestServer). Its
// locks are held by the test that drives it, which nothing else contends
// with.
func TestSupport(pkgPath, funcName string) string {
	for _, elem := range strings.Split(pkgPath, "/") {
		if testSupportPackage(elem) {
			return "test-support code (package " + elem + ")"
		}
	}
	if strings.HasPrefix(funcName, "TestOnly") || strings.HasPrefix(funcName, "testOnly") || newTest(funcName) ||
		strings.HasSuffix(funcName, "ForTest") || strings.HasSuffix(funcName, "ForTests") || strings.HasSuffix(funcName, "ForTesting") {
		return "test-support code (" + funcName + ")"
	}
	return ""
}

func testSupportPackage(elem string) bool {
	switch elem {
	case "testing", "testutil", "testutils", "testhelper", "testhelpers", "testlib", "mock", "mocks", "fake", "fakes":
		return true
	}
	return strings.HasPrefix(elem, "fake") || strings.HasPrefix(elem, "mock") || strings.HasPrefix(elem, "testutil")
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
