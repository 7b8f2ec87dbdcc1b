package arrowgpu

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// GPU tests: each uploads data, runs kernels and compares with the CPU.
// They skip (with the reason) where no GPU is usable; see gpu_main_test.go.

const testRows = 100_003 // not a multiple of 8, 32 or the block size

func TestGPUInfo(t *testing.T) {
	q := needGPU(t)
	free, total, err := q.dv.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v; memory free %d of %d MiB", q.dv.Info(), free>>20, total>>20)
	if gpu.noNVRTC != "" {
		t.Skip("no NVRTC: " + gpu.noNVRTC)
	}
	start := time.Now()
	if _, err := q.dv.builtins(); err != nil {
		t.Fatalf("builtin kernels: %v", err)
	}
	t.Logf("builtin kernels compiled and loaded in %v", time.Since(start))
	start = time.Now()
	if _, err := q.dv.compile(builtinSource(), "gq_builtin.cu"); err != nil {
		t.Fatal(err)
	}
	t.Logf("builtin kernels from the disk cache in %v", time.Since(start))
	ents, _ := os.ReadDir(cacheDir())
	if len(ents) == 0 {
		t.Errorf("kernel cache %s is empty", cacheDir())
	}
}

func TestGPURoundTrip(t *testing.T) {
	q := needGPU(t)
	rec := testBatch(testRows, 1)
	defer rec.Release()
	sliced := rec.NewSlice(13, 50_013) // offsets not multiples of 8
	defer sliced.Release()
	empty := rec.NewSlice(0, 0)
	defer empty.Release()
	for name, r := range map[string]arrow.RecordBatch{"full": rec, "sliced": sliced, "empty": empty} {
		db, err := q.Upload(r)
		if err != nil {
			t.Fatalf("%s: upload: %v", name, err)
		}
		back, err := q.DownloadBatch(db, memory.NewGoAllocator())
		db.Free()
		if err != nil {
			t.Fatalf("%s: download: %v", name, err)
		}
		for c := range r.Columns() {
			wantEqualArrays(t, name+" "+r.ColumnName(c), r.Column(c), back.Column(c))
		}
		back.Release()
	}
	t.Logf("moved %d bytes to the device, %d back", q.BytesToDevice, q.BytesToHost)
}

// cpuSelect is the CPU twin of compareConst+and+Select for the Q6-like
// conditions the test uses.
func cpuSelect(rec arrow.RecordBatch) []int32 {
	day := rec.Column(4).(*array.Date32)
	qty := rec.Column(0).(*array.Decimal64)
	var out []int32
	for i := 0; i < int(rec.NumRows()); i++ {
		if day.IsValid(i) && day.Value(i) >= 8766 && qty.IsValid(i) && qty.Value(i) < 2400 {
			out = append(out, int32(i))
		}
	}
	return out
}

