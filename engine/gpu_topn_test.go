package engine

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gq/gpuexec"
)

// A top-N over a grouped aggregation on the device reads back only the
// groups that can be among the first N (GPUAggregate.TopN: a radix select
// of the N-th best order key) and gives the CPU's results: descending and
// ascending, by a sum, a count (many ties), a date key, a double, a value
// that is NULL for some groups (the best or the worst key), with an OFFSET, and
// with a HAVING; on the GPU when the machine has one, else on gqemu.
func TestGPUTopN(t *testing.T) {
	g := newGPUPair(t)
	// EXPLAIN ANALYZE's GPUAggregate line: rows … groups, groups kept.
	stats := regexp.MustCompile(`(?m)^\s*[\d,]+\s+\d+\s+\S+\s+\S+\s+GPU\s+\S+\s+\S+\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s`)
	num := func(s string) int {
		n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		return n
	}
	for _, c := range []struct {
		sql     string
		maxKept int // groups the device may read back
	}{
		{"select l_orderkey, sum(l_extendedprice) as s from lineitem group by l_orderkey order by s desc, l_orderkey limit 10", 2000},
		{"select l_orderkey, sum(l_quantity) as s from lineitem group by l_orderkey order by s, l_orderkey limit 7", 2000},
		{"select o_custkey, count(*) as n from orders group by o_custkey order by n desc, o_custkey limit 5 offset 3", 2000},
		{"select o_orderdate, count(*) from orders group by o_orderdate order by o_orderdate desc limit 4", 2000},
		{"select l_partkey, sum(cast(l_quantity as double)) as q from lineitem group by l_partkey order by q desc, l_partkey limit 6", 2000},
		// 6,925 customers have no order in status P: NULL maxima, the
		// worst in a descending order, the best in an ascending one.
		{"select o_custkey, max(case when o_orderstatus = 'P' then o_totalprice end) as m from orders group by o_custkey order by m desc, o_custkey limit 8", 2000},
		{"select o_custkey, max(case when o_orderstatus = 'P' then o_totalprice end) as m from orders group by o_custkey order by m, o_custkey limit 8", 7000},
		{"select l_suppkey, sum(l_quantity) as s from lineitem group by l_suppkey having count(*) > 600 order by s, l_suppkey limit 3", 2000},
	} {
		sql := c.sql
		g.same(sql, sql)
		plan := strings.Join(g.run(g.gpu, "explain analyze "+sql), "\n")
		m := stats.FindStringSubmatch(plan)
		if !strings.Contains(plan, " top=") || m == nil {
			t.Errorf("%s: no top-N on the device:\n%s", sql, plan)
		} else if groups, kept := num(m[2]), num(m[3]); kept >= groups || kept > c.maxKept {
			t.Errorf("%s: %d of %d groups read back:\n%s", sql, kept, groups, plan)
		}
		if !deviceCalls.MatchString(plan) {
			t.Errorf("%s: no device calls counted:\n%s", sql, plan)
		}
		if w := g.fellBack(); w != nil {
			t.Errorf("%s: fell back to the CPU: %q", sql, w)
		}
	}
}

// deviceCalls is EXPLAIN ANALYZE's count of device calls, when not 0
// (the line may go on to say how the device opened).
var deviceCalls = regexp.MustCompile(`(?m)^Device calls: [1-9][\d,]*(;|$)`)

// A top-N over a join pipeline's rows on the device: each chunk brings
// back only its rows that can be among the first N (GPUJoinRows.TopN);
// the CPU's results, by a decimal descending, a date ascending with an
// OFFSET, and a double.
func TestGPUTopNJoinRows(t *testing.T) {
	g := newGPUPair(t)
	rowsOut := regexp.MustCompile(`(?m)^\s*([\d,]+)\s.*GPUJoinRows .* top=`)
	for _, sql := range []string{
		"select l_orderkey, l_extendedprice from lineitem join orders on l_orderkey = o_orderkey where o_orderstatus = 'F' order by l_extendedprice desc, l_orderkey, l_linenumber limit 10",
		"select o_orderdate, o_orderkey, c_name from orders join customer on o_custkey = c_custkey order by o_orderdate, o_orderkey limit 5 offset 2",
		"select l_orderkey, l_linenumber, cast(l_extendedprice as double) * 1.5 as q from lineitem join orders on l_orderkey = o_orderkey order by q desc, l_orderkey, l_linenumber limit 7",
	} {
		g.same(sql, sql)
		plan := strings.Join(g.run(g.gpu, "explain analyze "+sql), "\n")
		m := rowsOut.FindStringSubmatch(plan)
		if m == nil {
			t.Errorf("%s: no top-N on the device:\n%s", sql, plan)
		} else if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n > 2000 {
			t.Errorf("%s: %d rows brought back:\n%s", sql, n, plan)
		}
		if w := g.fellBack(); w != nil {
			t.Errorf("%s: fell back to the CPU: %q", sql, w)
		}
	}
}

