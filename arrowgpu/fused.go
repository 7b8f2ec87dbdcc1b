package arrowgpu

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"gq/errs"
	"gq/expr"
)

// Fused is the CUDA source of one kernel that evaluates a list of
// expressions (and optionally a filter predicate) over a batch in one pass:
// every intermediate stays in registers, which is the point of fusing.
//
// Kernel parameters, in order: for each of Inputs, the column's data and
// validity pointers; for each output, its data and validity (u32 bitmap)
// pointers; the mask pointer (u32 bitmap) when there is a predicate; then
// `u32* err` (0, or the 1-based index into Sites of a failing operation)
// and `i64 n` (rows).
type Fused struct {
	Name    string
	Source  string
	Inputs  []int            // batch column indices read, ascending
	InTypes []arrow.DataType // their types, as the expressions expect
	Outputs []arrow.DataType // types of the expression outputs
	Mask    bool             // a predicate is written as a mask (NULL → false)
	Sites   []string         // expressions that can fail, for error messages
}

// GenerateFused generates the kernel for exprs and, when pred is not nil,
// a filter mask. Types and functions the generator does not handle
// (strings, LIKE, several string and float functions) give errs.Unsupported
// naming them, so the caller can run the node on the CPU instead.
func GenerateFused(exprs []expr.Expr, pred expr.Expr) (*Fused, error) {
	key, ok := exprsKey("fused", exprs, pred)
	if !ok {
		return generateFused(exprs, pred)
	}
	if f, ok := fusedMemo.get(key); ok {
		return f, nil
	}
	f, err := generateFused(exprs, pred)
	if err != nil {
		return nil, err // not kept: its message may name this query's columns
	}
	fusedMemo.put(key, f)
	return f, nil
}

var fusedMemo = newMemo[*Fused]()

func generateFused(exprs []expr.Expr, pred expr.Expr) (*Fused, error) {
	g := &gen{inputs: map[int]bool{}}
	g.indent = 2
	f := &Fused{Mask: pred != nil}
	var stores []string
	for k, e := range exprs {
		t := e.DataType()
		if _, err := ctype(t); err != nil {
			return nil, err
		}
		v, err := g.expr(e)
		if err != nil {
			return nil, err
		}
		f.Outputs = append(f.Outputs, t)
		if t.ID() == arrow.BOOL {
			stores = append(stores, fmt.Sprintf("gq_put_bits(out%d, i, in && !%s && %s);", k, v.null, v.val))
		} else {
			stores = append(stores, fmt.Sprintf("if (in) out%d[i] = %s;", k, v.val))
		}
		stores = append(stores, fmt.Sprintf("gq_put_bits(outv%d, i, in && !%s);", k, v.null))
	}
	if pred != nil {
		cond, err := g.predicate(pred)
		if err != nil {
			return nil, err
		}
		stores = append(stores, fmt.Sprintf("gq_put_bits(mask, i, %s);", cond))
	}
	f.Inputs, f.InTypes = g.inputList()
	f.Sites = g.sites

	params := g.inputParams(f.Inputs)
	for k, t := range f.Outputs {
		ct, _ := ctype(t)
		if ct == "bool" {
			ct = "u32"
		}
		params = append(params, fmt.Sprintf("%s* __restrict__ out%d", ct, k), fmt.Sprintf("u32* __restrict__ outv%d", k))
	}
	if f.Mask {
		params = append(params, "u32* __restrict__ mask")
	}
	params = append(params, "u32* err", "i64 n")

	var tail strings.Builder
	for _, s := range stores {
		tail.WriteString("\t\t" + s + "\n")
	}
	var notes []string
	for k, e := range exprs {
		notes = append(notes, fmt.Sprintf("out%d = %s", k, e))
	}
	if pred != nil {
		notes = append(notes, fmt.Sprintf("mask = %s", pred))
	}
	f.Name, f.Source = g.kernel("gq_fused_", "GenerateFused", notes, params, tail.String())
	if err := sourceTooLarge(f.Source); err != nil {
		return nil, err
	}
	return f, nil
}

// maxKernelSource bounds a generated kernel's source: compiling grows
// faster than the source (100,000 IN values made 15 MB and minutes in the
// compiler, which a query's cancellation does not stop), so expressions
// past it are left to the CPU. TPC-H's largest kernel is 13 KiB.
const maxKernelSource = 256 << 10

// sourceTooLarge is an errs.Unsupported error for a kernel's source past
// maxKernelSource, else nil.
func sourceTooLarge(src string) error {
	if len(src) > maxKernelSource {
		return unsupported(fmt.Sprintf("an expression of %d KiB of kernel source (at most %d KiB)", len(src)>>10, maxKernelSource>>10))
	}
	return nil
}

// predicate generates pred and returns the C condition that a row is in
// range and pred is true (NULL counts as false).
func (g *gen) predicate(pred expr.Expr) (string, error) {
	if pred.DataType().ID() != arrow.BOOL {
		return "", errs.New(errs.Internal, "arrowgpu: predicate of type %s", pred.DataType())
	}
	v, err := g.expr(pred)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("in && !%s && %s", v.null, v.val), nil
}