func TestGPUFilterSelectGather(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 2)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	m1, err := q.compareConst(db.Cols[4], cmpGe, int32(8766))
	if err != nil {
		t.Fatal(err)
	}
	defer m1.Free()
	m2, err := q.compareConst(db.Cols[0], cmpLt, int64(2400))
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Free()
	m, err := q.and(m1, m2)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Free()
	idx, cnt, err := q.Select(m)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Free()
	want := cpuSelect(rec)
	got := downloadInt32(t, q.dv, idx, cnt)
	if !slices.Equal(got, want) {
		t.Fatalf("selection: %d rows, want %d (first %v vs %v)", len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
	}
	// Float comparison, NULLs never pass.
	mf, err := q.compareConst(db.Cols[6], cmpGt, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	fa := download(t, q, mf)
	mf.Free()
	ratio := rec.Column(6).(*array.Float64)
	for i := 0; i < testRows; i++ {
		if w := ratio.IsValid(i) && ratio.Value(i) > 0.5; fa.(*array.Boolean).Value(i) != w {
			t.Fatalf("ratio > 0.5 row %d: got %v", i, !w)
		}
	}
	fa.Release()
	// Gather every column type with the selection.
	for c := range rec.Columns() {
		gc, err := q.Gather(db.Cols[c], idx, cnt)
		if err != nil {
			t.Fatalf("gather %s: %v", rec.ColumnName(c), err)
		}
		ga := download(t, q, gc)
		gc.Free()
		src := rec.Column(c)
		for i, r := range want {
			if !sameRow(src, int(r), ga, i) {
				t.Fatalf("gather %s row %d (source %d): got %s, want %s", rec.ColumnName(c), i, r, valueString(ga, i), valueString(src, int(r)))
			}
		}
		ga.Release()
	}
}

func TestGPUReductions(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 3)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	sel, err := q.compareConst(db.Cols[4], cmpGe, int32(8766))
	if err != nil {
		t.Fatal(err)
	}
	defer sel.Free()
	day := rec.Column(4).(*array.Date32)
	for _, useSel := range []bool{false, true} {
		s := sel
		if !useSel {
			s = nil
		}
		in := func(i int) bool { return !useSel || day.Value(i) >= 8766 }
		// Decimal sum, Int64 min/max, Float64 sum/min/max, Date32 min/max, counts.
		price := rec.Column(1).(*array.Decimal64)
		var wantSum, wantCnt int64
		for i := 0; i < testRows; i++ {
			if in(i) {
				wantSum += int64(price.Value(i))
				wantCnt++
			}
		}
		a, err := q.Sum(db.Cols[1], s)
		if err != nil || a.SumInt != wantSum || a.Count != wantCnt {
			t.Errorf("sel=%v sum(price) = %d/%d, %v; want %d/%d", useSel, a.SumInt, a.Count, err, wantSum, wantCnt)
		}
		id := rec.Column(5).(*array.Int64)
		wmin, wmax, wc := int64(math.MaxInt64), int64(math.MinInt64), int64(0)
		for i := 0; i < testRows; i++ {
			if in(i) && id.IsValid(i) {
				wmin, wmax, wc = min(wmin, id.Value(i)), max(wmax, id.Value(i)), wc+1
			}
		}
		a, err = q.minMax(db.Cols[5], s)
		if err != nil || a.MinInt != wmin || a.MaxInt != wmax || a.Count != wc {
			t.Errorf("sel=%v minmax(id) = %d..%d/%d, %v; want %d..%d/%d", useSel, a.MinInt, a.MaxInt, a.Count, err, wmin, wmax, wc)
		}
		n, err := q.Count(db.Cols[5], s, testRows)
		if err != nil || n != wc {
			t.Errorf("sel=%v count(id) = %d, %v; want %d", useSel, n, err, wc)
		}
		n, err = q.Count(nil, s, testRows)
		if err != nil || n != wantCnt {
			t.Errorf("sel=%v count(*) = %d, %v; want %d", useSel, n, err, wantCnt)
		}
		ratio := rec.Column(6).(*array.Float64)
		var fs float64
		fmin, fmax := math.Inf(1), math.Inf(-1)
		for i := 0; i < testRows; i++ {
			if in(i) && ratio.IsValid(i) {
				v := ratio.Value(i)
				fs, fmin, fmax = fs+v, math.Min(fmin, v), math.Max(fmax, v)
			}
		}
		a, err = q.Sum(db.Cols[6], s)
		if err != nil || math.Abs(a.SumFloat-fs) > 1e-9*math.Max(1, math.Abs(fs)) {
			t.Errorf("sel=%v sum(ratio) = %v, %v; want %v (order-dependent rounding allowed)", useSel, a.SumFloat, err, fs)
		}
		a, err = q.minMax(db.Cols[6], s)
		if err != nil || a.MinFloat != fmin || a.MaxFloat != fmax {
			t.Errorf("sel=%v minmax(ratio) = %v..%v, %v; want %v..%v", useSel, a.MinFloat, a.MaxFloat, err, fmin, fmax)
		}
		dmin, dmax := int64(math.MaxInt64), int64(math.MinInt64)
		for i := 0; i < testRows; i++ {
			if in(i) {
				dmin, dmax = min(dmin, int64(day.Value(i))), max(dmax, int64(day.Value(i)))
			}
		}
		a, err = q.minMax(db.Cols[4], s)
		if err != nil || a.MinInt != dmin || a.MaxInt != dmax {
			t.Errorf("sel=%v minmax(shipdate) = %d..%d, %v; want %d..%d", useSel, a.MinInt, a.MaxInt, err, dmin, dmax)
		}
	}
}

