package arrowgpu

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// Grouped aggregation on the device: one generated kernel per aggregation
// evaluates the filter, the group keys and the aggregate arguments of a
// row in registers (the fused generator's code), finds the row's group in
// an open-addressing hash table in device memory, and adds the row to the
// group's accumulators with atomics, after the lanes of a warp that share
// a group have combined their values (so a handful of groups does not
// serialise every row on a few addresses).
//
// The table is struct-of-arrays over its slots: a state word (empty,
// being claimed, ready), one int64 per key (Date32 and Boolean widened),
// a NULL bitmask of the keys, and per aggregate a count of the values it
// took (rows, for count_star) plus, for sum/min/max, the value: sums of
// integers and decimals in 128 bits (low word, high word), so no partial
// sum overflows on the device; sums of doubles as doubles; min and max as
// int64 or double. Sums of DECIMAL(38) values add their two words into
// the same two.

// AggOp is one aggregate computed per group: Fn is "sum", "count",
// "count_star", "min" or "max"; Arg is nil for count_star.
type AggOp struct {
	Fn  string
	Arg expr.Expr
}

// AggKernel is the generated source of a grouped aggregation and what its
// parameters are.
type AggKernel struct {
	Name     string
	Source   string
	Inputs   []int            // batch column indices read, ascending
	InTypes  []arrow.DataType // their types
	Keys     []arrow.DataType // key types, as evaluated
	Ops      []AggOp
	ArgTypes []arrow.DataType // each op's argument type (nil for count_star)
	Sites    []string         // expressions that can fail
	// Local says the kernel can add a block's rows up in shared memory
	// first (AggTable.Local): a table of up to GQ_AGG_LOCAL groups per
	// block, added to the groups' slots once the block's rows are done.
	Local bool

	// Having (WithHaving) is a predicate over the aggregation's output,
	// and Top (WithTopN) the column a top-N orders it by: a second kernel
	// of the module, GroupsName, evaluates them per group before the
	// groups are read back, so that only those kept come back.
	// GroupsSites are its operations that can fail.
	Having expr.Expr
	// Params are the types of values Having reads beside the output —
	// its columns len(out), len(out)+1, ... — given at run time
	// (AggTable.SetParams): a scalar subquery's row that a HAVING
	// compares with (TPC-H q11), known only once the subquery has run.
	Params      []arrow.DataType
	Top         *OrderKey
	GroupsName  string
	GroupsSites []string
	groupsSrc   string
	out         []arrow.DataType // the output's types (Having and Top)
}

// aggFull is the error code the kernel writes when the table has no free
// slot within aggMaxProbes of a key's home slot: the caller grows the
// table and starts again. (At the load factor of at most a half that Add
// keeps, linear probing averages under three probes; a run of hundreds
// means the table is about full.)
const (
	aggFull      = 0xffffffff
	aggMaxProbes = 256
)

// GenerateAgg generates the aggregation kernel for keys and ops over the
// rows where pred (may be nil) is true. Keys must be of a type with an
// int64 image (integers, decimals, dates, Booleans); sum takes integers,
// decimals (DECIMAL(38) too) and doubles; min and max also dates. Anything else is an
// errs.Unsupported error naming it, so the caller can aggregate on the CPU.
func GenerateAgg(keys []expr.Expr, ops []AggOp, pred expr.Expr) (*AggKernel, error) {
	args := make([]expr.Expr, 0, len(keys)+len(ops))
	args = append(args, keys...)
	var fns strings.Builder
	for _, op := range ops {
		fns.WriteString(op.Fn)
		if op.Arg == nil {
			fns.WriteByte('*') // no argument
		} else {
			args = append(args, op.Arg)
		}
		fns.WriteByte(',')
	}
	key, ok := exprsKey(fmt.Sprintf("agg %d keys %s", len(keys), fns.String()), args, pred)
	if !ok {
		return generateAgg(keys, ops, pred)
	}
	if k, ok := aggMemo.get(key); ok {
		return k, nil
	}
	k, err := generateAgg(keys, ops, pred)
	if err != nil {
		return nil, err // not kept: its message may name this query's columns
	}
	aggMemo.put(key, k)
	return k, nil
}

var aggMemo = newMemo[*AggKernel]()

