package exec

import (
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/arrowgpu"
	"gq/arrowgpu/emulator"
	"gq/catalog"
	"gq/exec/expr"
)

// Tests of the GPU operators at the level of exec: on a GPU when the
// machine has one, else on gqemu (arrowgpu/emulator, needs g++).

var emuGPU struct {
	once sync.Once
	g    *GPU
	why  string
}

func testGPU(t *testing.T) *GPU {
	t.Helper()
	emuGPU.once.Do(func() {
		if !arrowgpu.DriverPresent() {
			if err := emulator.Enable(); err != nil {
				emuGPU.why = err.Error()
				return
			}
		}
		g, err := OpenGPU(256 << 20)
		if err != nil {
			emuGPU.why = err.Error()
			return
		}
		emuGPU.g = g
	})
	if emuGPU.g == nil {
		t.Skip("no GPU and no emulator: " + emuGPU.why)
	}
	return emuGPU.g
}

// slowNode delays its input: a build side that finishes long after the
// probe side's scan has started.
type slowNode struct {
	Node
	delay time.Duration
}

func (s *slowNode) Open(c *Context) <-chan arrow.RecordBatch {
	out := make(chan arrow.RecordBatch, 1)
	in := s.Node.Open(c)
	c.Go(func() error {
		defer close(out)
		time.Sleep(s.delay)
		for b := range in {
			if !Send(c, out, b) {
				return c.Err()
			}
		}
		return nil
	})
	return out
}

// A join filter published after the scan has started (q18's outer join:
// its build side waits for an aggregation of lineitem) still filters the
// chunks the GPU scan reaches after it: earlier the device took up only
// the filters there at its start, and downloaded every row.
func TestGPUScanTakesLateJoinFilter(t *testing.T) {
	g := testGPU(t)
	defer func(n int) { chunkRows = n }(chunkRows)
	chunkRows = 1000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	const splits, rowsPer = 40, 1000
	var batches []arrow.RecordBatch
	for s := range splits {
		// The table holds its batches for good: not query memory.
		kb, vb := array.NewInt64Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
		for i := range rowsPer {
			kb.Append(int64(s*rowsPer + i))
			vb.Append(int64(i))
		}
		k, v := kb.NewArray(), vb.NewArray()
		batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{k, v}, rowsPer))
		k.Release()
		v.Release()
	}
	table := catalog.NewMemTable("probe", schema, batches)
	for _, b := range batches {
		b.Release()
	}
	defer g.cache.evict(nil)

	jf := &JoinFilter{ID: 1}
	key := &expr.Column{Index: 0, Type: arrow.PrimitiveTypes.Int64, Name: "k"}
	scan := &Scan{Table: table, Columns: []int{0, 1}, Out: schema, JoinFilters: []ScanJoinFilter{{Filter: jf, Keys: []expr.Expr{key}}}}
	gs := &GPUScan{CPU: scan, GPU: g}
	bschema := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bb := array.NewInt64Builder(mem)
	bb.AppendValues([]int64{5, 39005}, nil)
	barr := bb.NewArray()
	brec := array.NewRecordBatch(bschema, []arrow.Array{barr}, 2)
	barr.Release()
	defer brec.Release()
	build := &slowNode{Node: &testSource{schema: bschema, batches: []arrow.RecordBatch{brec}}, delay: 300 * time.Millisecond}
	join := &HashJoin{
		Type: JoinInner, Left: gs, Right: build,
		LeftKeys:  []expr.Expr{key},
		RightKeys: []expr.Expr{&expr.Column{Index: 0, Type: arrow.PrimitiveTypes.Int64, Name: "b"}},
		Out:       arrow.NewSchema(append(schema.Fields(), bschema.Field(0)), nil),
		Publish:   jf,
	}
	rows, err := runRows(t, mem, 2, 1024, join)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("join rows %v, want 2", rows)
	}
	all := int64(splits * rowsPer * 16)
	if got := gs.toHost.Load(); got > all/2 {
		t.Errorf("the GPU scan downloaded %d of %d bytes: the filter published after it started was not applied on the device", got, all)
	} else {
		t.Logf("downloaded %d of %d bytes", got, all)
	}
}
