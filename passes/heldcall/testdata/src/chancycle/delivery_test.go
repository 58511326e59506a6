package chancycle

import "testing"

// The test delivers by hand, without closing: it does not change what
// tryDeliver can do.
func TestDeliverByHand(t *testing.T) {
	w := newWantConn()
	w.result <- &poolConn{id: 1}
	if cn := w.wait(nil); cn.id != 1 {
		t.Fatal("wrong connection")
	}
}
