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
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// The generated kernel is C++ that g++ can also compile: with the shim's
// one-thread emulation (GQ_HOST_RUN) it runs on the CPU, so the
// generator's semantics are checked against the CPU evaluator without a
// GPU. What this cannot check (warp ballots, real parallelism, NVRTC's
// dialect) the GPU tests do.

// hostFileIO is the C the host harnesses read inputs and write outputs
// with: whole files in a directory.
const hostFileIO = `
#include <stdio.h>
#include <stdlib.h>
static void* gq_read(const char* dir, const char* name) {
	char p[4096]; snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE* f = fopen(p, "rb"); if (!f) return 0;
	fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
	if (n == 0) { fclose(f); return 0; }
	void* b = malloc(n); if (fread(b, 1, n, f) != (size_t)n) exit(3); fclose(f); return b;
}
static void gq_write(const char* dir, const char* name, const void* b, long n) {
	char p[4096]; snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE* f = fopen(p, "wb"); if (!f || fwrite(b, 1, n, f) != (size_t)n) exit(4); fclose(f);
}
`

// hostHarness returns a main() that reads the kernel's inputs from files
// in a directory, runs it over n rows and writes its outputs there.
func hostHarness(f *Fused) string {
	var b strings.Builder
	b.WriteString(hostFileIO + `
int main(int argc, char** argv) {
	const char* dir = argv[1]; i64 n = atoll(argv[2]); long words = (n + 31) / 32 * 4;
	u32 err = 0;
`)
	var args []string
	for i, c := range f.Inputs {
		b.WriteString(hostInputDecl(c, f.InTypes[i]))
		args = append(args, hostInputArgs(c, f.InTypes[i])...)
	}
	for k, t := range f.Outputs {
		size := "words"
		if w := width(t); w > 0 {
			size = fmt.Sprintf("n * %d", w)
		}
		fmt.Fprintf(&b, "\tlong s%d = %s; void* out%d = calloc(1, s%d + 4); u32* outv%d = (u32*)calloc(1, words + 4);\n", k, size, k, k, k)
		args = append(args, fmt.Sprintf("(decltype(&*(%s)0))out%d", outputPtrType(t), k), fmt.Sprintf("outv%d", k))
	}
	if f.Mask {
		b.WriteString("\tu32* mask = (u32*)calloc(1, words + 4);\n")
		args = append(args, "mask")
	}
	args = append(args, "&err", "n")
	fmt.Fprintf(&b, "\t%s(%s);\n", f.Name, strings.Join(args, ", "))
	for k := range f.Outputs {
		fmt.Fprintf(&b, "\tgq_write(dir, \"out%d\", out%d, s%d); gq_write(dir, \"outv%d\", outv%d, words);\n", k, k, k, k, k)
	}
	if f.Mask {
		b.WriteString("\tgq_write(dir, \"mask\", mask, words);\n")
	}
	b.WriteString("\tgq_write(dir, \"err\", &err, 4);\n\treturn 0;\n}\n")
	return b.String()
}

// hostInputDecl reads input column c (of type t) in a harness: cN, and
// coN for strings, and cvN.
func hostInputDecl(c int, t arrow.DataType) string {
	ct, _ := ctype(t)
	switch ct {
	case "bool":
		ct = "u8"
	case "":
		ct = "u8" // strings: the bytes
	}
	d := fmt.Sprintf("\tconst %s* c%d = (const %s*)gq_read(dir, \"c%d\"); const u8* cv%d = (const u8*)gq_read(dir, \"cv%d\");\n", ct, c, ct, c, c, c)
	if t.ID() == arrow.STRING {
		d += fmt.Sprintf("\tconst i32* co%d = (const i32*)gq_read(dir, \"co%d\");\n", c, c)
	}
	return d
}

// hostInputArgs are input column c's kernel arguments in a harness.
func hostInputArgs(c int, t arrow.DataType) []string {
	if t.ID() == arrow.STRING {
		return []string{fmt.Sprintf("c%d", c), fmt.Sprintf("co%d", c), fmt.Sprintf("cv%d", c)}
	}
	return []string{fmt.Sprintf("c%d", c), fmt.Sprintf("cv%d", c)}
}

func outputPtrType(t arrow.DataType) string {
	ct, _ := ctype(t)
	if ct == "bool" {
		ct = "u32"
	}
	return ct + "*"
}

