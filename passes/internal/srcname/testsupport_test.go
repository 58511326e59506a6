package srcname

import "testing"

func TestTestSupport(t *testing.T) {
	for _, tc := range []struct {
		pkg, file, fn string
		want          bool
	}{
		{"github.com/IBM/sarama/mocks", "x.go", "NewAsyncProducer", true},
		{"k8s.io/client-go/tools/cache/testing", "x.go", "NewFakeControllerSource", true},
		{"google.golang.org/grpc/internal/testutils/fakegrpclb", "x.go", "(*Server).Stop", true},
		{"example.com/store/mockstore", "x.go", "New", true},
		{"k8s.io/apiserver/pkg/storage/etcd3", "x.go", "TestOnlyResetResourceSizeEstimator", true},
		{"example.com/clock", "x.go", "setNowForTesting", true},
		{"example.com/clock", "x.go", "Now", false},
		{"vitess.io/vitess/go/vt/vttablet/tabletmanager/vdiff", "x.go", "NewTestEngine", true},
		{"example.com/cluster", "x.go", "newTestServer", true},
		{"example.com/eval", "x.go", "NewTester", false},
		{"example.com/eval", "x.go", "NewTest", false},
		{"k8s.io/apiserver/pkg/storage/etcd3", "x.go", "Get", false},
		{"example.com/integration/slack", "x.go", "Post", false},
		{"example.com/testingtools", "x.go", "Run", false},
		{"istio.io/istio/pkg/test/framework", "suite.go", "newRuntime", true},
		{"istio.io/istio/pilot/pkg/model/test", "mockopenidserver.go", "StartNewTLSServer", true},
		{"example.com/cluster/e2e", "harness.go", "Start", true},
		{"istio.io/istio/pkg/filewatcher", "/src/pkg/filewatcher/fakefilewatcher.go", "FakeWatcher.Add", true},
		{"istio.io/istio/pkg/filewatcher", "/src/pkg/filewatcher/fakefilewatcher.go", "NewFakeWatcher", true},
		{"example.com/store", "conn.go", "mockConn.Read", true},
		{"example.com/store", "fakedns.go", "Holder.Lookup", false},
		{"example.com/store", "faker.go", "Faker.Name", false},
		{"example.com/store", "x.go", "Mockable.Get", false},
		{"example.com/store", "x.go", "NewFakeClock", true},
		{"example.com/store", "x.go", "Newfake", false},
		{"example.com/store", "store_mock.go", "Get", true},
		{"example.com/store", "mock_store.go", "Get", true},
		{"example.com/store", "fakes.go", "Get", true},
		{"example.com/store", "mocks_test_helpers.go", "Get", false},
		{"example.com/store", "testing.go", "NewStore", true},
		{"example.com/store", "store.go", "Get", false},
		{"example.com/store", "", "Get", false},
		{"example.com/store", "latest.go", "Get", false},
		{"example.com/store", "contest.go", "Get", false},
		{"example.com/testament", "x.go", "Get", false},
		{"example.com/store", "mockup_test.txt", "Get", false},
	} {
		if got := TestSupport(tc.pkg, tc.file, tc.fn) != ""; got != tc.want {
			t.Errorf("TestSupport(%q, %q, %q) = %v, want %v", tc.pkg, tc.file, tc.fn, got, tc.want)
		}
	}
}