func generateAgg(keys []expr.Expr, ops []AggOp, pred expr.Expr) (*AggKernel, error) {
	if len(keys) > 64 {
		return nil, unsupported(fmt.Sprintf("%d group keys", len(keys)))
	}
	g := &gen{inputs: map[int]bool{}}
	g.indent = 2
	k := &AggKernel{Ops: ops}
	live := "in"
	if pred != nil {
		var err error
		if live, err = g.predicate(pred); err != nil {
			return nil, err
		}
	}
	var keyVals []value
	for _, e := range keys {
		switch e.DataType().ID() {
		case arrow.INT64, arrow.DECIMAL64, arrow.DATE32, arrow.BOOL, arrow.INT32:
		default:
			return nil, unsupported(fmt.Sprintf("group key of type %s", e.DataType()))
		}
		v, err := g.expr(e)
		if err != nil {
			return nil, err
		}
		keyVals = append(keyVals, v)
		k.Keys = append(k.Keys, e.DataType())
	}
	var argVals []value
	for _, op := range ops {
		if op.Fn == "count_star" {
			argVals = append(argVals, value{})
			k.ArgTypes = append(k.ArgTypes, nil)
			continue
		}
		if op.Arg == nil {
			return nil, errs.New(errs.Internal, "arrowgpu: %s without an argument", op.Fn)
		}
		t := op.Arg.DataType()
		ok := false
		switch op.Fn {
		case "count":
			_, err := ctype(t)
			ok = err == nil
		case "sum":
			ok = t.ID() == arrow.INT64 || t.ID() == arrow.DECIMAL64 || t.ID() == arrow.FLOAT64 || isWide(t)
		case "min", "max":
			ok = t.ID() == arrow.INT64 || t.ID() == arrow.DECIMAL64 || t.ID() == arrow.FLOAT64 || t.ID() == arrow.DATE32
		}
		if !ok {
			return nil, unsupported(fmt.Sprintf("%s of %s", op.Fn, t))
		}
		v, err := g.expr(op.Arg)
		if err != nil {
			return nil, err
		}
		argVals = append(argVals, v)
		k.ArgTypes = append(k.ArgTypes, t)
	}
	k.Inputs, k.InTypes = g.inputList()
	k.Sites = g.sites

	params := g.inputParams(k.Inputs)
	params = append(params, "u32* state", "u32 mask", "u32* ngroups")
	for i := range keys {
		params = append(params, fmt.Sprintf("i64* key%d", i))
	}
	params = append(params, "u64* knull")
	for j, op := range ops {
		params = append(params, accParams(j, op.Fn, k.ArgTypes[j])...)
	}
	params = append(params, "u32* err", "i64 n", "u32 local")
	k.Local = len(ops) <= aggLocalMaxOps

	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, "\t\t"+format+"\n", args...) }
	w("bool live = %s;", live)
	w("u64 kn = 0;")
	for i, v := range keyVals {
		w("i64 kv%d = %s ? 0 : (i64)%s; if (%s) kn |= 1ULL << %d;", i, v.null, v.val, v.null, i)
	}
	w("u32 slot = 0xffffffffu;")
	w("bool claimed = false;")
	// Once the table is full every row would probe it all: stop early.
	w("if (live && gq_load_u32(err) == 0xffffffffu) live = false;")
	w("if (live) {")
	w("\tu64 h = gq_hash64(kn + 0x9e3779b97f4a7c15ULL);")
	for i := range keyVals {
		w("\th = gq_hash64(h ^ (u64)kv%d);", i)
	}
	w("\tu32 s = (u32)h & mask;")
	w("\tfor (u32 p = 0; p <= mask && p < %d; p++, s = (s + 1) & mask) {", aggMaxProbes)
	w("\t\tu32 st = gq_load_u32(&state[s]);")
	w("\t\tif (st == 0u) {")
	w("\t\t\tst = atomicCAS(&state[s], 0u, 1u);")
	w("\t\t\tif (st == 0u) {")
	for i := range keyVals {
		w("\t\t\t\tkey%d[s] = kv%d;", i, i)
	}
	w("\t\t\t\tknull[s] = kn;")
	w("\t\t\t\t__threadfence();")
	w("\t\t\t\tatomicExch(&state[s], 2u);")
	w("\t\t\t\tclaimed = true;")
	w("\t\t\t\tslot = s;")
	w("\t\t\t\tbreak;")
	w("\t\t\t}")
	w("\t\t}")
	w("\t\twhile (st == 1u) st = gq_load_u32(&state[s]);")
	w("\t\t__threadfence();")
	eq := []string{"gq_load_u64(&knull[s]) == kn"}
	for i := range keyVals {
		eq = append(eq, fmt.Sprintf("gq_load_i64(&key%d[s]) == kv%d", i, i))
	}
	w("\t\tif (%s) { slot = s; break; }", strings.Join(eq, " && "))
	w("\t}")
	w("\tif (slot == 0xffffffffu) { atomicExch(err, 0xffffffffu); live = false; }")
	w("}")
	// New groups are counted per warp into the block's count, which
	// goes to *ngroups once: an atomic per new group on that one word
	// serialised (TPC-H q18's 15M groups at SF10).
	w("u32 nc = __ballot_sync(GQ_FULL_MASK, claimed);")
	w("if (nc && (threadIdx.x & 31u) == (u32)(__ffs(nc) - 1)) atomicAdd(&gq_new, (u32)__popc(nc));")
	// When every live lane of the warp has the same group (rows of a
	// group often come together; always without keys) a butterfly of five
	// shuffles reduces a value; otherwise each lane sums its group's peers
	// with 32 shuffles.
	w("u32 lv = __ballot_sync(GQ_FULL_MASK, live);")
	w("u32 s0 = __shfl_sync(GQ_FULL_MASK, slot, lv ? __ffs(lv) - 1 : 0);")
	w("bool uni = __all_sync(GQ_FULL_MASK, !live || slot == s0);")
	w("u32 peers = uni ? lv : __match_any_sync(GQ_FULL_MASK, slot);")
	w("bool leader = live && (u32)(__ffs(peers) - 1) == (threadIdx.x & 31u);")
	// acc is accumulator w of op j for this warp's group: its entry in
	// the block's table when local and the group has one, else its slot.
	acc := func(j int, w string) string { return fmt.Sprintf("&a%d_%s[slot]", j, w) }
	if k.Local {
		w("int le = local && leader ? gq_agg_local_entry(gq_ls, slot) : -1;")
		acc = func(j int, w string) string {
			return fmt.Sprintf("(le >= 0 ? &l%d_%s[le] : &a%d_%s[slot])", j, w, j, w)
		}
	}
	for j, op := range ops {
		has := "live"
		if v := argVals[j]; op.Fn != "count_star" {
			has = fmt.Sprintf("live && !%s", v.null)
		}
		w("{ // %s", opString(op))
		w("\tbool has = %s;", has)
		w("\tu32 c = __popc(__ballot_sync(GQ_FULL_MASK, has) & peers);")
		v := argVals[j]
		switch {
		case op.Fn == "count" || op.Fn == "count_star":
			w("\tif (leader) atomicAdd(%s, (u64)c);", acc(j, "c"))
		case op.Fn == "sum" && k.ArgTypes[j].ID() == arrow.FLOAT64:
			w("\tdouble x = has ? (double)%s : 0.0, s = 0.0;", v.val)
			w("\tif (uni) s = gq_warp_sum_f64(x);")
			w("\telse for (int l = 0; l < 32; l++) { double y = __shfl_sync(GQ_FULL_MASK, x, l); if ((peers >> l) & 1u) s += y; }")
			w("\tif (leader) { atomicAdd(%s, (u64)c); atomicAdd(%s, s); }", acc(j, "c"), acc(j, "x"))
		case op.Fn == "sum" && isWide(k.ArgTypes[j]):
			// The 128-bit adder of the 64-bit sums below, over values
			// of two words; one past the headroom fails the batch
			// (aggWideBig) before the sum could wrap.
			w("\tgq_i128 x = has ? %s : gq_i128(0); u64 lo = 0; i64 hi = 0;", v.val)
			w("\tif (has && (x.hi < -%d || x.hi >= %d)) atomicCAS(err, 0u, 0x%xu);", int64(1)<<aggWideHeadroomBits, int64(1)<<aggWideHeadroomBits, aggWideBig)
			w("\tif (uni) { lo = x.lo; hi = x.hi; gq_warp_sum128(&lo, &hi); }")
			w("\telse for (int l = 0; l < 32; l++) { u64 yl = __shfl_sync(GQ_FULL_MASK, x.lo, l); i64 yh = __shfl_sync(GQ_FULL_MASK, x.hi, l); if ((peers >> l) & 1u) { u64 t = lo + yl; hi += yh + (t < lo ? 1 : 0); lo = t; } }")
			w("\tif (leader) { atomicAdd(%s, (u64)c); u64 old = atomicAdd(%s, lo); hi += (old + lo < old) ? 1 : 0; if (hi != 0) atomicAdd((u64*)%s, (u64)hi); }", acc(j, "c"), acc(j, "x"), acc(j, "h"))
		case op.Fn == "sum":
			w("\ti64 x = has ? (i64)%s : 0; u64 lo = 0; i64 hi = 0;", v.val)
			w("\tif (uni) { lo = (u64)x; hi = x < 0 ? -1 : 0; gq_warp_sum128(&lo, &hi); }")
			w("\telse for (int l = 0; l < 32; l++) { i64 y = __shfl_sync(GQ_FULL_MASK, x, l); if ((peers >> l) & 1u) { u64 t = lo + (u64)y; hi += (y < 0 ? -1 : 0) + (t < lo ? 1 : 0); lo = t; } }")
			w("\tif (leader) { atomicAdd(%s, (u64)c); u64 old = atomicAdd(%s, lo); hi += (old + lo < old) ? 1 : 0; if (hi != 0) atomicAdd((u64*)%s, (u64)hi); }", acc(j, "c"), acc(j, "x"), acc(j, "h"))
		default: // min, max (gq_warp_min/max and gq_atomic_min/max are overloaded)
			ct, id := "i64", fmt.Sprintf("(i64)0x%016xULL", minMaxIdentity(op.Fn, k.ArgTypes[j]))
			if k.ArgTypes[j].ID() == arrow.FLOAT64 {
				ct, id = "double", fmt.Sprintf("__longlong_as_double((i64)0x%016xULL)", minMaxIdentity(op.Fn, k.ArgTypes[j]))
			}
			better := map[string]string{"min": "gq_less(y, m)", "max": "gq_less(m, y)"}[op.Fn]
			w("\t%s x = has ? (%s)%s : %s, m = %s;", ct, ct, v.val, id, id)
			w("\tif (uni) m = gq_warp_%s(x);", op.Fn)
			w("\telse for (int l = 0; l < 32; l++) { %s y = __shfl_sync(GQ_FULL_MASK, x, l); if (((peers >> l) & 1u) && %s) m = y; }", ct, better)
			w("\tif (leader && c) { atomicAdd(%s, (u64)c); gq_atomic_%s(%s, m); }", acc(j, "c"), op.Fn, acc(j, "x"))
		}
		w("}")
	}
	var notes []string
	for i, e := range keys {
		notes = append(notes, fmt.Sprintf("key%d = %s", i, e))
	}
	for j, op := range ops {
		notes = append(notes, fmt.Sprintf("a%d = %s", j, opString(op)))
	}
	if pred != nil {
		notes = append(notes, fmt.Sprintf("where %s", pred))
	}
	g.pre = "\t__shared__ u32 gq_new; // groups the block claimed\n\tif (threadIdx.x == 0) gq_new = 0;\n\t__syncthreads();\n"
	g.post = "\t__syncthreads();\n\tif (threadIdx.x == 0 && gq_new) atomicAdd(ngroups, gq_new);\n"
	if k.Local {
		pre, post := localAccumulators(ops, k.ArgTypes)
		g.pre, g.post = g.pre+pre, post+g.post
	}
	k.Name, k.Source = g.kernel("gq_agg_", "GenerateAgg", notes, params, b.String())
	if err := sourceTooLarge(k.Source); err != nil {
		return nil, err
	}
	return k, nil
}