func TestGPUSumOverflow(t *testing.T) {
	q := needKernels(t)
	b := array.NewInt64Builder(memory.NewGoAllocator())
	for range 3 {
		b.Append(math.MaxInt64/2 + 1)
	}
	arr := b.NewArray()
	defer arr.Release()
	c, err := q.UploadArray(arr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	if _, err := q.Sum(c, nil); !errors.Is(err, errs.Execution) {
		t.Errorf("want an Execution error for overflow, got %v", err)
	}
}

func TestGPUHashPartition(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 4)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	// Every partition hash the CPU has (exec's hashColumn: see the
	// exec test that compares the two), over all rows and a selection.
	sel := make([]int32, 0, testRows/3)
	for i := 0; i < testRows; i += 3 {
		sel = append(sel, int32(i))
	}
	selBuf := uploadInt32(t, q, sel)
	defer selBuf.Free()
	for _, keys := range [][]int{{5}, {4}, {6}, {7}, {8}, {1, 8, 5}} {
		for _, np := range []int{1, 7, 256} {
			for _, rows := range [][]int32{nil, sel} {
				idx, n := Buffer{}, testRows
				if rows != nil {
					idx, n = selBuf, len(rows)
				}
				cols := make([]*Column, len(keys))
				for k, c := range keys {
					cols[k] = db.Cols[c]
				}
				perm, offs, err := q.HashPartition(cols, idx, n, np)
				if err != nil {
					t.Fatal(err)
				}
				got := downloadInt32(t, q.dv, perm, n)
				perm.Free()
				want := make([][]int32, np)
				for i := range n {
					r := i
					if rows != nil {
						r = int(rows[i])
					}
					h := uint64(0)
					for _, c := range keys {
						h = hashInt64(int64(h*31 + partValue(rec.Column(c), r)))
					}
					p := hashInt64(int64(h)) % uint64(np)
					want[p] = append(want[p], int32(r))
				}
				for p := range np {
					part := slices.Clone(got[offs[p]:offs[p+1]])
					slices.Sort(part)
					if !slices.Equal(part, want[p]) {
						t.Fatalf("keys %v, %d partitions, selection %v: partition %d has %d rows, want %d", keys, np, rows != nil, p, len(part), len(want[p]))
					}
				}
			}
		}
	}
}

// partValue is the value exec's partitioner hashes for row i of a.
func partValue(a arrow.Array, i int) uint64 {
	if a.IsNull(i) {
		return 0x9e3779b97f4a7c15
	}
	switch x := a.(type) {
	case *array.Int64:
		return uint64(x.Value(i))
	case *array.Decimal64:
		return uint64(x.Value(i))
	case *array.Date32:
		return uint64(int64(x.Value(i)))
	case *array.Float64:
		v := x.Value(i)
		if v == 0 {
			return 0
		}
		if v != v {
			return math.Float64bits(math.NaN())
		}
		return math.Float64bits(v)
	case *array.Boolean:
		if x.Value(i) {
			return 1
		}
		return 0
	case *array.String:
		h := uint64(14695981039346656037)
		for _, c := range []byte(x.Value(i)) {
			h ^= uint64(c)
			h *= 1099511628211
		}
		return h
	}
	panic("partValue: " + a.DataType().String())
}