// kernel assembles a generated kernel: a loop over the rows, warp by warp,
// that loads the inputs, runs the generated body and then tail; named
// prefix + a hash of its signature and body, after comment lines notes
// saying what it computes (generator names the Go function).
func (g *gen) kernel(prefix, generator string, notes, params []string, tail string) (name, src string) {
	var body strings.Builder
	body.WriteString(g.pre)
	body.WriteString("\tGQ_FOR_WARP(i, n) {\n\t\tbool in = i < n;\n\t\ti64 r = in ? i : 0;\n")
	body.WriteString(g.loads.String())
	body.WriteString(g.body.String())
	body.WriteString(tail)
	body.WriteString("\t}\n")
	body.WriteString(g.post)
	sig := strings.Join(params, ",\n\t\t")
	sum := sha256.Sum256([]byte(sig + body.String()))
	name = prefix + hex.EncodeToString(sum[:6])
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by gq/arrowgpu.%s.\n", generator)
	for _, n := range notes {
		b.WriteString("// " + n + "\n")
	}
	fmt.Fprintf(&b, "extern \"C\" __global__ void %s(\n\t\t%s) {\n%s}\n", name, sig, body.String())
	return name, b.String()
}

// fullSource is the compilable program: the shared headers and the kernel.
func (f *Fused) fullSource() string {
	fh, _ := kernelFS.ReadFile("kernels/fused.cuh")
	return commonHeader() + "\n" + string(fh) + "\n" + f.Source
}

// ctype is the C type holding values of t.
func ctype(t arrow.DataType) (string, error) {
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL64, arrow.NULL:
		return "i64", nil
	case arrow.DECIMAL128:
		return "gq_i128", nil
	case arrow.FLOAT64:
		return "double", nil
	case arrow.DATE32, arrow.INT32: // INT32: dictionary codes (group keys)
		return "i32", nil
	case arrow.BOOL:
		return "bool", nil
	}
	return "", errs.New(errs.Unsupported, "GPU expressions over %s", t)
}

// value is a generated (value, is-null) pair of C expressions (usually
// variable names) and the type of the value.
type value struct {
	val, null string
	t         arrow.DataType
	// Strings: val is the bytes' pointer and n their length (a column's
	// row); a literal string has lit set instead (strings are compared
	// with constants only).
	n   string
	lit []byte
}

// gen accumulates the kernel body.
type gen struct {
	loads      strings.Builder // column loads, hoisted so that each is read once
	loaded     map[int]value
	body       strings.Builder
	indent     int
	n          int
	inputs     map[int]bool
	inputTypes map[int]arrow.DataType
	sites      []string
	// load, when set, loads column c instead of a batch input: it writes
	// the load to loads and returns the value (AggKernel.WithHaving reads
	// an aggregation table's slots).
	load func(c *expr.Column) (value, error)
	// pre and post are code before and after the loop over the rows (a
	// block's shared state: GenerateAgg's local accumulators).
	pre, post string
}

// inputList is the batch columns the generated code reads, ascending, and
// their types.
func (g *gen) inputList() (cols []int, types []arrow.DataType) {
	for c := range g.inputs {
		cols = append(cols, c)
	}
	slices.Sort(cols)
	for _, c := range cols {
		types = append(types, g.inputTypes[c])
	}
	return cols, types
}

// inputParams are the kernel parameters of input columns cols: data and
// validity pointers of each (strings: bytes, offsets and validity).
func (g *gen) inputParams(cols []int) []string {
	var params []string
	for _, c := range cols {
		if g.inputTypes[c].ID() == arrow.STRING {
			params = append(params, fmt.Sprintf("const u8* __restrict__ c%d", c), fmt.Sprintf("const i32* __restrict__ co%d", c), fmt.Sprintf("const u8* __restrict__ cv%d", c))
			continue
		}
		t, _ := ctype(g.inputTypes[c])
		if t == "bool" {
			t = "u8"
		}
		params = append(params, fmt.Sprintf("const %s* __restrict__ c%d", t, c), fmt.Sprintf("const u8* __restrict__ cv%d", c))
	}
	return params
}

func (g *gen) line(format string, args ...any) {
	g.body.WriteString(strings.Repeat("\t", g.indent))
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteByte('\n')
}

// tmp declares a fresh value of type t (zero, NULL) and returns it.
func (g *gen) tmp(t arrow.DataType) (value, error) {
	ct, err := ctype(t)
	if err != nil {
		return value{}, err
	}
	g.n++
	v := value{val: fmt.Sprintf("t%d", g.n), null: fmt.Sprintf("t%d_n", g.n), t: t}
	g.line("%s %s = 0; bool %s = true;", ct, v.val, v.null)
	return v, nil
}

