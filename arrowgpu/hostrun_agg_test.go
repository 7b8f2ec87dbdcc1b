package arrowgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// The aggregation kernel run on the host with one thread (the shim makes
// the thread a whole warp): its groups and accumulators must be what the
// CPU evaluator's values give. Warp combining and contention are left to
// the GPU tests.

func aggHarness(k *AggKernel, capacity int) string {
	var b strings.Builder
	b.WriteString(hostFileIO + `
int main(int argc, char** argv) {
	const char* dir = argv[1]; i64 n = atoll(argv[2]);
#ifdef GQ_HOST_LOCAL
	u32 local = 1;
#else
	u32 local = 0;
#endif
`)
	fmt.Fprintf(&b, "\tlong cap = %d;\n\tu32 ng = 0, err = 0;\n\tu32* state = (u32*)calloc(cap, 4);\n", capacity)
	var args []string
	for i, c := range k.Inputs {
		b.WriteString(hostInputDecl(c, k.InTypes[i]))
		args = append(args, hostInputArgs(c, k.InTypes[i])...)
	}
	args = append(args, "state", "(u32)(cap - 1)", "&ng")
	var outs []string
	for i := range k.Keys {
		fmt.Fprintf(&b, "\ti64* key%d = (i64*)calloc(cap, 8);\n", i)
		args = append(args, fmt.Sprintf("key%d", i))
		outs = append(outs, fmt.Sprintf("key%d", i))
	}
	b.WriteString("\tu64* knull = (u64*)calloc(cap, 8);\n")
	args = append(args, "knull")
	outs = append(outs, "knull")
	for j, op := range k.Ops {
		for w, p := range accParams(j, op.Fn, k.ArgTypes[j]) {
			sp := strings.LastIndex(p, " ")
			typ, name := p[:sp], p[sp+1:]
			fmt.Fprintf(&b, "\t%s %s = (%s)calloc(cap, 8);\n", typ, name, typ)
			if w == 1 && (op.Fn == "min" || op.Fn == "max") {
				fmt.Fprintf(&b, "\tfor (long s = 0; s < cap; s++) ((u64*)%s)[s] = %dULL;\n", name, minMaxIdentity(op.Fn, k.ArgTypes[j]))
			}
			args = append(args, name)
			outs = append(outs, name)
		}
	}
	args = append(args, "&err", "n", "local")
	fmt.Fprintf(&b, "\t%s(%s);\n", k.Name, strings.Join(args, ", "))
	b.WriteString("\tgq_write(dir, \"state\", state, cap * 4);\n")
	for _, o := range outs {
		fmt.Fprintf(&b, "\tgq_write(dir, %q, %s, cap * 8);\n", o, o)
	}
	b.WriteString("\tu32 tail[2] = {ng, err}; gq_write(dir, \"tail\", tail, 8);\n\treturn 0;\n}\n")
	return b.String()
}