// The generated kernel must agree with the CPU evaluator on every fixture
// expression and on the Q6 predicate.
func TestGPUFused(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 5)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	exprs := fusedFixtures()
	f, err := GenerateFused(exprs, q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	outs, mask, err := q.RunFused(f, db)
	if err != nil {
		t.Fatalf("%v\nsource:\n%s", err, f.Source)
	}
	t.Logf("fused kernel (%d outputs + mask) compiled and ran in %v", len(exprs), time.Since(start))
	mem := memory.NewGoAllocator()
	for k, e := range exprs {
		ev, err := expr.Compile(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ev.Eval(mem, rec)
		if err != nil {
			t.Fatalf("CPU %s: %v", e, err)
		}
		got := download(t, q, outs[k])
		outs[k].Free()
		wantEqualArrays(t, e.String(), want, got)
		want.Release()
		got.Release()
	}
	ev, err := expr.Compile(q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	wantSel, err := ev.EvalFilter(mem, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	idx, cnt, err := q.Select(mask)
	mask.Free()
	if err != nil {
		t.Fatal(err)
	}
	gotSel := downloadInt32(t, q.dv, idx, cnt)
	idx.Free()
	if !slices.Equal(gotSel, wantSel) {
		t.Errorf("Q6 predicate selects %d rows, CPU %d", len(gotSel), len(wantSel))
	}
}

func TestGPUFusedOverflow(t *testing.T) {
	q := needKernels(t)
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues([]int64{1, math.MinInt64, 3}, nil)
	arr := b.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{arr}, 3)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	x := &expr.Column{Index: 0, Type: expr.Int64, Name: "x"}
	f, err := GenerateFused([]expr.Expr{call("neg", expr.Int64, x)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = q.RunFused(f, db)
	if !errors.Is(err, errs.Execution) || !containsText(err.Error(), "neg(x#0)") {
		t.Errorf("want an Execution error naming neg(x#0), got %v", err)
	}
}

func containsText(s, sub string) bool { return strings.Contains(s, sub) }

// Several goroutines with their own queues share the device worker.
func TestGPUConcurrentQueues(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(20_000, 6)
	defer rec.Release()
	want := cpuSelect(rec)
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			qq, err := q.dv.NewQueue(q.pool, 1<<20)
			if err != nil {
				errc <- err
				return
			}
			defer qq.Close()
			db, err := qq.Upload(rec)
			if err != nil {
				errc <- err
				return
			}
			defer db.Free()
			m1, err := qq.compareConst(db.Cols[4], cmpGe, int32(8766))
			if err != nil {
				errc <- err
				return
			}
			defer m1.Free()
			m2, err := qq.compareConst(db.Cols[0], cmpLt, int64(2400))
			if err != nil {
				errc <- err
				return
			}
			defer m2.Free()
			m, err := qq.and(m1, m2)
			if err != nil {
				errc <- err
				return
			}
			defer m.Free()
			idx, cnt, err := qq.Select(m)
			if err != nil {
				errc <- err
				return
			}
			defer idx.Free()
			if cnt != len(want) {
				errc <- errs.New(errs.Internal, "concurrent select: %d rows, want %d", cnt, len(want))
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}

// Transfer and scan throughput, for the GPU session's notes (no target
// asserted here: the figures go into the issue).
func TestGPUThroughput(t *testing.T) {
	q := needKernels(t)
	n := 32 << 20 // 32 Mi int64 = 256 MiB
	if strings.HasPrefix(q.dv.Info().Name, "gqemu") {
		n = 1 << 20 // the emulator's figures mean nothing: the code runs, quickly
	}
	b := array.NewInt64Builder(memory.NewGoAllocator())
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = int64(i % 1000)
	}
	b.AppendValues(vals, nil)
	arr := b.NewArray()
	defer arr.Release()
	start := time.Now()
	c, err := q.UploadArray(arr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	up := time.Since(start)
	if _, err := q.Sum(c, nil); err != nil { // warm-up
		t.Fatal(err)
	}
	start = time.Now()
	const reps = 10
	for range reps {
		a, err := q.Sum(c, nil)
		if err != nil || a.Count != int64(n) {
			t.Fatal(a, err)
		}
	}
	scan := time.Since(start) / reps
	// The device's memory bandwidth as a copy reaches it (Concat of one
	// column: the word-at-a-time copy kernel; bytes read and written), and
	// a scan's share of it: a filter's fused kernel over the column (what
	// a GPUScan runs per chunk), bytes read.
	timed := func(f func() error) time.Duration {
		if err := f(); err != nil { // warm-up
			t.Fatal(err)
		}
		start := time.Now()
		for range reps {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(start) / reps
	}
	cp := timed(func() error {
		out, err := q.Concat([]*Column{c})
		out.Free()
		return err
	})
	fused, err := GenerateFused(nil, call("lt", expr.Boolean, &expr.Column{Index: 0, Type: expr.Int64, Name: "v"}, intLit(500)))
	if err != nil {
		t.Fatal(err)
	}
	filter := timed(func() error {
		_, mask, err := q.RunFused(fused, &Batch{Len: n, Cols: []*Column{c}})
		mask.Free()
		return err
	})
	// TPC-H q06's filter: its predicate fused over three columns of the
	// rows (decimal quantity and discount, date shipdate), bytes read.
	mem := memory.NewGoAllocator()
	qb, db, sb := array.NewDecimal64Builder(mem, dec152.(*arrow.Decimal64Type)), array.NewDecimal64Builder(mem, dec152.(*arrow.Decimal64Type)), array.NewDate32Builder(mem)
	for i := range n {
		qb.Append(decimal.Decimal64(100 * (1 + i%50)))
		db.Append(decimal.Decimal64(i % 11))
		sb.Append(arrow.Date32(8000 + i%2500))
	}
	q6 := &Batch{Len: n, Cols: make([]*Column, 5)}
	defer q6.Free()
	for x, bld := range map[int]array.Builder{0: qb, 2: db, 4: sb} {
		arr := bld.NewArray()
		bld.Release()
		col, err := q.UploadArray(arr)
		arr.Release()
		if err != nil {
			t.Fatal(err)
		}
		q6.Cols[x] = col
	}
	f6, err := GenerateFused(nil, q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	q6Scan := timed(func() error {
		_, mask, err := q.RunFused(f6, q6)
		mask.Free()
		return err
	})
	gb6 := float64(n*20) / 1e9
	t.Logf("q06 filter scan %.0f GB/s (3 columns, %v per %d rows): %.0f%% of the copy's bandwidth, incl. launch and sync",
		gb6/q6Scan.Seconds(), q6Scan, n, 100*(gb6/q6Scan.Seconds())/(2*float64(n*8)/1e9/cp.Seconds()))
	start = time.Now()
	back := download(t, q, c)
	down := time.Since(start)
	back.Release()
	// The same copy into host memory already faulted in (a recycled
	// buffer): the download above also pays for the fresh buffer's pages.
	touched := make([]byte, n*8)
	for i := 0; i < len(touched); i += 4096 {
		touched[i] = 1
	}
	start = time.Now()
	if err := q.dv.Do(func() error { return q.getLocked(touched, c.Data.Ptr) }); err != nil {
		t.Fatal(err)
	}
	downTouched := time.Since(start)
	gb := float64(n*8) / 1e9
	mib := n * 8 >> 20
	t.Logf("upload %.1f GB/s, download %.1f GB/s into a new buffer, %.1f GB/s into memory already touched (through %d MiB pinned staging), sum scan %.0f GB/s (%v per %d MiB, incl. launch and sync)",
		gb/up.Seconds(), gb/down.Seconds(), gb/downTouched.Seconds(), defaultStaging>>20, gb/scan.Seconds(), scan, mib)
	t.Logf("device copy %.0f GB/s (read and written, %v per %d MiB); filter scan %.0f GB/s (%v per %d MiB): %.0f%% of the copy's bandwidth, incl. launch and sync",
		2*gb/cp.Seconds(), cp, mib, gb/filter.Seconds(), filter, mib, 100*(gb/filter.Seconds())/(2*gb/cp.Seconds()))
}

// A whole filter/projection on the GPU equals the CPU evaluator's filter
// then projection; also times it on a larger batch.
func TestGPUFilterProject(t *testing.T) {
	q := needKernels(t)
	exprs := []expr.Expr{q1Charge(), call("mul", expr.Decimal(18, 4), colPrc, colDis), colDay, colID}
	f, err := GenerateFused(exprs, q6Pred())
	if err != nil {
		t.Fatal(err)
	}
	var fields []arrow.Field
	for i, e := range exprs {
		fields = append(fields, arrow.Field{Name: "o" + string(rune('0'+i)), Type: e.DataType(), Nullable: true})
	}
	out := arrow.NewSchema(fields, nil)
	mem := memory.NewGoAllocator()
	for _, n := range []int{testRows, 4 << 20} {
		rec := testBatch(n, 8)
		start := time.Now()
		got, err := q.filterProject(f, rec, out, mem)
		if err != nil {
			rec.Release()
			t.Fatal(err)
		}
		el := time.Since(start)
		ev, _ := expr.Compile(q6Pred())
		sel, err := ev.EvalFilter(mem, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		if int(got.NumRows()) != len(sel) {
			t.Fatalf("%d rows: GPU kept %d, CPU %d", n, got.NumRows(), len(sel))
		}
		for k, e := range exprs {
			pev, _ := expr.Compile(e)
			want, err := pev.Eval(mem, rec)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range sel {
				if !sameRow(want, int(r), got.Column(k), i) {
					t.Fatalf("%s row %d: got %s, want %s", e, i, valueString(got.Column(k), i), valueString(want, int(r)))
				}
			}
			want.Release()
		}
		t.Logf("%d rows → %d in %v (%.0f M rows/s, host↔device copies included)", n, len(sel), el, float64(n)/el.Seconds()/1e6)
		got.Release()
		rec.Release()
	}
}

// uploadInt32 puts vs on the device.
func uploadInt32(t *testing.T, q *Queue, vs []int32) Buffer {
	t.Helper()
	raw := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(v))
	}
	b, err := q.UploadBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkDeviceCall is the fixed cost of one Do: what every device
// operation pays once, beside its driver calls and kernels (a synchronous
// call of a stream query, nearly free, stands in for them).
func BenchmarkDeviceCall(b *testing.B) {
	if gpu.skip != "" {
		b.Skip(gpu.skip)
	}
	call := func() error {
		return gpu.dv.Do(func() error { return gpu.q.stream.syncLocked() })
	}
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// A few groups over many rows, added up per block in shared memory first
// (AggTable.Local) and straight to the table's slots: the same groups and
// accumulators (integer-valued doubles, so sums in any order agree), and
// the time each takes — the atomics of every warp on a few slots is what
// local accumulation avoids (TPC-H q01's four groups).
func TestGPUAggLocal(t *testing.T) {
	q := needKernels(t)
	n := 1 << 25
	if strings.HasPrefix(q.dv.Info().Name, "gqemu") {
		n = 1 << 15 // the emulator's figures mean nothing: the code runs, quickly
	}
	mem := memory.NewGoAllocator()
	ib, fb := array.NewInt64Builder(mem), array.NewFloat64Builder(mem)
	for i := range n {
		if i%97 == 0 {
			ib.AppendNull()
		} else {
			ib.Append(int64(i*7919) % 100003)
		}
		fb.Append(float64(i % 1000))
	}
	ia, fa := ib.NewArray(), fb.NewArray()
	defer ia.Release()
	defer fa.Release()
	ic, err := q.UploadArray(ia)
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Free()
	fc, err := q.UploadArray(fa)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Free()
	v := &expr.Column{Index: 0, Type: expr.Int64, Name: "v"}
	d := &expr.Column{Index: 1, Type: expr.Float64, Name: "d"}
	ops := []AggOp{{Fn: "count_star"}, {Fn: "count", Arg: v}, {Fn: "sum", Arg: v}, {Fn: "min", Arg: v}, {Fn: "max", Arg: v}, {Fn: "sum", Arg: d}, {Fn: "min", Arg: d}, {Fn: "max", Arg: d}}
	b := &Batch{Len: n, Cols: []*Column{ic, fc}}
	for _, groups := range []int{1, 4, 40, 1000} { // 40: some blocks' tables overflow to the slots
		k, err := GenerateAgg([]expr.Expr{call("mod", expr.Int64, v, intLit(int64(groups)))}, ops, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !k.Local {
			t.Fatal("no local accumulation generated")
		}
		run := func(local bool) (map[int64][]int64, time.Duration) {
			tb, err := q.NewAggTable(k, 4096)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Free()
			tb.Local = local
			start := time.Now()
			if full, err := tb.Add(b); err != nil || full {
				t.Fatal(full, err)
			}
			took := time.Since(start)
			res, err := tb.Result(mem, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Release()
			got := map[int64][]int64{}
			for r := range res.Rows {
				key := res.Keys[0].Value(r)
				if res.KeyNulls.Value(r) != 0 {
					key = -1
				}
				var words []int64
				for _, acc := range res.Ops {
					for _, a := range acc {
						words = append(words, a.Value(r))
					}
				}
				got[key] = words
			}
			return got, took
		}
		run(true) // warm-up: compiles the kernel
		want, direct := run(false)
		got, local := run(true)
		if len(want) != groups+1 || len(got) != len(want) {
			t.Fatalf("%d groups: %d groups direct, %d local", groups+1, len(want), len(got))
		}
		for key, w := range want {
			if !slices.Equal(got[key], w) {
				t.Errorf("%d groups, group %d: local %v, direct %v", groups+1, key, got[key], w)
			}
		}
		t.Logf("%d groups (and NULL) of %d rows, 8 aggregates: to the slots %v, block-local first %v", groups, n, direct, local)
	}
}

// Exclusive scans of one block's length and of more (three launches over
// tiles), at and around the tile and one-block boundaries: out[i] is the
// sum of in[0..i) and out[n] the total, as on the CPU; and the time of
// one over 32M entries.
func TestGPUScan(t *testing.T) {
	q := needKernels(t)
	ks, err := q.kernels("gq_scan_u32")
	if err != nil {
		t.Fatal(err)
	}
	scan := func(vs []int32) ([]int32, time.Duration) {
		in := uploadInt32(t, q, vs)
		defer in.Free()
		out, err := q.pool.Alloc(int64(len(vs)+1) * 4)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Free()
		start := time.Now()
		err = q.dv.Do(func() error {
			scratch, err := q.scanLocked(ks[0], in.Ptr, out.Ptr, int64(len(vs)))
			defer scratch.Free()
			if err != nil {
				return err
			}
			return q.stream.syncLocked()
		})
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		return downloadInt32(t, q.dv, out, len(vs)+1), took
	}
	r := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{1, 1000, scanOneBlock, scanOneBlock + 1, 40 * scanTile, 40*scanTile + 1, 300007} {
		vs := make([]int32, n)
		for i := range vs {
			vs[i] = int32(r.IntN(300))
		}
		got, _ := scan(vs)
		sum := int32(0)
		for i := 0; i <= n; i++ {
			if got[i] != sum {
				t.Fatalf("n=%d: out[%d] = %d, want %d", n, i, got[i], sum)
			}
			if i < n {
				sum += vs[i]
			}
		}
	}
	if n := 1 << 25; !strings.HasPrefix(q.dv.Info().Name, "gqemu") {
		vs := make([]int32, n)
		for i := range vs {
			vs[i] = int32(i & 3)
		}
		scan(vs) // warm-up
		_, took := scan(vs)
		t.Logf("scan of %d entries: %v (%.0f GB/s read and written)", n, took, float64(8*n)/took.Seconds()/1e9)
	}
}

// Filter keeps the rows where the predicate holds, of the columns asked
// for, in one trip: the same rows as RunFused, Select and GatherMany; no
// columns when no row passes; the predicate's overflow is its error.
func TestGPUFilter(t *testing.T) {
	q := needKernels(t)
	rec := testBatch(testRows, 8)
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	need := make([]bool, len(db.Cols))
	for i := range need {
		need[i] = i%2 == 0 || db.Cols[i].Type.ID() == arrow.STRING
	}
	for _, pred := range []expr.Expr{q6Pred(), randPred(rand.New(rand.NewPCG(8, 1)), 3), call("lt", expr.Boolean, colID, intLit(-1))} {
		f, err := GenerateFused(nil, pred)
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.Filter(f, db, need)
		if err != nil {
			t.Fatal(err)
		}
		_, mask, err := q.RunFused(f, db)
		if err != nil {
			t.Fatal(err)
		}
		idx, m, err := q.Select(mask)
		mask.Free()
		if err != nil {
			t.Fatal(err)
		}
		if got.Len != m {
			t.Fatalf("%s: %d rows, want %d", pred, got.Len, m)
		}
		if m > 0 {
			take := make([]*Column, len(db.Cols))
			for i, c := range db.Cols {
				if need[i] {
					take[i] = c
				}
			}
			want, err := q.GatherMany(take, idx, m, false)
			idx.Free()
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if (want[i] == nil) != (got.Cols[i] == nil) {
					t.Fatalf("%s: column %d kept %v, want %v", pred, i, got.Cols[i] != nil, want[i] != nil)
				}
				if want[i] == nil {
					continue
				}
				w, g := download(t, q, want[i]), download(t, q, got.Cols[i])
				if !array.Equal(w, g) {
					t.Errorf("%s: column %d differs", pred, i)
				}
				w.Release()
				g.Release()
				want[i].Free()
			}
		} else if len(got.Cols) != 0 {
			t.Errorf("%s: no row passes, yet %d columns", pred, len(got.Cols))
		}
		got.Free()
	}
	x := &expr.Column{Index: 0, Type: expr.Int64, Name: "x"}
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues([]int64{1, math.MinInt64, 3}, nil)
	arr := b.NewArray()
	defer arr.Release()
	xb, err := q.Upload(array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{arr}, 3))
	if err != nil {
		t.Fatal(err)
	}
	defer xb.Free()
	f, err := GenerateFused(nil, call("gt", expr.Boolean, call("neg", expr.Int64, x), intLit(0)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Filter(f, xb, nil); !errors.Is(err, errs.Execution) || !containsText(err.Error(), "neg(x#0)") {
		t.Errorf("want an Execution error naming neg(x#0), got %v", err)
	}
}