// aggWideBig is the error code of a DECIMAL(38) value that a device sum
// does not take: one of magnitude 2^(64+aggWideHeadroomBits) or more.
// Below it, the sum of up to 2^38 values (far more rows than a device
// table holds) stays within 128 bits, so the device's sum never wraps;
// past it the aggregation is left to the CPU (Add: errs.Unsupported).
const (
	aggWideBig          = 0xfffffffd
	aggWideHeadroomBits = 24
)

// aggLocalMaxOps is the most aggregates a kernel accumulates per block
// (AggTable.Local): each takes up to 24 bytes of shared memory per entry
// of the block's table (GQ_AGG_LOCAL entries) — declared whether a launch
// uses them or not, so at most 16 (25 KiB a block) leave room for the 8
// blocks of 256 threads that fill a multiprocessor (228 KiB on an H100).
const aggLocalMaxOps = 16

// localAccumulators is the code of a kernel's block-local accumulation:
// before its rows (pre), the block's table of groups and its accumulators
// in shared memory, emptied when the launch asks for them (local); after
// its rows (post), each entry's accumulators added to its group's slot.
// A group of few rows per block (or a block whose table is full) adds to
// its slot directly, as without local.
func localAccumulators(ops []AggOp, argTypes []arrow.DataType) (pre, post string) {
	var decl, init, flush strings.Builder
	decl.WriteString("\t__shared__ u32 gq_ls[GQ_AGG_LOCAL];\n")
	init.WriteString("\t\t\tgq_ls[e] = 0xffffffffu;\n")
	for j, op := range ops {
		fmt.Fprintf(&decl, "\t__shared__ u64 l%d_c[GQ_AGG_LOCAL];\n", j)
		fmt.Fprintf(&init, "\t\t\tl%d_c[e] = 0;\n", j)
		t := argTypes[j]
		switch {
		case op.Fn == "count" || op.Fn == "count_star":
			fmt.Fprintf(&flush, "\t\t\tif (l%d_c[e]) atomicAdd(&a%d_c[s], l%d_c[e]);\n", j, j, j)
		case op.Fn == "sum" && t.ID() == arrow.FLOAT64:
			fmt.Fprintf(&decl, "\t__shared__ double l%d_x[GQ_AGG_LOCAL];\n", j)
			fmt.Fprintf(&init, "\t\t\tl%d_x[e] = 0.0;\n", j)
			fmt.Fprintf(&flush, "\t\t\tif (l%d_c[e]) { atomicAdd(&a%d_c[s], l%d_c[e]); atomicAdd(&a%d_x[s], l%d_x[e]); }\n", j, j, j, j, j)
		case op.Fn == "sum":
			fmt.Fprintf(&decl, "\t__shared__ u64 l%d_x[GQ_AGG_LOCAL];\n\t__shared__ i64 l%d_h[GQ_AGG_LOCAL];\n", j, j)
			fmt.Fprintf(&init, "\t\t\tl%d_x[e] = 0; l%d_h[e] = 0;\n", j, j)
			fmt.Fprintf(&flush, "\t\t\tif (l%d_c[e]) { atomicAdd(&a%d_c[s], l%d_c[e]); u64 lo = l%d_x[e]; i64 hi = l%d_h[e]; u64 old = atomicAdd(&a%d_x[s], lo); hi += (old + lo < old) ? 1 : 0; if (hi != 0) atomicAdd((u64*)&a%d_h[s], (u64)hi); }\n", j, j, j, j, j, j, j)
		default: // min, max
			ct, id := "long long", fmt.Sprintf("(i64)0x%016xULL", minMaxIdentity(op.Fn, t))
			if t.ID() == arrow.FLOAT64 {
				ct, id = "double", fmt.Sprintf("__longlong_as_double((i64)0x%016xULL)", minMaxIdentity(op.Fn, t))
			}
			fmt.Fprintf(&decl, "\t__shared__ %s l%d_x[GQ_AGG_LOCAL];\n", ct, j)
			fmt.Fprintf(&init, "\t\t\tl%d_x[e] = %s;\n", j, id)
			fmt.Fprintf(&flush, "\t\t\tif (l%d_c[e]) { atomicAdd(&a%d_c[s], l%d_c[e]); gq_atomic_%s(&a%d_x[s], l%d_x[e]); }\n", j, j, j, op.Fn, j, j)
		}
	}
	pre = decl.String() + "\tif (local) {\n\t\tfor (int e = threadIdx.x; e < GQ_AGG_LOCAL; e += blockDim.x) {\n" + init.String() + "\t\t}\n\t\t__syncthreads();\n\t}\n"
	post = "\tif (local) {\n\t\t__syncthreads();\n\t\tfor (int e = threadIdx.x; e < GQ_AGG_LOCAL; e += blockDim.x) {\n\t\t\tu32 s = gq_ls[e];\n\t\t\tif (s == 0xffffffffu) continue;\n" + flush.String() + "\t\t}\n\t}\n"
	return pre, post
}