// hostBuild compiles src (a kernel and its harness) with g++ and the CUDA
// shim for one host thread; it returns the run's directory and the binary.
// flags are extra compiler flags. Skips without g++.
func hostBuild(t *testing.T, src string, flags ...string) (dir, bin string) {
	t.Helper()
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not found: generated kernels not run on the host")
	}
	dir = t.TempDir()
	shim := filepath.Join(dir, "cuda_shim.h")
	file := filepath.Join(dir, "kernel.cpp")
	bin = filepath.Join(dir, "kernel")
	if err := os.WriteFile(shim, []byte(cudaShim), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-O1", "-std=c++17", "-DGQ_HOST_RUN"}, flags...)
	if out, err := exec.Command(gxx, append(args, "-include", shim, "-o", bin, file)...).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	return dir, bin
}

// hostInputs writes columns cols of rec to dir as the harness reads them:
// cN (data) and cvN (validity, when there are NULLs), padded to whole words
// as the pool pads device buffers.
func hostInputs(t *testing.T, dir string, cols []int, rec arrow.RecordBatch) {
	t.Helper()
	pad := func(b []byte) []byte { return append(append([]byte(nil), b...), make([]byte, 8)...) }
	for _, c := range cols {
		valid, data, offsets, err := hostParts(rec.Column(c))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%d", c)), pad(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if offsets != nil {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("co%d", c)), offsets, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if valid != nil {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("cv%d", c)), pad(valid), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// runOnHost compiles f with g++ and runs it over rec; it returns the
// output arrays, the mask (nil without a predicate) and the error code.
func runOnHost(t *testing.T, f *Fused, rec arrow.RecordBatch) ([]arrow.Array, []bool, uint32) {
	t.Helper()
	dir, bin := hostBuild(t, f.fullSource()+hostHarness(f))
	hostInputs(t, dir, f.Inputs, rec)
	n := int(rec.NumRows())
	if out, err := exec.Command(bin, dir, fmt.Sprint(n)).CombinedOutput(); err != nil {
		t.Fatalf("host kernel: %v\n%s", err, out)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var outs []arrow.Array
	for k, typ := range f.Outputs {
		valid, data := read(fmt.Sprintf("outv%d", k)), read(fmt.Sprintf("out%d", k))
		d := array.NewData(typ, n, []*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(data)}, nil, array.UnknownNullCount, 0)
		outs = append(outs, array.MakeFromData(d))
		d.Release()
	}
	var mask []bool
	if f.Mask {
		m := read("mask")
		for i := 0; i < n; i++ {
			mask = append(mask, m[i/8]>>(i%8)&1 != 0)
		}
	}
	return outs, mask, binary.LittleEndian.Uint32(read("err"))
}

func TestFusedOnHostMatchesCPU(t *testing.T) {
	rec := testBatch(5003, 11)
	defer rec.Release()
	checkOnHost(t, fusedFixtures(), q6Pred(), rec)
}

// wantCPUResults checks each of outs (releasing it) against the CPU
// evaluator's value of the expression over rec.
func wantCPUResults(t *testing.T, exprs []expr.Expr, rec arrow.RecordBatch, outs []arrow.Array) {
	t.Helper()
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
		wantEqualArrays(t, e.String(), want, outs[k])
		want.Release()
		outs[k].Release()
	}
}

// checkOnHost generates the kernel of exprs and pred (nil: none), runs it
// on the host over rec and checks each output, and the rows pred keeps,
// against the CPU evaluator; it returns the number of rows kept.
func checkOnHost(t *testing.T, exprs []expr.Expr, pred expr.Expr, rec arrow.RecordBatch) int {
	t.Helper()
	f, err := GenerateFused(exprs, pred)
	if err != nil {
		t.Fatal(err)
	}
	outs, mask, code := runOnHost(t, f, rec)
	if code != 0 {
		t.Fatalf("kernel reported error at site %d", code)
	}
	wantCPUResults(t, exprs, rec, outs)
	if pred == nil {
		return 0
	}
	ev, err := expr.Compile(pred)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := ev.EvalFilter(memory.NewGoAllocator(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []int32
	for i, m := range mask {
		if m {
			got = append(got, int32(i))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(sel) {
		t.Errorf("predicate %s: %d rows, CPU %d", pred, len(got), len(sel))
	}
	return len(sel)
}

// Overflow in a present, non-NULL row sets the site's code; the same
// value in a NULL row does not.
func TestFusedOnHostOverflow(t *testing.T) {
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues([]int64{1, -1 << 63, 3}, []bool{true, false, true})
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	x := &expr.Column{Index: 0, Type: expr.Int64, Name: "x"}
	f, err := GenerateFused([]expr.Expr{call("neg", expr.Int64, x)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 3)
	defer rec.Release()
	if _, _, code := runOnHost(t, f, rec); code != 0 {
		t.Errorf("overflow in a NULL row reported (site %d)", code)
	}
	b.AppendValues([]int64{1, -1 << 63}, nil)
	arr2 := b.NewArray()
	defer arr2.Release()
	rec2 := array.NewRecordBatch(schema, []arrow.Array{arr2}, 2)
	defer rec2.Release()
	if _, _, code := runOnHost(t, f, rec2); code != 1 || f.Sites[0] != "neg(x#0)" {
		t.Errorf("overflow: code %d, sites %q", code, f.Sites)
	}
}

// Decimal division through the 128-bit path (products above 2^64, both
// signs, exact halves) agrees with the CPU evaluator.
func TestFusedOnHostDivision(t *testing.T) {
	d := expr.Decimal(18, 2)
	r := rand.New(rand.NewPCG(3, 4))
	ab := array.NewDecimal64Builder(memory.NewGoAllocator(), d.(*arrow.Decimal64Type))
	bb := array.NewDecimal64Builder(memory.NewGoAllocator(), d.(*arrow.Decimal64Type))
	for i := 0; i < 4000; i++ {
		a := r.Int64N(9e17) - 4.5e17
		b := r.Int64N(9e17) + 1e6
		if i%4 == 0 {
			b = r.Int64N(2000) + 1 // small divisors: exact halves, large quotients
			a = a % 1e9
		}
		if r.IntN(2) == 0 {
			b = -b
		}
		ab.Append(decimal.Decimal64(a))
		bb.Append(decimal.Decimal64(b))
	}
	aa, ba := ab.NewArray(), bb.NewArray()
	defer aa.Release()
	defer ba.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: d}, {Name: "b", Type: d}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{aa, ba}, int64(aa.Len()))
	defer rec.Release()
	e := call("div", expr.Decimal(18, 6), &expr.Column{Index: 0, Type: d, Name: "a"}, &expr.Column{Index: 1, Type: d, Name: "b"})
	f, err := GenerateFused([]expr.Expr{e}, nil)
	if err != nil {
		t.Fatal(err)
	}
	outs, _, code := runOnHost(t, f, rec)
	if code != 0 {
		t.Fatalf("kernel reported overflow at site %d", code)
	}
	ev, _ := expr.Compile(e)
	want, err := ev.Eval(memory.NewGoAllocator(), rec)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	wantEqualArrays(t, e.String(), want, outs[0])
	outs[0].Release()
}

// Comparisons across decimal scales are exact where the common scale has
// no value for one side (BIGINT extremes against 1.50): no error, the
// CPU evaluator's answers (testdata/sql/fuzz_found.test found this).
func TestFusedOnHostCompareScales(t *testing.T) {
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues([]int64{math.MaxInt64, -math.MaxInt64, 2, 1, 0, 7}, []bool{true, true, true, true, true, false})
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	x := call("cast", expr.Decimal(18, 0), &expr.Column{Index: 0, Type: expr.Int64, Name: "x"})
	lit := &expr.Literal{Value: int64(150), Type: expr.Decimal(3, 2)}
	var exprs []expr.Expr
	for _, fn := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		exprs = append(exprs, call(fn, expr.Boolean, x, lit), call(fn, expr.Boolean, lit, x))
	}
	checkOnHost(t, exprs, nil, rec)
}

// String predicates against constants — LIKE patterns of every shape the
// generator takes ('%' anywhere, none, escapes), =, <>, IN — agree with
// the CPU evaluator, NULLs included.
func TestFusedOnHostStrings(t *testing.T) {
	rec := testBatch(4001, 13)
	defer rec.Release()
	name := &expr.Column{Index: 8, Type: expr.String, Name: "name"}
	str := func(s string) expr.Expr { return &expr.Literal{Value: s, Type: expr.String} }
	var exprs []expr.Expr
	for _, p := range []string{"%ab%", "a%", "%z", "abc", "%a%b%c%", "q%r", "", "%", "%%", "a%%b", `a\%%`, `%\\%`, "%ab%ab%", "ab%ba"} {
		exprs = append(exprs, call("like", expr.Boolean, name, str(p)), call("not_like", expr.Boolean, name, str(p)))
	}
	exprs = append(exprs,
		call("eq", expr.Boolean, name, str("ab")),
		call("ne", expr.Boolean, str(""), name),
		call("in", expr.Boolean, name, str("a"), str("bc"), str("")),
		call("not_in", expr.Boolean, name, str("q"), &expr.Literal{Type: expr.String}),
		call("is_null", expr.Boolean, name),
	)
	pred := call("or", expr.Boolean, call("like", expr.Boolean, name, str("%e%")), call("eq", expr.Boolean, name, str("x")))
	if kept := checkOnHost(t, exprs, pred, rec); kept == 0 {
		t.Error("the predicate keeps no row: the test checks nothing")
	}
}

// stringsAndNull is a batch of one string column "s": vals, then a NULL.
func stringsAndNull(vals []string) arrow.RecordBatch {
	b := array.NewStringBuilder(memory.NewGoAllocator())
	defer b.Release()
	b.AppendValues(vals, nil)
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// Overlaps and anchors on crafted strings: a segment found must end
// before the next is looked for ("ababa" is not LIKE '%aba%aba%').
func TestFusedOnHostLikeOverlap(t *testing.T) {
	rec := stringsAndNull([]string{"ababa", "abaaba", "aba", "ab", "", "ba", "abcab", "a%b", `a\b`, "bab"})
	defer rec.Release()
	s := &expr.Column{Index: 0, Type: expr.String, Name: "s"}
	var exprs []expr.Expr
	for _, p := range []string{"%aba%aba%", "%ab%ab", "ab%ab", "aba%aba", "%a%", `a\%b`, `a\\b`, "b%b", "%ba"} {
		exprs = append(exprs, call("like", expr.Boolean, s, &expr.Literal{Value: p, Type: expr.String}))
	}
	checkOnHost(t, exprs, nil, rec)
}

// SUBSTRING on the device counts characters as the CPU does — Go's UTF-8
// decoding, an invalid or truncated sequence one character per byte —
// for every start (negative: from the end; 0) and length (none, <= 0,
// beyond the end): each predicate compares it with the values it should
// give, so a row where the device's substring differs is false there and
// true on the CPU.
func TestFusedOnHostSubstring(t *testing.T) {
	vals := []string{"hello", "", "é", "aéb", "日本語テキスト", "\xff\xfeab", "a\xe2\x82", "\xf0\x9f\x98\x80x", "\xed\xa0\x80z", "\xc0\xafq", "CA 13-555"}
	rec := stringsAndNull(vals)
	defer rec.Release()
	s := &expr.Column{Index: 0, Type: expr.String, Name: "s"}
	i64 := func(x int64) expr.Expr { return &expr.Literal{Value: x, Type: expr.Int64} }
	// want is MySQL's SUBSTRING by characters (the literals the
	// predicates compare with; the CPU evaluator judges).
	want := func(v string, start, length int64, hasLen bool) string {
		r := []int{} // byte offset of each character, Go's decoding
		for i := range v {
			r = append(r, i)
		}
		nch := int64(len(r))
		if start == 0 || hasLen && length <= 0 {
			return ""
		}
		if start < 0 {
			if start += nch; start < 0 {
				return ""
			}
		} else {
			start--
		}
		if start >= nch {
			return ""
		}
		end := nch
		if hasLen && length < nch-start {
			end = start + length
		}
		be := len(v)
		if end < nch {
			be = r[end]
		}
		return v[r[start]:be]
	}
	var exprs []expr.Expr
	for start := int64(-8); start <= 8; start += 2 {
		for _, length := range []int64{-1, 0, 1, 2, 5, 100, -100} {
			hasLen := length != -100
			args := []expr.Expr{s, i64(start)}
			if hasLen {
				args = append(args, i64(length))
			}
			sub := call("substring", expr.String, args...)
			in := []expr.Expr{sub}
			for _, v := range vals {
				in = append(in, &expr.Literal{Value: want(v, start, length, hasLen), Type: expr.String})
			}
			exprs = append(exprs, call("in", expr.Boolean, in...))
		}
	}
	// q22's shape, and a LIKE over a substring.
	exprs = append(exprs,
		call("in", expr.Boolean, call("substring", expr.String, s, i64(4), i64(2)), &expr.Literal{Value: "13", Type: expr.String}, &expr.Literal{Value: "31", Type: expr.String}),
		call("like", expr.Boolean, call("substring", expr.String, s, i64(2)), &expr.Literal{Value: "%l%", Type: expr.String}))
	checkOnHost(t, exprs, nil, rec)
}