// site registers an operation that can fail and returns its error code.
func (g *gen) site(e expr.Expr) int {
	g.sites = append(g.sites, expr.Abbreviate(e, 300))
	return len(g.sites)
}

func unsupported(what string) error {
	return errs.New(errs.Unsupported, "GPU expressions: %s", what)
}

func scale(t arrow.DataType) int {
	if d, ok := t.(arrow.DecimalType); ok {
		return int(d.GetScale())
	}
	return 0
}

func (g *gen) expr(e expr.Expr) (value, error) {
	switch x := e.(type) {
	case *expr.Column:
		return g.column(x)
	case *expr.Literal:
		return literal(x)
	case *expr.Call:
		return g.call(x)
	}
	return value{}, unsupported(fmt.Sprintf("expression %T", e))
}

func (g *gen) column(c *expr.Column) (value, error) {
	ct, err := ctype(c.Type)
	if c.Type.ID() == arrow.STRING {
		ct, err = "str", nil
	}
	if err != nil || c.Type.ID() == arrow.NULL {
		return value{}, unsupported(fmt.Sprintf("column %s of type %s", c, c.Type))
	}
	if g.inputTypes == nil {
		g.inputTypes = map[int]arrow.DataType{}
	}
	if t, ok := g.inputTypes[c.Index]; ok && !arrow.TypeEqual(t, c.Type) {
		return value{}, errs.New(errs.Internal, "arrowgpu: column %d used as %s and %s", c.Index, t, c.Type)
	}
	if v, ok := g.loaded[c.Index]; ok {
		return v, nil
	}
	if g.loaded == nil {
		g.loaded = map[int]value{}
	}
	if g.load != nil {
		v, err := g.load(c)
		if err == nil {
			g.loaded[c.Index] = v
		}
		return v, err
	}
	g.inputs[c.Index], g.inputTypes[c.Index] = true, c.Type
	v := value{val: fmt.Sprintf("c%d_v", c.Index), null: fmt.Sprintf("c%d_n", c.Index), t: c.Type}
	g.loaded[c.Index] = v
	switch ct {
	case "str":
		v.n = fmt.Sprintf("c%d_len", c.Index)
		fmt.Fprintf(&g.loads, "\t\tconst u8* %s = c%d + co%d[r]; i32 %s = co%d[r + 1] - co%d[r]; bool %s = !gq_bit(cv%d, r);\n",
			v.val, c.Index, c.Index, v.n, c.Index, c.Index, v.null, c.Index)
		g.loaded[c.Index] = v
	case "bool":
		fmt.Fprintf(&g.loads, "\t\tbool %s = gq_bit(c%d, r); bool %s = !gq_bit(cv%d, r);\n", v.val, c.Index, v.null, c.Index)
	default:
		fmt.Fprintf(&g.loads, "\t\t%s %s = c%d[r]; bool %s = !gq_bit(cv%d, r);\n", ct, v.val, c.Index, v.null, c.Index)
	}
	return v, nil
}

// literal renders a constant inline.
func literal(l *expr.Literal) (value, error) {
	if l.Value == nil {
		t := l.Type
		if t.ID() == arrow.NULL || t.ID() == arrow.STRING {
			t = arrow.PrimitiveTypes.Int64
		}
		if _, err := ctype(t); err != nil {
			return value{}, err
		}
		return value{val: "0", null: "true", t: l.Type}, nil
	}
	v := value{null: "false", t: l.Type}
	switch x := l.Value.(type) {
	case string:
		if l.Type.ID() != arrow.STRING {
			return value{}, unsupported(fmt.Sprintf("literal %s of type %s", l, l.Type))
		}
		v.lit = []byte(x)
	case bool:
		v.val = "false"
		if x {
			v.val = "true"
		}
	case int64:
		v.val = i64lit(x)
	case decimal128.Num:
		if l.Type.ID() != arrow.DECIMAL128 {
			return value{}, unsupported(fmt.Sprintf("literal %s of type %s", l, l.Type))
		}
		v.val = i128lit(x)
	case int32:
		v.val = fmt.Sprintf("((i32)%d)", x)
	case float64:
		v.val = fmt.Sprintf("__longlong_as_double(0x%016xLL)", math.Float64bits(x))
		if math.Float64bits(x)>>63 != 0 {
			v.val = fmt.Sprintf("__longlong_as_double((i64)0x%016xULL)", math.Float64bits(x))
		}
	default:
		return value{}, unsupported(fmt.Sprintf("literal %s of type %s", l, l.Type))
	}
	return v, nil
}

// i128lit is a DECIMAL(38) constant's C expression.
func i128lit(x decimal128.Num) string {
	return fmt.Sprintf("gq_i128(0x%016xULL, (i64)0x%016xULL)", x.LowBits(), uint64(x.HighBits()))
}

func i64lit(x int64) string {
	if x == math.MinInt64 {
		return "(-9223372036854775807LL - 1)"
	}
	return fmt.Sprintf("%dLL", x)
}