// sumOverflowCode is the error code the having kernel writes for a group
// whose integer or decimal sum does not fit in 64 bits (Result:
// ErrSumOverflow), as reading the group back would find.
const sumOverflowCode = 0xfffffffe

// ErrSumOverflow is AggTable.Result's error for a group whose sum of
// integers or decimals does not fit in 64 bits, found on the device by the
// having kernel (without one, the caller finds it in the high words).
var ErrSumOverflow = errs.New(errs.Execution, "sum overflows 64 bits")

// WithHaving returns k with a kernel that marks the table's groups where
// having holds, so that Result reads back only those (a HAVING clause
// keeping few of many groups: TPC-H q18's sum(l_quantity) > 300 keeps 624
// of 15 million orders at SF10). having's columns are the aggregation's
// output — the keys, then one value per op — whose types are out: each
// must be the type whose image the table holds (a key's own type; count:
// BIGINT; sum, min and max: their argument's type; a sum of 64-bit
// integers or decimals also as the DECIMAL(38) of its two words). String
// keys, and
// what the expression generator lacks, are an errs.Unsupported error.
//
// A group whose integer sum overflowed fails Result whether it is kept or
// not, as reading every group back would.
func (k *AggKernel) WithHaving(having expr.Expr, out, params []arrow.DataType) (*AggKernel, error) {
	for _, t := range params {
		if !paramType(t) {
			return nil, unsupported(fmt.Sprintf("a HAVING parameter of type %s", t))
		}
	}
	h := *k
	h.Having, h.out, h.Params = having, out, params
	return &h, h.generateGroups()
}

