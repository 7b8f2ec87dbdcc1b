package engine

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"gq/catalog"
	"gq/errs"
	"gq/parser"
	"gq/physical"
)

// Placement on the GPU needs no device: the plans of TPC-H queries after
// physical.PlaceOnGPU show which operators the device takes (scans,
// aggregations over a scan) and how filters split between the device and
// the host. The GPU runs themselves are in make test-gpu.
func TestPlaceOnGPU(t *testing.T) {
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	e := testNew(cat, Options{Device: "cpu"})
	place := func(q, mode string) (string, error) {
		t.Helper()
		sql, err := os.ReadFile("../testdata/tpch/queries/" + q + ".sql")
		if err != nil {
			t.Fatal(err)
		}
		stmts, err := parser.Split(string(sql))
		if err != nil {
			t.Fatal(err)
		}
		_, n, err := e.plan(context.Background(), stmts[0].AST)
		if err != nil {
			t.Fatal(err)
		}
		var warned []string
		n, err = physical.PlaceOnGPU(n, nil, physical.GPUOptions{FallbackMode: mode, Warn: func(s string) { warned = append(warned, s) }})
		if err != nil {
			return "", err
		}
		if mode == "warn" && len(warned) != 1 {
			t.Errorf("%s: warnings %q, want one", q, warned)
		}
		return physical.Explain(n), nil
	}
	for q, want := range map[string][]string{
		// The device's groups are final: no CPU merge (HashAggregate)
		// between them and AvgCombine.
		"q01": {"└─ AvgCombine [CPU]\n      └─ GPUAggregate keys=[l_returnflag, l_linestatus] aggs=[sum(l_quantity), sum(l_extendedprice), ", "over GPUScan lineitem", "device-filter=le(l_shipdate, ", "[GPU]", "[CPU]"},
		"q06": {"Project [sum(l_extendedprice * l_discount)] [CPU]\n└─ GPUAggregate keys=[] aggs=[sum(mul(l_extendedprice, l_discount))] over GPUScan lineitem cols=[l_quantity, l_extendedprice, l_discount, l_shipdate]"},
		// The HAVING runs on the device: no Filter on the CPU.
		"q18": {"Project [l_orderkey] [CPU]\n      │  └─ GPUAggregate keys=[l_orderkey] aggs=[sum(l_quantity)] having=gt(sum(l_quantity), 300) over GPUScan lineitem"},
		"q13": {"GPUScan orders", "device-filter=not_like(o_comment, '%special%requests%')"},
		"q09": {"GPUScan part cols=[p_partkey] (of 2 read)", "device-filter=like(p_name, '%green%')"},
		"q03": {"GPUScan customer", "GPUScan orders", "GPUScan lineitem", "HashJoin inner"},
	} {
		text, err := place(q, "warn")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: plan lacks %q:\n%s", q, w, text)
			}
		}
		if strings.Contains(text, "Scan ") && strings.Contains(strings.ReplaceAll(text, "GPUScan", ""), "Scan ") {
			t.Errorf("%s: a scan left on the CPU:\n%s", q, text)
		}
	}
	// q22's anti join, whose probe side is a join with a scalar subquery
	// (a nested loop), stays on the CPU: raise names it.
	if _, err := place("q22", "raise"); !errors.Is(err, errs.Unsupported) || !strings.Contains(err.Error(), "HashJoin") {
		t.Errorf("q22 under fallback_mode=raise: %v", err)
	}
	if _, err := place("q06", "silent"); err != nil {
		t.Errorf("q06 silent: %v", err)
	}
}
