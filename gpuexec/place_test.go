package gpuexec

import (
	"testing"

	"gq/expr"
)

// A filter splits into the conjuncts the device kernel generator takes and
// the rest, which the GPU scan applies on the host.
func TestSplitForDevice(t *testing.T) {
	s := &expr.Column{Index: 0, Type: expr.String, Name: "s"}
	x := &expr.Column{Index: 1, Type: expr.Int64, Name: "x"}
	str := func(v string) expr.Expr { return &expr.Literal{Value: v, Type: expr.String} }
	like := &expr.Call{Fn: "like", Args: []expr.Expr{s, str("a%")}, Type: expr.Boolean}
	under := &expr.Call{Fn: "like", Args: []expr.Expr{s, str("a_")}, Type: expr.Boolean} // '_' stays on the host
	upper := &expr.Call{Fn: "eq", Args: []expr.Expr{&expr.Call{Fn: "upper", Args: []expr.Expr{s}, Type: expr.String}, str("A")}, Type: expr.Boolean}
	gt := &expr.Call{Fn: "gt", Args: []expr.Expr{x, &expr.Literal{Value: int64(3), Type: expr.Int64}}, Type: expr.Boolean}
	f := &expr.Call{Fn: "and", Args: []expr.Expr{like, under, gt, upper}, Type: expr.Boolean}
	dev, host := splitForDevice(f)
	if got, want := dev.String(), "and(like(s#0, 'a%'), gt(x#1, 3))"; got != want {
		t.Errorf("device part %s, want %s", got, want)
	}
	if got, want := host.String(), "and(like(s#0, 'a_'), eq(upper(s#0), 'A'))"; got != want {
		t.Errorf("host part %s, want %s", got, want)
	}
	if dev, host := splitForDevice(gt); dev != gt || host != nil {
		t.Errorf("one device conjunct: %v, %v", dev, host)
	}
	if dev, host := splitForDevice(nil); dev != nil || host != nil {
		t.Errorf("no filter: %v, %v", dev, host)
	}
}