// loadParam loads parameter j (AggKernel.Params), read by the groups
// kernel as column c of its predicate: its value's bits and NULL flag are
// kernel arguments.
func (k *AggKernel) loadParam(g *gen, j int, c *expr.Column) (value, error) {
	t := k.Params[j]
	if !arrow.TypeEqual(t, c.Type) {
		return value{}, errs.New(errs.Internal, "arrowgpu: parameter %d of type %s read as %s", j, t, c.Type)
	}
	ct, err := ctype(t)
	if err != nil {
		return value{}, err
	}
	src := fmt.Sprintf("(%s)hp%d", ct, j)
	switch {
	case t.ID() == arrow.FLOAT64:
		src = fmt.Sprintf("__longlong_as_double(hp%d)", j)
	case isWide(t):
		src = fmt.Sprintf("gq_i128((u64)hp%d, hp%d_hi)", j, j)
	}
	v := value{val: fmt.Sprintf("hp%d_v", j), null: fmt.Sprintf("hp%d_n", j), t: t}
	fmt.Fprintf(&g.loads, "\t\t%s %s = %s; bool %s = !in || hp%d_null != 0;\n", ct, v.val, src, v.null, j)
	return v, nil
}

// OrderKey is a column of an order: a top-N's, whose groups or rows the
// device reads back (WithTopN, TopRows), or a sort's (SortPerm): Col,
// ascending or descending, NULLs first or last.
type OrderKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// WithTopN returns k with a kernel that gives each group an order key of
// output column top.Col (out as for WithHaving: an integer, decimal, date
// or double), so that Result can read back only the groups a top-N by it
// may keep (TPC-H q03's ten orders of most revenue out of a million at
// SF10): those at least as good as the N-th best — a NULL value is the
// best or the worst key as the order says — and those whose value is NaN,
// which the sort places.
func (k *AggKernel) WithTopN(top OrderKey, out []arrow.DataType) (*AggKernel, error) {
	col := top.Col
	if col < 0 || col >= len(out) {
		return nil, errs.New(errs.Internal, "arrowgpu: top-N by column %d of %d", col, len(out))
	}
	switch out[col].ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DATE32, arrow.FLOAT64:
	default:
		return nil, unsupported(fmt.Sprintf("top-N by %s", out[col]))
	}
	h := *k
	h.Top, h.out = &top, out
	return &h, h.generateGroups()
}

