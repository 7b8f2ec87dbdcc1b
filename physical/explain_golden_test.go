package physical

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/exec"
	"gq/planner"
	"gq/shuffle"
)

var update = flag.Bool("update", false, "rewrite the EXPLAIN golden files under testdata/golden/explain")

// TestExplainGolden compares EXPLAIN of every TPC-H query (over the scale
// factor 1 catalog of tpch_test.go, so estimates are fixed) with its
// golden file: a change of plan shape shows up as a diff to review, and
// -update accepts it. q15_view's view is registered, then its query is
// explained. The plan placed on the GPU (PlaceOnGPU needs no device) has
// its golden files under tpch-gpu: what runs on the device, and how; rank
// 0's plan of 2 ranks on GPUs (Distribute, then PlaceOnGPU) under
// tpch-gpu-2ranks.
func TestExplainGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "tpch", "queries", "*.sql"))
	if len(files) == 0 {
		t.Skip("no TPC-H queries in testdata/tpch/queries")
	}
	sort.Strings(files)
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "testdata", "golden", "explain", "tpch")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		t.Run(name, func(t *testing.T) {
			cat := tpchCatalog(t)
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pieces, err := parser.SplitStatementToPieces(string(text))
			if err != nil {
				t.Fatal(err)
			}
			var got, gpu, ranks string
			for _, piece := range pieces {
				stmt, err := parser.Parse(piece)
				if err != nil {
					t.Fatal(err)
				}
				switch s := stmt.(type) {
				case *sqlparser.CreateView:
					v := &catalog.View{Name: s.ViewName.Name.String(), SQL: sqlparser.String(s.Select)}
					for _, c := range s.Columns {
						v.Columns = append(v.Columns, c.String())
					}
					if err := cat.CreateView(v, false); err != nil {
						t.Fatal(err)
					}
				case *sqlparser.Select, *sqlparser.Union:
					g, gp, r := explainModes(t, cat, stmt)
					got, gpu, ranks = got+g, gpu+gp, ranks+r
				}
			}
			checkGolden(t, filepath.Join(dir, name+".golden"), got)
			checkGolden(t, filepath.Join(dir+"-gpu", name+".golden"), gpu)
			checkGolden(t, filepath.Join(dir+"-gpu-2ranks", name+".golden"), ranks)
		})
	}
}

// explainModes returns EXPLAIN of stmt as a one-rank engine plans it,
// placed on the GPU, and rank 0's plan of 2 ranks each on its GPU.
func explainModes(t *testing.T, cat *catalog.Catalog, stmt sqlparser.Statement) (got, gpu, ranks string) {
	t.Helper()
	bound, err := planner.Bind(cat, stmt)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := planner.Optimize(bound)
	if err != nil {
		t.Fatal(err)
	}
	// A plan each time: placement changes it.
	lower := func() exec.Node {
		node, err := Lower(opt)
		if err != nil {
			t.Fatal(err)
		}
		return node
	}
	root := AttachJoinFilters(ShareCommonSubplans(lower())) // as a one-rank engine plans
	got += Explain(root)
	placed, err := PlaceOnGPU(root, nil, GPUOptions{FallbackMode: "silent"})
	if err != nil {
		t.Fatal(err)
	}
	gpu += Explain(placed)
	// Rank 0's plan of 2 ranks, each on its GPU (as the
	// engine plans under ranks: exchanges, then the GPU).
	dist, _, err := Distribute(lower(), DistOptions{Comm: shuffle.NewLocal(2)[0], OpBase: 1})
	if err != nil {
		t.Fatal(err)
	}
	if placed, err = PlaceOnGPU(dist, nil, GPUOptions{FallbackMode: "silent", Ranks: true}); err != nil {
		t.Fatal(err)
	}
	ranks += Explain(placed)
	return got, gpu, ranks
}

// checkGolden compares got with the golden file at path (-update writes it).
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./physical -run ExplainGolden -update creates it)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("EXPLAIN %s changed (review, then -update):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestExplainGoldenRecursive: EXPLAIN of a recursive CTE over a TPC-H
// table, one rank, on the GPU and on 2 ranks: the operator runs on the
// CPU (placement marks it, the table scan of its recursive term may run
// on the device), and each rank computes the whole CTE.
func TestExplainGoldenRecursive(t *testing.T) {
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := parser.Parse(`with recursive reach(k, hops) as (
		select n_nationkey, 0 from nation where n_name = 'FRANCE'
		union
		select n.n_nationkey, r.hops + 1 from reach r join nation n on n.n_regionkey = r.k where r.hops < 3)
	select k, min(hops) from reach group by k order by k`)
	if err != nil {
		t.Fatal(err)
	}
	got, gpu, ranks := explainModes(t, tpchCatalog(t), stmt)
	text := "-- one rank\n" + got + "\n-- GPU\n" + gpu + "\n-- 2 ranks, GPU\n" + ranks
	checkGolden(t, filepath.Join("..", "testdata", "golden", "explain", "recursive_cte.golden"), text)
	if !strings.Contains(ranks, "RecursiveCTE reach union (whole on every rank)") {
		t.Errorf("under ranks the CTE should be computed whole on every rank:\n%s", ranks)
	}
}
