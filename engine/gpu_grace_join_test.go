package engine

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
	"gq/catalog"
	"gq/gpuexec"
)

// graceJoinRe finds EXPLAIN ANALYZE's grace join line: its passes and
// the partitions read back from disk.
var graceJoinRe = regexp.MustCompile(`grace join, 64 partitions \(joins [\d,]+ in (\d+) passes; [^)]*; (\d+) partitions from disk`)

// A join pipeline run as a grace join (gpuexec/join_grace.go), each of
// its 64 partitions a pass of its own, answers as the CPU does for each
// join type: inner with repeated build keys, left, semi, anti, NOT IN
// (a NULL build key empties it; without one a NULL probe key keeps
// nothing; an empty build side keeps every row) and a scalar subquery's
// single join; probe and build keys with NULLs; a string group key
// from the partitioned build side (one dictionary for every pass).
// Under spill-always the partitions come back from disk.
func TestGPUGraceJoinTypes(t *testing.T) {
	checkForcedGraceJoins(t, "GPUAggregate", []struct{ name, sql string }{
		{"inner", "select g, count(*), sum(v), sum(w) from p join b on pk = bk group by g order by g"},
		{"inner by key", "select pk, count(*), sum(w) from p join b on pk = bk group by pk order by pk limit 50"},
		{"left", "select g, count(*), count(w), sum(w) from p left join b on pk = bk group by g order by g"},
		{"semi", "select g, count(*), sum(v) from p where pk in (select bk from b) group by g order by g"},
		{"anti", "select g, count(*), sum(v) from p where not exists (select 1 from b where bk = pk) group by g order by g"},
		{"not in, a NULL build key", "select g, count(*), sum(v) from p where pk not in (select bk from b) group by g order by g"},
		{"not in", "select g, count(*), sum(v) from p where pk not in (select bk from b where bk is not null) group by g order by g"},
		{"not in, empty", "select g, count(*), sum(v) from p where pk not in (select bk from b where w > 100) group by g order by g"},
		{"string group key from the build side", "select s, count(*), sum(v) from p join u on pk = uk group by s order by s nulls first"},
		{"single", "select g, count(*), sum(v) from p where v > (select x from u where uk = pk) group by g order by g"},
	})
}

// The same join types in a pipeline that emits its rows (GPUJoinRows, no
// aggregation above it) run as a grace join answer as the CPU does,
// every row once: each pass's rows go out as it runs them, ordered by a
// sort above them or the pipeline's own, or cut by a top-N.
func TestGPUGraceJoinRows(t *testing.T) {
	checkForcedGraceJoins(t, "GPUJoinRows", []struct{ name, sql string }{
		{"inner", "select pk, v, w from p join b on pk = bk order by pk, v, w"},
		{"inner, top-N", "select pk, v, w from p join b on pk = bk order by w desc, pk, v limit 30"},
		{"left", "select pk, v, w from p left join b on pk = bk order by pk nulls first, v, w nulls first"},
		{"semi", "select pk, v, g from p where pk in (select bk from b) order by pk, v, g"},
		{"anti", "select pk, v from p where not exists (select 1 from b where bk = pk) order by pk nulls first, v"},
		{"not in, a NULL build key", "select pk, v from p where pk not in (select bk from b) order by pk, v"},
		{"not in", "select pk, v from p where pk not in (select bk from b where bk is not null) order by pk, v"},
		{"not in, empty", "select pk, v from p where pk not in (select bk from b where w > 100) order by pk nulls first, v"},
		{"a string from the build side", "select pk, s from p join u on pk = uk order by pk, s nulls first"},
		{"single", "select pk, v from p where v > (select x from u where uk = pk) order by pk, v"},
	})
}

// checkForcedGraceJoins runs each query over graceJoinTables with every
// grace join forced, each partition a pass, with and without
// spill-always: the answers are the CPU's, no operator falls back, and
// EXPLAIN ANALYZE shows op running a grace join of 64 passes whose
// partitions came back from disk only under spill-always.
func checkForcedGraceJoins(t *testing.T, op string, queries []struct{ name, sql string }) {
	if !arrowgpu.DriverPresent() {
		if err := emulator.Enable(); err != nil {
			t.Skip("no GPU and no emulator: ", err)
		}
	}
	cat := graceJoinTables(t)
	defer gpuexec.ForceJoinGraceForTesting()()
	opGrace := regexp.MustCompile(`grace join, [^\n]*` + op)
	for _, spill := range []bool{false, true} {
		g := newGPUPairOver(t, cat)
		if spill {
			g.gpu = testNew(cat, Options{Device: "gpu", FallbackMode: "warn", SpillAlways: true, Warn: g.gpu.opts.Warn})
		}
		for _, q := range queries {
			what := fmt.Sprintf("%s (spill-always %v)", q.name, spill)
			g.same(what, q.sql)
			if w := g.fellBack(); w != nil {
				t.Errorf("%s: fell back to the CPU: %q", what, w)
			}
			plan := strings.Join(g.run(g.gpu, "explain analyze "+q.sql), "\n")
			m := graceJoinRe.FindStringSubmatch(plan)
			if m == nil || !opGrace.MatchString(plan) {
				t.Errorf("%s: no grace join in %s:\n%s", what, op, plan)
				continue
			}
			passes, _ := strconv.Atoi(m[1])
			fromDisk, _ := strconv.Atoi(m[2])
			if passes != 64 || spill != (fromDisk > 0) {
				t.Errorf("%s: %d passes, %d partitions from disk; want 64 passes, and some from disk only under spill-always:\n%s", what, passes, fromDisk, plan)
			}
		}
	}
}

// graceJoinTables are the tables of the grace join tests: p, 20,000
// probe rows, keys 0..2999 and NULL every 11th row; b, 4,000 build rows,
// keys 0..3998 step 2 (each twice), NULL every 97th row; u, unique keys
// 0..2999 (a scalar subquery's one row per key) and a string, NULL every
// 19th row.
func graceJoinTables(t *testing.T) *catalog.Catalog {
	dir := t.TempDir()
	i64 := arrow.PrimitiveTypes.Int64
	writeDictFile(t, filepath.Join(dir, "p.parquet"), arrow.NewSchema([]arrow.Field{{Name: "pk", Type: i64, Nullable: true},
		{Name: "v", Type: i64}, {Name: "g", Type: i64}}, nil), 20000,
		func(b *array.RecordBuilder, i int) {
			if i%11 == 0 {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(int64(i*7919) % 3000)
			}
			b.Field(1).(*array.Int64Builder).Append(int64(i % 101))
			b.Field(2).(*array.Int64Builder).Append(int64(i % 5))
		})
	writeDictFile(t, filepath.Join(dir, "b.parquet"), arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64, Nullable: true},
		{Name: "w", Type: i64}}, nil), 4000,
		func(b *array.RecordBuilder, i int) {
			if i%97 == 0 {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(int64(i%2000) * 2)
			}
			b.Field(1).(*array.Int64Builder).Append(int64(i % 13))
		})
	writeDictFile(t, filepath.Join(dir, "u.parquet"), arrow.NewSchema([]arrow.Field{{Name: "uk", Type: i64},
		{Name: "x", Type: i64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), 3000,
		func(b *array.RecordBuilder, i int) {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.Int64Builder).Append(int64(i % 17))
			if i%19 == 0 {
				b.Field(2).AppendNull()
			} else {
				b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i%23))
			}
		})
	cat := catalog.New()
	if err := cat.RegisterDir(dir); err != nil {
		t.Fatal(err)
	}
	return cat
}