// generateGroups generates the groups kernel of k's Having and Top: over
// every slot of the table it writes mask (a ready group where Having
// holds), fails on a sum that overflowed, and for Top writes each
// group's order key okey (greater is better) and the bitmap cand of the
// groups that compete for the top N (the others in mask are kept).
func (k *AggKernel) generateGroups() error {
	nk := len(k.Keys)
	out := k.out
	if len(out) != nk+len(k.Ops) {
		return errs.New(errs.Internal, "arrowgpu: %d output columns of an aggregation of %d", len(out), nk+len(k.Ops))
	}
	readable := make([]bool, len(out))
	for i, t := range out {
		want := arrow.PrimitiveTypes.Int64 // count
		switch {
		case i < nk:
			want = k.Keys[i]
		case k.Ops[i-nk].Fn != "count" && k.Ops[i-nk].Fn != "count_star":
			want = k.ArgTypes[i-nk]
		}
		readable[i] = t.ID() == want.ID() && scale(t) == scale(want) && t.ID() != arrow.INT32 // INT32: a string key's codes
		if i >= nk && wideSum(k.Ops[i-nk], want, t) {
			readable[i] = true
		}
	}
	g := &gen{inputs: map[int]bool{}, indent: 2}
	g.loads.WriteString("\t\tin = in && state[r] == 2u;\n")
	g.load = func(c *expr.Column) (value, error) {
		i := c.Index
		if j := i - len(out); j >= 0 && j < len(k.Params) {
			return k.loadParam(g, j, c)
		}
		if i < 0 || i >= len(out) || !readable[i] || !arrow.TypeEqual(out[i], c.Type) {
			return value{}, unsupported(fmt.Sprintf("a filter or order over %s of type %s", c, c.Type))
		}
		ct, err := ctype(c.Type)
		if err != nil {
			return value{}, err
		}
		v := value{val: fmt.Sprintf("h%d_v", i), null: fmt.Sprintf("h%d_n", i), t: c.Type}
		var src, null string
		switch {
		case i < nk:
			src, null = fmt.Sprintf("key%d[r]", i), fmt.Sprintf("((knull[r] >> %d) & 1ULL)", i)
		case k.Ops[i-nk].Fn == "count" || k.Ops[i-nk].Fn == "count_star":
			src, null = fmt.Sprintf("a%d_c[r]", i-nk), "false"
		case isWide(c.Type): // a sum's two words
			src, null = fmt.Sprintf("gq_i128(a%d_x[r], a%d_h[r])", i-nk, i-nk), fmt.Sprintf("a%d_c[r] == 0", i-nk)
		default:
			src, null = fmt.Sprintf("a%d_x[r]", i-nk), fmt.Sprintf("a%d_c[r] == 0", i-nk)
		}
		if ct == "bool" {
			src = "(" + src + " != 0)"
		}
		fmt.Fprintf(&g.loads, "\t\t%s %s = (%s)%s; bool %s = !in || %s;\n", ct, v.val, ct, src, v.null, null)
		return v, nil
	}
	cond := "in"
	var notes []string
	if k.Having != nil {
		var err error
		if cond, err = g.predicate(k.Having); err != nil {
			return err
		}
		notes = append(notes, "mask: groups where "+k.Having.String())
		if len(k.Params) > 0 {
			// hp_all: the parameters are not known (the subquery gave
			// no single row); every group is kept.
			cond = fmt.Sprintf("in && (hp_all != 0 || (%s))", cond)
			notes = append(notes, fmt.Sprintf("columns %d.. of the predicate: parameters hp0.. (AggTable.SetParams)", len(out)))
		}
	}
	params := []string{"const u32* state"}
	for i := range nk {
		params = append(params, fmt.Sprintf("const i64* key%d", i))
	}
	params = append(params, "const u64* knull")
	var tail strings.Builder
	for j, op := range k.Ops {
		params = append(params, accParams(j, op.Fn, k.ArgTypes[j])...)
		if op.Fn == "sum" && k.ArgTypes[j].ID() != arrow.FLOAT64 && !isWide(out[nk+j]) {
			fmt.Fprintf(&tail, "\t\tif (in && a%d_c[r] > 0 && a%d_h[r] != ((i64)a%d_x[r] >> 63)) *err = 0x%xu;\n", j, j, j, sumOverflowCode)
		}
	}
	params = append(params, "u32* mask")
	fmt.Fprintf(&tail, "\t\tbool keep = %s;\n\t\tgq_put_bits(mask, i, keep);\n", cond)
	if k.Top != nil {
		col := k.Top.Col
		v, err := g.column(&expr.Column{Index: col, Type: out[col]})
		if err != nil {
			return err
		}
		params = append(params, "u64* okey", "u32* cand")
		// The order key: the value's bits made unsigned-comparable
		// (sign bit flipped; a negative double's bits all flipped), then
		// flipped for an ascending order.
		enc := fmt.Sprintf("(u64)(i64)%s ^ 0x8000000000000000ULL", v.val)
		if isWide(out[col]) {
			enc = fmt.Sprintf("(u64)gq_i128_clamp(%s) ^ 0x8000000000000000ULL", v.val)
		}
		isNaN := "false"
		if out[col].ID() == arrow.FLOAT64 {
			enc = fmt.Sprintf("gq_double_order(%s)", v.val)
			isNaN = fmt.Sprintf("isnan(%s)", v.val)
		}
		if !k.Top.Desc {
			enc = "~(" + enc + ")"
		}
		null := "0ULL" // NULLs last: the least key
		if k.Top.NullsFirst {
			null = "~0ULL"
		}
		fmt.Fprintf(&tail, "\t\tbool c = keep && (%s || !%s);\n\t\tif (in) okey[r] = !c ? 0 : %s ? %s : %s;\n\t\tgq_put_bits(cand, i, c);\n", v.null, isNaN, v.null, null, enc)
		dir := "ascending"
		if k.Top.Desc {
			dir = "descending"
		}
		if k.Top.NullsFirst {
			dir += ", NULLs first"
		}
		notes = append(notes, fmt.Sprintf("okey: order key of output column %d, %s", col, dir))
	}
	params = append(params, "u32* err")
	if len(k.Params) > 0 {
		for j, t := range k.Params {
			params = append(params, fmt.Sprintf("i64 hp%d", j))
			if isWide(t) {
				params = append(params, fmt.Sprintf("i64 hp%d_hi", j))
			}
			params = append(params, fmt.Sprintf("i64 hp%d_null", j))
		}
		params = append(params, "i64 hp_all")
	}
	params = append(params, "i64 n")
	k.GroupsSites = g.sites
	k.GroupsName, k.groupsSrc = g.kernel("gq_groups_", "AggKernel.generateGroups", notes, params, tail.String())
	return sourceTooLarge(k.groupsSrc)
}

