package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gq/catalog"
)

// graceQueries are aggregations of many groups (SF0.1's lineitem: 150000
// orders, 20000 parts) whose table passes a quarter and an eighth of what
// they need unlimited: the device aggregates them in partitions (a grace
// aggregation) — sums of decimals (a DECIMAL(38) one too), counts, min,
// max, avg, a NULL group, a HAVING, a top-N and a count distinct —
// instead of the CPU.
var graceQueries = []string{
	`select l_orderkey, count(*) as n, min(l_shipdate) as lo, avg(l_discount) as d,
		sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as charge
	 from lineitem group by l_orderkey order by l_orderkey`,
	`select case when l_linenumber = 3 then null else l_partkey end as k, count(l_tax) as n, sum(l_tax) as t
	 from lineitem group by 1 order by 1 nulls first`,
	`select l_orderkey, sum(l_quantity) as q from lineitem group by l_orderkey having sum(l_quantity) > 300 order by l_orderkey`,
	`select l_partkey, sum(l_extendedprice) as s from lineitem group by l_partkey order by s desc, l_partkey limit 10`,
	// An aggregation over the groups (count distinct): partitioned by
	// the outer key.
	`select l_partkey, count(distinct l_suppkey) as n from lineitem group by l_partkey order by l_partkey`,
}

var graceRE = regexp.MustCompile(`grace, (\d+) partitions \((\d+) flushes, (\d+) partial rows, ([^,]+) to host`)

func TestGPUGraceAggregation(t *testing.T) {
	g := newGPUPair(t)
	gpu := g.gpu.gpu
	for i, sql := range graceQueries {
		gpu.EvictAll()
		gpu.ResetPoolPeak()
		g.same(fmt.Sprintf("query %d unlimited", i), sql)
		need := gpu.PoolStats().Peak
		for _, div := range []int64{4, 8} {
			t.Run(fmt.Sprintf("q%d/%d", i, div), func(t *testing.T) {
				restore := gpu.SetDeviceLimitForTesting(need / div)
				g.same(fmt.Sprintf("query %d at 1/%d of %d bytes", i, div, need), sql)
				// Other operators (a device sort above) may still fall back.
				if fell := g.fellBack(); slices.ContainsFunc(fell, func(w string) bool { return strings.Contains(w, "GPU aggregation") }) {
					t.Errorf("the aggregation fell back to the CPU at 1/%d of %d bytes: %q", div, need, fell)
				}
				plan := strings.Join(g.run(g.gpu, "explain analyze "+sql), "\n")
				restore()
				m := graceRE.FindStringSubmatch(plan)
				if m == nil {
					t.Fatalf("no grace aggregation at 1/%d of %d bytes:\n%s", div, need, plan)
				}
				t.Logf("1/%d of %d bytes: %s", div, need, m[0])
				if st := gpu.PoolStats(); st.InUse != 0 {
					t.Errorf("%d device bytes in use after the query", st.InUse)
				}
			})
		}
	}
}

// graceWide has seven aggregates over 150000 groups: under a quarter of
// its need the first pass runs out of device memory beside the streamed
// chunks and it falls back, saying so; the answer stays right.
const graceWide = `select l_orderkey, sum(l_quantity) as q, count(*) as n, min(l_shipdate) as lo, max(l_extendedprice) as hi,
		avg(l_discount) as d, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as charge
	 from lineitem group by l_orderkey order by l_orderkey`

// Under a device limit too small for even the grace aggregation's
// partitions the answer is still right: the CPU twin runs, and says so.
func TestGPUGraceTooSmall(t *testing.T) {
	g := newGPUPair(t)
	gpu := g.gpu.gpu
	for _, sql := range []string{graceQueries[0], graceWide} {
		restore := gpu.SetDeviceLimitForTesting(96 << 10)
		g.same("grace under 96 KiB", sql)
		restore()
		if g.fellBack() == nil {
			t.Errorf("no fallback named under 96 KiB")
		}
	}
	gpu.EvictAll()
	if st := gpu.PoolStats(); st.InUse != 0 {
		t.Errorf("%d device bytes in use after the query", st.InUse)
	}
}

// With every spillable buffer spilled at each check (SpillAlways), the
// grace aggregation's partial rows wait on disk and are read back for
// their merges: the answer is the CPU's, and EXPLAIN ANALYZE counts the
// partitions read from disk.
func TestGPUGraceSpills(t *testing.T) {
	g := newGPUPair(t)
	cat := catalog.New()
	if err := cat.RegisterDir(tpchData(t)); err != nil {
		t.Fatal(err)
	}
	e := New(cat, Options{Device: "gpu", FallbackMode: "warn", SpillAlways: true, SpillDir: t.TempDir(), Warn: func(string) {}})
	defer e.Close()
	gpu := e.gpu
	sql := graceQueries[2]
	gpu.EvictAll()
	gpu.ResetPoolPeak()
	want := g.run(g.cpu, sql)
	if got := g.run(e, sql); !slices.Equal(got, want) {
		t.Fatalf("unlimited, spilling: GPU\n%s\nCPU\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	need := gpu.PoolStats().Peak
	defer gpu.SetDeviceLimitForTesting(need / 4)()
	if got := g.run(e, sql); !slices.Equal(got, want) {
		t.Fatalf("at a quarter, spilling: GPU\n%s\nCPU\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	plan := strings.Join(g.run(e, "explain analyze "+sql), "\n")
	m := regexp.MustCompile(`grace, \d+ partitions \([^)]*, (\d+) partitions from disk`).FindStringSubmatch(plan)
	if m == nil || m[1] == "0" {
		t.Fatalf("no grace partition read back from disk:\n%s", plan)
	}
	t.Logf("%s", m[0])
}
