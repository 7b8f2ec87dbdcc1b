package engine

import (
	"context"
	"fmt"
	"os"
	"testing"

	"gq/catalog"
	"gq/parser"
)

// BenchmarkPlanTPCH plans the 22 TPC-H queries (bind, optimise, lower,
// and with GQ_DEVICE=gpu place on the device) without running them: the
// fixed cost every query pays before its first batch, a tenth of gq's
// time at SF1 on the H200 machine.
func BenchmarkPlanTPCH(b *testing.B) {
	dir := tpchData(b)
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		b.Fatal(err)
	}
	e := testNew(cat, Options{})
	var stmts []parser.Statement
	for n := 1; n <= 22; n++ {
		sql, err := os.ReadFile(fmt.Sprintf("../testdata/tpch/queries/q%02d.sql", n))
		if err != nil {
			b.Fatal(err)
		}
		st, err := parser.Split(string(sql))
		if err != nil || len(st) != 1 {
			b.Fatalf("q%02d: %v", n, err)
		}
		stmts = append(stmts, st[0])
	}
	b.ResetTimer()
	for range b.N {
		for _, st := range stmts {
			if _, _, err := e.plan(context.Background(), st.AST); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(stmts)), "µs/query")
}