// wideSum reports whether output t of op, whose argument is of type
// img, is a DECIMAL(38) sum of integers or decimals at img's scale: the
// table's two words are its value.
func wideSum(op AggOp, img, t arrow.DataType) bool {
	return op.Fn == "sum" && isWide(t) && isScaled(img) && scale(t) == scale(img)
}

// accParams are the accumulator parameters of op j.
func accParams(j int, fn string, t arrow.DataType) []string {
	c := fmt.Sprintf("u64* a%d_c", j)
	switch {
	case fn == "count" || fn == "count_star":
		return []string{c}
	case t.ID() == arrow.FLOAT64:
		return []string{c, fmt.Sprintf("double* a%d_x", j)}
	case fn == "sum":
		return []string{c, fmt.Sprintf("u64* a%d_x", j), fmt.Sprintf("i64* a%d_h", j)}
	}
	return []string{c, fmt.Sprintf("long long* a%d_x", j)}
}

func opString(op AggOp) string {
	if op.Arg == nil {
		return op.Fn + "(*)"
	}
	return fmt.Sprintf("%s(%s)", op.Fn, op.Arg)
}

// fullSource is the compilable program: the shared headers and the kernel.
func (k *AggKernel) fullSource() string {
	fh, _ := kernelFS.ReadFile("kernels/fused.cuh")
	ah, _ := kernelFS.ReadFile("kernels/agg.cuh")
	src := commonHeader() + "\n" + string(fh) + "\n" + string(ah) + "\n" + k.Source
	if k.groupsSrc != "" {
		src += "\n" + k.groupsSrc
	}
	return src
}
