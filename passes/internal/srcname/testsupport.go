package srcname

import "strings"

// TestSupport says why code is there for tests although it is not in a
// _test.go file, or returns "": a package of test doubles or helpers (a
// path element testing, testutil, mocks, fake..., as in
// k8s.io/client-go/tools/cache/testing or sarama/mocks), or a function
// named as a hook for tests (TestOnlyReset..., setClockForTesting). Its
// locks are held by the test that drives it, which nothing else contends
// with.
func TestSupport(pkgPath, funcName string) string {
	for _, elem := range strings.Split(pkgPath, "/") {
		if testSupportPackage(elem) {
			return "test-support code (package " + elem + ")"
		}
	}
	if strings.HasPrefix(funcName, "TestOnly") || strings.HasPrefix(funcName, "testOnly") ||
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