// aggOnHost runs k over rec on the host and returns, per group (keyed by
// its printed keys), the printed accumulators.
func aggOnHost(t *testing.T, k *AggKernel, rec arrow.RecordBatch, capacity int, flags ...string) (map[string]string, uint32) {
	t.Helper()
	dir, bin := hostBuild(t, k.fullSource()+aggHarness(k, capacity), flags...)
	hostInputs(t, dir, k.Inputs, rec)
	if out, err := exec.Command(bin, dir, fmt.Sprint(rec.NumRows())).CombinedOutput(); err != nil {
		t.Fatalf("host kernel: %v\n%s", err, out)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	word := func(b []byte, s int) uint64 { return binary.LittleEndian.Uint64(b[8*s:]) }
	state := read("state")
	keys := make([][]byte, len(k.Keys))
	for i := range keys {
		keys[i] = read(fmt.Sprintf("key%d", i))
	}
	knull := read("knull")
	accs := map[string][]byte{}
	for j, op := range k.Ops {
		for _, p := range accParams(j, op.Fn, k.ArgTypes[j]) {
			name := p[strings.LastIndex(p, " ")+1:]
			accs[name] = read(name)
		}
	}
	got := map[string]string{}
	for s := 0; s < capacity; s++ {
		if binary.LittleEndian.Uint32(state[4*s:]) != 2 {
			continue
		}
		var ks []string
		for i := range keys {
			if word(knull, s)>>i&1 != 0 {
				ks = append(ks, "NULL")
			} else {
				ks = append(ks, fmt.Sprint(int64(word(keys[i], s))))
			}
		}
		var vs []string
		for j, op := range k.Ops {
			c := word(accs[fmt.Sprintf("a%d_c", j)], s)
			v := fmt.Sprint(c)
			switch {
			case op.Fn == "count" || op.Fn == "count_star":
			case c == 0:
				v += ":NULL"
			case k.ArgTypes[j].ID() == arrow.FLOAT64:
				v += fmt.Sprintf(":%.9g", math.Float64frombits(word(accs[fmt.Sprintf("a%d_x", j)], s)))
			case op.Fn == "sum":
				v += fmt.Sprintf(":%d:%d", int64(word(accs[fmt.Sprintf("a%d_x", j)], s)), int64(word(accs[fmt.Sprintf("a%d_h", j)], s)))
			default:
				v += fmt.Sprintf(":%d", int64(word(accs[fmt.Sprintf("a%d_x", j)], s)))
			}
			vs = append(vs, v)
		}
		got[strings.Join(ks, ",")] = strings.Join(vs, " ")
	}
	tail := read("tail")
	if int(binary.LittleEndian.Uint32(tail)) != len(got) {
		t.Errorf("ngroups %d, %d groups in the table", binary.LittleEndian.Uint32(tail), len(got))
	}
	return got, binary.LittleEndian.Uint32(tail[4:])
}

// aggOnCPU computes what aggOnHost returns with the CPU evaluator.
func aggOnCPU(t *testing.T, keys []expr.Expr, ops []AggOp, pred expr.Expr, rec arrow.RecordBatch) map[string]string {
	t.Helper()
	mem := memory.NewGoAllocator()
	eval := func(e expr.Expr) arrow.Array {
		ev, err := expr.Compile(e)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ev.Eval(mem, rec)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	rows := make([]int32, rec.NumRows())
	for i := range rows {
		rows[i] = int32(i)
	}
	if pred != nil {
		ev, _ := expr.Compile(pred)
		var err error
		if rows, err = ev.EvalFilter(mem, rec, nil); err != nil {
			t.Fatal(err)
		}
	}
	image := func(a arrow.Array, i int) int64 {
		switch x := a.(type) {
		case *array.Int64:
			return x.Value(i)
		case *array.Decimal64:
			return int64(x.Value(i))
		case *array.Date32:
			return int64(x.Value(i))
		case *array.Boolean:
			if x.Value(i) {
				return 1
			}
			return 0
		}
		t.Fatalf("no int64 image of %s", a.DataType())
		return 0
	}
	var keyArrs, argArrs []arrow.Array
	for _, e := range keys {
		keyArrs = append(keyArrs, eval(e))
	}
	for _, op := range ops {
		if op.Arg == nil {
			argArrs = append(argArrs, nil)
		} else {
			argArrs = append(argArrs, eval(op.Arg))
		}
	}
	type acc struct {
		c     uint64
		i     int64
		w     decimal128.Num // sums of DECIMAL(38) values
		f     float64
		valid bool
	}
	groups := map[string][]acc{}
	for _, r := range rows {
		var ks []string
		for _, a := range keyArrs {
			if a.IsNull(int(r)) {
				ks = append(ks, "NULL")
			} else {
				ks = append(ks, fmt.Sprint(image(a, int(r))))
			}
		}
		key := strings.Join(ks, ",")
		g := groups[key]
		if g == nil {
			g = make([]acc, len(ops))
			groups[key] = g
		}
		for j, op := range ops {
			a := argArrs[j]
			if a != nil && a.IsNull(int(r)) {
				continue
			}
			g[j].c++
			if op.Fn == "count" || op.Fn == "count_star" {
				continue
			}
			if d, ok := a.(*array.Decimal128); ok && op.Fn == "sum" {
				g[j].w = g[j].w.Add(d.Value(int(r)))
			} else if f, ok := a.(*array.Float64); ok {
				v := f.Value(int(r))
				switch {
				case op.Fn == "sum":
					g[j].f += v
				case !g[j].valid || (op.Fn == "min" && expr.CompareFloat(v, g[j].f) < 0) || (op.Fn == "max" && expr.CompareFloat(v, g[j].f) > 0):
					g[j].f = v
				}
			} else {
				v := image(a, int(r))
				switch {
				case op.Fn == "sum":
					g[j].i += v
				case !g[j].valid || (op.Fn == "min" && v < g[j].i) || (op.Fn == "max" && v > g[j].i):
					g[j].i = v
				}
			}
			g[j].valid = true
		}
	}
	want := map[string]string{}
	for key, g := range groups {
		var vs []string
		for j, op := range ops {
			v := fmt.Sprint(g[j].c)
			switch {
			case op.Fn == "count" || op.Fn == "count_star":
			case g[j].c == 0:
				v += ":NULL"
			case op.Arg.DataType().ID() == arrow.FLOAT64:
				v += fmt.Sprintf(":%.9g", g[j].f)
			case op.Fn == "sum" && op.Arg.DataType().ID() == arrow.DECIMAL128:
				v += fmt.Sprintf(":%d:%d", int64(g[j].w.LowBits()), g[j].w.HighBits())
			case op.Fn == "sum":
				hi := int64(0)
				if g[j].i < 0 {
					hi = -1
				}
				v += fmt.Sprintf(":%d:%d", g[j].i, hi)
			default:
				v += fmt.Sprintf(":%d", g[j].i)
			}
			vs = append(vs, v)
		}
		want[key] = strings.Join(vs, " ")
	}
	return want
}

// checkAggPaths runs k over rec on the host (a table of capacity slots)
// through the warp-uniform path, then the per-peer path, each adding to
// the slots, then through the block's table, and wants aggOnCPU's want.
func checkAggPaths(t *testing.T, k *AggKernel, rec arrow.RecordBatch, capacity int, want map[string]string) {
	t.Helper()
	for _, flags := range [][]string{nil, {"-DGQ_HOST_DIVERGENT"}, {"-DGQ_HOST_LOCAL"}, {"-DGQ_HOST_LOCAL", "-DGQ_HOST_DIVERGENT"}} {
		got, code := aggOnHost(t, k, rec, capacity, flags...)
		if code != 0 {
			t.Fatalf("%v: kernel error code %d", flags, code)
		}
		if len(got) != len(want) {
			t.Errorf("%v: %d groups, CPU %d", flags, len(got), len(want))
		}
		for key, w := range want {
			if got[key] != w {
				t.Errorf("%v: group %s: got %q, want %q", flags, key, got[key], w)
			}
		}
	}
}

func TestAggOnHostMatchesCPU(t *testing.T) {
	rec := testBatch(6007, 5)
	defer rec.Release()
	keys := []expr.Expr{
		colFlg, // Boolean with NULLs
		call("mod", expr.Int64, colID, intLit(5)), // Int64 with NULLs
		call("extract_year", expr.Int64, colDay),
	}
	ops := []AggOp{
		{Fn: "count_star"},
		{Fn: "count", Arg: colRat},
		{Fn: "sum", Arg: colQty},
		{Fn: "sum", Arg: call("mul", expr.Decimal(18, 4), colPrc, colDis)},
		{Fn: "sum", Arg: colID},
		{Fn: "sum", Arg: colRat},
		{Fn: "min", Arg: colPrc},
		{Fn: "max", Arg: colDay},
		{Fn: "min", Arg: colRat},
		{Fn: "max", Arg: colRat},
		{Fn: "min", Arg: colID},
	}
	pred := call("lt", expr.Boolean, colQty, decLit(4000, 2))
	for _, tc := range []struct {
		name string
		keys []expr.Expr
		pred expr.Expr
	}{{"grouped", keys, pred}, {"ungrouped", nil, nil}, {"one key", keys[2:], pred},
		{"random filter", keys, randPred(rand.New(rand.NewPCG(5, 1)), 3)}, {"random filter, no keys", nil, randPred(rand.New(rand.NewPCG(5, 2)), 3)}} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := GenerateAgg(tc.keys, ops, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			// With more groups than the block's table holds, "grouped"
			// adds some to their slots.
			checkAggPaths(t, k, rec, 1024, aggOnCPU(t, tc.keys, ops, tc.pred, rec))
		})
	}
	// A table too small for the groups reports that it is full.
	k, err := GenerateAgg(keys[2:], ops[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, code := aggOnHost(t, k, rec, 4); code != aggFull {
		t.Errorf("4 slots for 7 years: code %#x, want full", code)
	}
}

// Sums of DECIMAL(38) values (the merge of ranks' partial sums, sums of
// 128-bit products) add in 128 bits on every path (warp-uniform,
// per-peer, block-local) as the CPU does; a value past the headroom
// (2^88) fails the batch with aggWideBig, for the CPU to aggregate.
func TestAggOnHostWideSum(t *testing.T) {
	rec := wideBatch(3001, 6)
	defer rec.Release()
	w := &expr.Column{Index: 0, Type: expr.Decimal(38, 2), Name: "w"}
	v := &expr.Column{Index: 1, Type: expr.Decimal(15, 4), Name: "v"}
	u := &expr.Column{Index: 2, Type: expr.Decimal(38, 6), Name: "u"}
	keys := []expr.Expr{call("gt", expr.Boolean, v, decLit(0, 4))}
	ops := []AggOp{
		{Fn: "sum", Arg: u},
		{Fn: "sum", Arg: call("cast", expr.Decimal(38, 4), v)},
		{Fn: "sum", Arg: call("mul", expr.Decimal(38, 7), u, decLit(-3, 1))},
		{Fn: "count", Arg: u},
	}
	for _, keys := range [][]expr.Expr{keys, nil} {
		k, err := GenerateAgg(keys, ops, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := aggOnCPU(t, keys, ops, nil, rec)
		for _, flags := range [][]string{nil, {"-DGQ_HOST_DIVERGENT"}, {"-DGQ_HOST_LOCAL"}, {"-DGQ_HOST_LOCAL", "-DGQ_HOST_DIVERGENT"}} {
			got, code := aggOnHost(t, k, rec, 1024, flags...)
			if code != 0 {
				t.Fatalf("%d keys %v: kernel error code %#x", len(keys), flags, code)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%d keys %v: got %v, want %v", len(keys), flags, got, want)
			}
		}
	}
	// w holds values near 10^35: past the headroom.
	k, err := GenerateAgg(keys, []AggOp{{Fn: "sum", Arg: w}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, code := aggOnHost(t, k, rec, 1024); code != aggWideBig {
		t.Errorf("a sum of values near 10^35: code %#x, want %#x", code, aggWideBig)
	}
}

func TestAggUnsupported(t *testing.T) {
	name := &expr.Column{Index: 8, Type: expr.String, Name: "name"}
	for _, tc := range []struct {
		keys []expr.Expr
		ops  []AggOp
	}{
		{[]expr.Expr{name}, []AggOp{{Fn: "count_star"}}},
		{nil, []AggOp{{Fn: "sum", Arg: colDay}}},
		{nil, []AggOp{{Fn: "min", Arg: name}}},
	} {
		if _, err := GenerateAgg(tc.keys, tc.ops, nil); err == nil {
			t.Errorf("keys %v ops %v: no error", tc.keys, tc.ops)
		}
	}
}

// A kernel accumulates per block only with up to aggLocalMaxOps
// aggregates: their shared memory is declared whether used or not, and
// more would leave a multiprocessor fewer blocks.
func TestAggLocalOps(t *testing.T) {
	for _, n := range []int{1, aggLocalMaxOps, aggLocalMaxOps + 1} {
		ops := make([]AggOp, n)
		for j := range ops {
			ops[j] = AggOp{Fn: "sum", Arg: colQty}
		}
		k, err := GenerateAgg([]expr.Expr{colFlg}, ops, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := n <= aggLocalMaxOps; k.Local != want || strings.Contains(k.Source, "gq_ls[") != want {
			t.Errorf("%d aggregates: local %v, want %v", n, k.Local, want)
		}
	}
}
