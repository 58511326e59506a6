package srcname

import "testing"

func TestTestSupport(t *testing.T) {
	for _, tc := range []struct {
		pkg, fn string
		want    bool
	}{
		{"github.com/IBM/sarama/mocks", "NewAsyncProducer", true},
		{"k8s.io/client-go/tools/cache/testing", "NewFakeControllerSource", true},
		{"google.golang.org/grpc/internal/testutils/fakegrpclb", "(*Server).Stop", true},
		{"example.com/store/mockstore", "New", true},
		{"k8s.io/apiserver/pkg/storage/etcd3", "TestOnlyResetResourceSizeEstimator", true},
		{"example.com/clock", "setNowForTesting", true},
		{"example.com/clock", "Now", false},
		{"vitess.io/vitess/go/vt/vttablet/tabletmanager/vdiff", "NewTestEngine", true},
		{"example.com/cluster", "newTestServer", true},
		{"example.com/eval", "NewTester", false},
		{"example.com/eval", "NewTest", false},
		{"k8s.io/apiserver/pkg/storage/etcd3", "Get", false},
		{"example.com/integration/slack", "Post", false},
		{"example.com/testingtools", "Run", false},
	} {
		if got := TestSupport(tc.pkg, tc.fn) != ""; got != tc.want {
			t.Errorf("TestSupport(%q, %q) = %v, want %v", tc.pkg, tc.fn, got, tc.want)
		}
	}
}
