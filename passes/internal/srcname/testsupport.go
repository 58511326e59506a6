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
// test doubles (mock_store.go, store_fake.go, testing.go), a test double
// (a method of FakeWatcher or mockConn, NewFakeClock), or a function named
// as a hook for tests (TestOnlyReset..., setClockForTesting) or as a
// constructor for them (NewTestEngine, newTestServer). Its locks are held
// by the test that drives it, which nothing else contends with. fileName
// is the file that declares the function ("" when unknown); funcName is
// the function's name, a method's as Recv.Method.
func TestSupport(pkgPath, fileName, funcName string) string {
	for _, elem := range strings.Split(pkgPath, "/") {
		if testSupportPackage(elem) {
			return "test-support code (package " + elem + ")"
		}
	}
	if base := filepath.Base(fileName); fileName != "" && testSupportFile(base) {
		return "test-support code (" + base + ")"
	}
	recv, name, isMethod := strings.Cut(funcName, ".")
	if !isMethod {
		recv, name = "", funcName
	}
	if testDouble(recv) {
		return "test-support code (" + recv + ")"
	}
	if testDouble(name) || strings.HasPrefix(name, "TestOnly") || strings.HasPrefix(name, "testOnly") || newTest(name) ||
		strings.HasSuffix(name, "ForTest") || strings.HasSuffix(name, "ForTests") || strings.HasSuffix(name, "ForTesting") {
		return "test-support code (" + name + ")"
	}
	return ""
}

// testDouble reports whether a type or function name names a test double
// or its constructor: Fake, fake, Mock or mock, after an optional New or
// new, followed by a word (FakeWatcher, mockConn, NewFakeClock), not a
// word that starts with those letters (Faker, Mockable).
func testDouble(name string) bool {
	for _, p := range []string{"New", "new"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			name = rest
			break
		}
	}
	for _, w := range []string{"Fake", "fake", "Mock", "mock"} {
		if rest, ok := strings.CutPrefix(name, w); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	return false
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
// (mock_store.go, store_mock.go, fakes.go, testing.go). A name that only
// starts with fake or mock (fakedns.go) may be a product's.
func testSupportFile(base string) bool {
	name, ok := strings.CutSuffix(base, ".go")
	if !ok {
		return false
	}
	switch name {
	case "testing", "testutil", "testutils", "testhelper", "testhelpers", "test_helpers", "test_util", "test_utils",
		"fake", "fakes", "mock", "mocks":
		return true
	}
	for _, w := range []string{"fake", "mock"} {
		if strings.HasPrefix(name, w+"_") || strings.HasSuffix(name, "_"+w) || strings.HasSuffix(name, "_"+w+"s") {
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