// An ORDER BY without a limit over a scan or a join pipeline on the
// device: the rows are ordered there (GPUJoinRows.WithSort, a radix sort)
// and come back in order, as the CPU's stable sort gives them — several
// keys, descending and ascending, decimals, dates, doubles computed on
// the device, strings, NULLs from a left join; fewer rows than
// GPUSortMinRows come back unordered and the CPU orders them. (Every
// order is total: the CPU's ties keep the order its parallel scan
// happened to give them.)
func TestGPUSort(t *testing.T) {
	g := newGPUPair(t)
	for _, sql := range []string{
		"select l_orderkey, l_linenumber, l_quantity, l_discount, l_shipdate from lineitem order by l_discount desc, l_shipdate, l_quantity desc, l_orderkey, l_linenumber",
		"select l_orderkey, l_linenumber, l_shipdate from lineitem where l_quantity < 3 order by l_shipdate desc, l_orderkey, l_linenumber",
		"select ps_partkey, ps_suppkey, ps_supplycost * 0.5 as half from partsupp where ps_availqty < 100 order by half, ps_partkey desc, ps_suppkey",
		"select o_orderkey, c_name, o_totalprice from orders join customer on o_custkey = c_custkey where c_mktsegment = 'BUILDING' order by o_orderdate desc, o_totalprice, o_orderkey",
		"select c_custkey, o_orderkey, o_totalprice from customer left join orders on c_custkey = o_custkey and o_totalprice > 400000 order by o_totalprice desc, c_custkey",
		"select c_name, c_address, c_acctbal from customer where c_acctbal > 9000 order by c_address desc, c_name",
		"select o_orderkey, o_clerk, c_phone from orders join customer on o_custkey = c_custkey where o_totalprice > 300000 order by o_clerk, c_phone desc, o_orderkey",
	} {
		plan := strings.Join(g.run(g.gpu, "explain "+sql), "\n")
		if !strings.Contains(plan, " sort=[") || strings.Contains(plan, "Sort [") {
			t.Errorf("%s: not sorted on the device:\n%s", sql, plan)
		}
		// Each on the device, and as the pipeline's rows are fewer than
		// GPUSortMinRows for some (brought back, then ordered on the CPU).
		for _, minRows := range []int{1, gpuexec.GPUSortMinRows} {
			func() {
				defer func(n int) { gpuexec.GPUSortMinRows = n }(gpuexec.GPUSortMinRows)
				gpuexec.GPUSortMinRows = minRows
				g.same(fmt.Sprintf("%s (device sort from %d rows)", sql, minRows), sql)
				if w := g.fellBack(); w != nil {
					t.Errorf("%s: fell back to the CPU: %q", sql, w)
				}
			}()
		}
	}
}

