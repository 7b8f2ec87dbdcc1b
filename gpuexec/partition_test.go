package gpuexec

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/catalog"
	"gq/exec"
	"gq/expr"
)

// The device partitions rows as the exchange's host partitioner does, key
// by key and for several keys at once: every type the device hashes,
// NULLs (whatever their slots hold), -0 and 0, NaNs, empty strings. A rank
// whose GPU scan partitions on the device and a rank that fell back to
// the CPU must send a row to the same rank.
func TestDevicePartitionMatchesHost(t *testing.T) {
	g := testGPU(t)
	q, err := g.queue()
	if err != nil {
		t.Fatal(err)
	}
	defer g.putQueue(q)
	mem := memory.NewGoAllocator()
	dec := &arrow.Decimal64Type{Precision: 15, Scale: 2}
	fields := []arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "d", Type: dec, Nullable: true},
		{Name: "t", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "row", Type: arrow.PrimitiveTypes.Int32}, // not a key
	}
	rb := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer rb.Release()
	dbls := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), math.Inf(1), 1.5, -2.25}
	const n = 5000
	for r := range n {
		null := r%11 == 3
		if null {
			// A NULL whose slot holds a value: the hash must not see it.
			rb.Field(0).(*array.Int64Builder).AppendValues([]int64{int64(r)}, []bool{false})
		} else {
			rb.Field(0).(*array.Int64Builder).Append(int64(r*7919) - 100000)
		}
		if r%13 == 5 {
			rb.Field(1).AppendNull()
		} else {
			rb.Field(1).(*array.Decimal64Builder).Append(decimal.Decimal64(r % 97))
		}
		rb.Field(2).(*array.Date32Builder).Append(arrow.Date32(9000 + r%400))
		if r%17 == 1 {
			rb.Field(3).AppendNull()
		} else {
			rb.Field(3).(*array.Float64Builder).Append(dbls[r%len(dbls)] * float64(1+r%3))
		}
		if r%5 == 0 {
			rb.Field(4).AppendNull()
		} else {
			rb.Field(4).(*array.BooleanBuilder).Append(r%3 == 0)
		}
		if r%19 == 2 {
			rb.Field(5).AppendNull()
		} else {
			rb.Field(5).(*array.StringBuilder).Append(string(rune('a'+r%26)) + string(make([]byte, r%4)))
		}
		rb.Field(6).(*array.Int32Builder).Append(int32(r))
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	db, err := q.Upload(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Free()
	c := exec.NewContext(t.Context(), exec.Options{Threads: 1, BatchSize: 1024, Alloc: mem})
	for _, keys := range [][]int{{0}, {1}, {2}, {3}, {4}, {5}, {5, 3, 0}, {4, 1, 2}} {
		for _, parts := range []int{2, 3, 8} {
			exprs := make([]expr.Expr, len(keys))
			cols := make([]*arrowgpu.Column, len(keys))
			for i, k := range keys {
				exprs[i] = &expr.Column{Index: k, Type: fields[k].Type, Name: fields[k].Name}
				cols[i] = db.Cols[k]
			}
			p, err := exec.NewPartitioner(exprs, parts)
			if err != nil {
				t.Fatal(err)
			}
			host, err := p.Split(c, rec)
			if err != nil {
				t.Fatal(err)
			}
			perm, offs, err := q.HashPartition(cols, arrowgpu.Buffer{}, n, parts)
			if err != nil {
				t.Fatal(err)
			}
			arr, err := q.Download(&arrowgpu.Column{Type: arrow.PrimitiveTypes.Int32, Len: n, Data: perm}, mem)
			perm.Free()
			if err != nil {
				t.Fatal(err)
			}
			rows := arr.(*array.Int32).Int32Values()
			for pid := range parts {
				dev := slices.Clone(rows[offs[pid]:offs[pid+1]])
				slices.Sort(dev)
				var want []int32
				if host[pid] != nil {
					want = host[pid].Column(6).(*array.Int32).Int32Values()
				}
				if !slices.Equal(dev, want) {
					t.Errorf("keys %v, %d partitions: partition %d has %d rows on the device, %d on the host", keys, parts, pid, len(dev), len(want))
				}
			}
			arr.Release()
			exec.ReleaseBatches(host)
		}
	}
}

// A GPU scan, a join pipeline's rows and a GPU aggregation below a hash
// exchange come back grouped by partition (GPUScan.Partition,
// GPUJoinRows and GPUAggregate WithPartition):
// every batch is a partBatch whose rows the host partitioner puts in its
// partition, and no row is lost — an int64 key with NULLs, (the scan) a
// double key with -0, 0 and NaN, and a string key, over many chunks.
func TestGPUOutputPartitioned(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 1000
	defer g.cache.evict(nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	dbls := []float64{0, math.Copysign(0, -1), math.NaN(), 2.5, -7}
	strs := []string{"", "MAIL", "SHIP", "1-URGENT", "a longer string than eight bytes", "é"}
	const splits, rowsPer = 12, 900
	var batches []arrow.RecordBatch
	for s := range splits {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := range rowsPer {
			r := s*rowsPer + i
			if r%9 == 4 {
				rb.Field(0).AppendNull()
			} else {
				rb.Field(0).(*array.Int64Builder).Append(int64(r % 1500))
			}
			rb.Field(1).(*array.Float64Builder).Append(dbls[r%len(dbls)])
			rb.Field(2).(*array.Int64Builder).Append(int64(r))
			if r%13 == 6 {
				rb.Field(3).AppendNull()
			} else {
				rb.Field(3).(*array.StringBuilder).Append(strs[r%len(strs)])
			}
		}
		batches = append(batches, rb.NewRecordBatch())
		rb.Release()
	}
	table := catalog.NewMemTable("parts", schema, batches)
	exec.ReleaseBatches(batches)
	const parts = 3
	keyCols := []expr.Expr{&expr.Column{Index: 0, Type: schema.Field(0).Type, Name: "k"}, &expr.Column{Index: 1, Type: schema.Field(1).Type, Name: "d"}}
	check := func(what string, n exec.Node, wantRows int) {
		t.Helper()
		p, err := exec.NewPartitioner(keyCols, parts)
		if err != nil {
			t.Fatal(err)
		}
		c := exec.NewContext(t.Context(), exec.Options{Threads: 2, BatchSize: 256, Alloc: mem})
		rows := 0
		err = exec.Run(c, n, func(b arrow.RecordBatch) error {
			pb, ok := b.(*exec.PartBatch)
			if !ok || pb.Parts != parts {
				t.Fatalf("%s: a batch of %d rows not of one partition", what, b.NumRows())
			}
			split, err := p.Split(c, b)
			if err != nil {
				return err
			}
			for pid, s := range split {
				if s != nil && pid != pb.Part {
					t.Errorf("%s: %d rows of partition %d in a batch of partition %d", what, s.NumRows(), pid, pb.Part)
				}
			}
			exec.ReleaseBatches(split)
			rows += int(b.NumRows())
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if rows != wantRows {
			t.Errorf("%s: %d rows, want %d", what, rows, wantRows)
		}
	}
	scan := &exec.Scan{Table: table, Columns: []int{0, 1, 2, 3}, Out: schema}
	gs := &GPUScan{CPU: scan, GPU: g, Partition: &DevicePartition{Keys: []int{0, 1}, Parts: parts}}
	check("scan", gs, splits*rowsPer)
	// A pipeline's rows (of no joins here: the rows it computes on the
	// device, then partitions there).
	cols := []expr.Expr{keyCols[0], keyCols[1], &expr.Column{Index: 2, Type: schema.Field(2).Type, Name: "v"}, &expr.Column{Index: 3, Type: schema.Field(3).Type, Name: "s"}}
	rows, err := newJoinRows(&GPUScan{CPU: scan, GPU: g}, nil, nil, cols, schema, scan)
	if err != nil {
		t.Fatal(err)
	}
	if rows, err = rows.WithPartition(&DevicePartition{Keys: []int{0, 1}, Parts: parts}); err != nil {
		t.Fatal(err)
	}
	check("join rows", rows, splits*rowsPer)

	// Groups of k (the device groups by no double): it repeats every
	// 1,500 rows, NULL on every ninth row.
	keyCols = keyCols[:1]
	want := map[string]bool{}
	for r := range splits * rowsPer {
		k := fmt.Sprint(r % 1500)
		if r%9 == 4 {
			k = "NULL"
		}
		want[k] = true
	}
	out := arrow.NewSchema([]arrow.Field{schema.Field(0), {Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	ga, err := newAggregate(&GPUScan{CPU: scan, GPU: g}, nil, nil, AggStage{Keys: keyCols, Aggs: []exec.AggFunc{{Fn: "count_star", Type: arrow.PrimitiveTypes.Int64}}, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ga, err = ga.WithPartition(&DevicePartition{Keys: []int{0}, Parts: parts}); err != nil {
		t.Fatal(err)
	}
	check("aggregation", ga, len(want))

	// By a string key: the device holds its codes, and hashes each
	// through a table of its strings' hashes.
	skey := &expr.Column{Index: 3, Type: schema.Field(3).Type, Name: "s"}
	out = arrow.NewSchema([]arrow.Field{schema.Field(3), {Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	ga, err = newAggregate(&GPUScan{CPU: scan, GPU: g}, nil, nil, AggStage{Keys: []expr.Expr{skey}, Aggs: []exec.AggFunc{{Fn: "count_star", Type: arrow.PrimitiveTypes.Int64}}, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	keyCols = []expr.Expr{&expr.Column{Index: 0, Type: skey.Type, Name: "s"}} // of the output
	if ga, err = ga.WithPartition(&DevicePartition{Keys: []int{0}, Parts: parts}); err != nil {
		t.Fatal(err)
	}
	check("aggregation by a string", ga, len(strs)+1)

	// By a string key of a streamed table (a table past its share of
	// device memory, as each rank's under a limit): its codes are
	// numbered as the chunks come, and its strings are known once the
	// pass is over, before the groups come back.
	g.cache.evict(nil)
	defer g.SetDeviceLimitForTesting(160 << 10)()
	ga, err = newAggregate(&GPUScan{CPU: scan, GPU: g}, nil, nil, AggStage{Keys: []expr.Expr{skey}, Aggs: []exec.AggFunc{{Fn: "count_star", Type: arrow.PrimitiveTypes.Int64}}, Final: true}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ga, err = ga.WithPartition(&DevicePartition{Keys: []int{0}, Parts: parts}); err != nil {
		t.Fatal(err)
	}
	streamed := g.streamed.Load()
	check("aggregation by a string, streamed", ga, len(strs)+1)
	if g.streamed.Load() == streamed {
		t.Errorf("the table did not stream under a %d-byte device limit", 160<<10)
	}
}
