package catalog

import (
	"go/types"
	"testing"
)

func TestHandOff(t *testing.T) {
	prom := types.NewPackage("github.com/prometheus/client_golang/prometheus", "prometheus")
	metric := types.NewNamed(types.NewTypeName(0, prom, "Metric", nil), types.NewInterfaceType(nil, nil), nil)
	desc := types.NewNamed(types.NewTypeName(0, prom, "Desc", nil), types.NewStruct(nil, nil), nil)
	other := types.NewNamed(types.NewTypeName(0, types.NewPackage("example.com/events", "events"), "Event", nil), types.NewStruct(nil, nil), nil)
	for _, tc := range []struct {
		ch   types.Type
		want bool
	}{
		{types.NewChan(types.SendOnly, metric), true},
		{types.NewChan(types.SendRecv, metric), true},
		{types.NewChan(types.SendOnly, types.NewPointer(desc)), true},
		{types.NewChan(types.SendOnly, desc), false},  // only *Desc is described
		{types.NewChan(types.SendOnly, other), false}, // a user's event channel
		{types.Typ[types.Int], false},
	} {
		if got := HandOff(tc.ch); got != tc.want {
			t.Errorf("HandOff(%s) = %v, want %v", tc.ch, got, tc.want)
		}
	}
}