// An ORDER BY without a limit over rows from the host — an aggregation's
// groups, a CPU operator's rows — is a GPUSort: many rows are uploaded,
// ordered on the device and come back in order, as the CPU orders them;
// few are sorted on the CPU (GPUSortMinRows, lowered here to check the
// device path on small results too).
func TestGPUSortRows(t *testing.T) {
	g := newGPUPair(t)
	device := regexp.MustCompile(`(?m)^.*\s(GPU|CPU)\s.*GPUSort `)
	for _, c := range []struct {
		sql     string
		minRows int
	}{
		{"select l_orderkey, sum(l_quantity) as s from lineitem group by l_orderkey order by s desc, l_orderkey", gpuexec.GPUSortMinRows},
		{"select o_custkey, count(*) as n, max(o_orderdate) as d from orders group by o_custkey order by d, n desc, o_custkey", 1},
		{"select l_returnflag, l_linestatus, sum(l_quantity) from lineitem group by l_returnflag, l_linestatus order by l_returnflag desc, l_linestatus", 1},
		{"select n_name, count(*) as c from nation join customer on n_nationkey = c_nationkey group by n_name order by c desc, n_name", 1},
	} {
		func() {
			defer func(n int) { gpuexec.GPUSortMinRows = n }(gpuexec.GPUSortMinRows)
			gpuexec.GPUSortMinRows = c.minRows
			g.same(c.sql, c.sql)
			plan := strings.Join(g.run(g.gpu, "explain analyze "+c.sql), "\n")
			if m := device.FindStringSubmatch(plan); m == nil || m[1] != "GPU" {
				t.Errorf("%s: not sorted on the device:\n%s", c.sql, plan)
			}
			if w := g.fellBack(); w != nil {
				t.Errorf("%s: fell back to the CPU: %q", c.sql, w)
			}
		}()
	}
}

// DISTINCT and plain aggregates together: two device aggregations of the
// scan, combined on the CPU (physical mixedDistinct), = the CPU's result.
func TestGPUMixedDistinct(t *testing.T) {
	g := newGPUPair(t)
	for _, sql := range []string{
		"select l_returnflag, count(distinct l_suppkey), sum(l_quantity), avg(l_discount), count(*) from lineitem group by l_returnflag order by l_returnflag",
		"select count(distinct o_custkey), max(o_totalprice), count(*) from orders where o_orderdate < date '1995-01-01'",
		"select o_orderpriority, count(distinct o_clerk), min(o_orderdate) from orders group by o_orderpriority order by o_orderpriority",
	} {
		g.same(sql, sql)
		plan := strings.Join(g.run(g.gpu, "explain "+sql), "\n")
		if strings.Count(plan, "GPUAggregate") != 2 || !strings.Contains(plan, "UnionAll") {
			t.Errorf("%s: not two device aggregations:\n%s", sql, plan)
		}
		if w := g.fellBack(); w != nil {
			t.Errorf("%s: fell back to the CPU: %q", sql, w)
		}
	}
}

// A HAVING against an uncorrelated scalar subquery (TPC-H q11: each
// part's value against a fraction of the total) is judged on the device
// once the subquery has run (exec.ScalarFeed): the aggregation brings back
// only the groups it keeps — at SF0.1, 2,541 of q11's 3,716 parts — and
// the results are the CPU's.
func TestGPUHavingByScalar(t *testing.T) {
	g := newGPUPair(t)
	b, err := os.ReadFile("../testdata/tpch/queries/q11.sql")
	if err != nil {
		t.Fatal(err)
	}
	q11 := strings.TrimSuffix(strings.TrimSpace(string(b)), ";")
	for _, sql := range []string{
		q11,
		// A DECIMAL(38) average divided on the device, and a subquery
		// of no row (NULL: no group kept).
		"select s_nationkey, count(*) from supplier group by s_nationkey having count(*) > (select avg(c_acctbal) from customer) / 100 order by s_nationkey",
		"select o_custkey, sum(o_totalprice) from orders group by o_custkey having sum(o_totalprice) > (select max(o_totalprice) from orders where o_orderkey < 0)",
	} {
		g.same(sql, sql)
		want := len(g.run(g.cpu, sql))
		plan := strings.Split(strings.Join(g.run(g.gpu, "explain analyze "+sql), "\n"), "\n")
		var agg string
		for _, l := range plan {
			if strings.Contains(l, "(with the scalar subquery's row)") {
				agg = l
			}
		}
		if agg == "" {
			t.Errorf("%s: the HAVING is not judged on the device:\n%s", sql, strings.Join(plan, "\n"))
			continue
		}
		// The aggregation's rows (EXPLAIN ANALYZE's first column) are
		// the groups kept.
		rows, err := strconv.Atoi(strings.ReplaceAll(strings.Fields(strings.TrimPrefix(agg, "\""))[0], ",", ""))
		if err != nil || rows != want {
			t.Errorf("%s: the device's aggregation gave %s rows, want the %d kept:\n%s", sql, strings.Fields(agg)[0], want, agg)
		}
		if w := g.fellBack(); w != nil {
			t.Errorf("%s: fell back to the CPU: %q", sql, w)
		}
	}
}
