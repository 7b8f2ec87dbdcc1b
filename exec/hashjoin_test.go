package exec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// Join test sides: (k int64, s string, v int64, b bool), all nullable.
var joinTypes = []arrow.DataType{expr.Int64, expr.String, expr.Int64, expr.Boolean}

func joinNames(side string) []string {
	return []string{side + "k", side + "s", side + "v", side + "b"}
}

func joinSchema(side string) *arrow.Schema {
	fields := make([]arrow.Field, len(joinTypes))
	for i, t := range joinTypes {
		fields[i] = arrow.Field{Name: joinNames(side)[i], Type: t, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

func joinRandRows(rng *rand.Rand, n, keys int, nulls bool) [][]any {
	strs := []string{"x", "y", ""}
	rows := make([][]any, n)
	maybe := func(v any) any {
		if nulls && rng.IntN(8) == 0 {
			return nil
		}
		return v
	}
	for i := range rows {
		rows[i] = []any{maybe(int64(rng.IntN(keys))), maybe(strs[rng.IntN(len(strs))]), int64(i), maybe(rng.IntN(2) == 0)}
	}
	return rows
}

func joinRender(l, r []any) string {
	var vals []string
	for i, v := range append(append([]any{}, l...), r...) {
		vals = append(vals, fmtVal(v, joinTypes[i%4]))
	}
	return strings.Join(vals, "|")
}

// refJoin is the nested-loop oracle. keys are column indexes compared on
// both sides (NULL never matches; nil keys: every pair); extra uses the
// right side's b column when set.
func refJoin(typ JoinType, left, right [][]any, keys []int, extra int, nullAware bool) ([]string, error) {
	var out []string
	nullPad := []any{nil, nil, nil, nil}
	rightNull := false
	for _, r := range right {
		for _, k := range keys {
			if r[k] == nil {
				rightNull = true
			}
		}
	}
	for _, l := range left {
		matches := 0
		lnull := false
		for _, k := range keys {
			if l[k] == nil {
				lnull = true
			}
		}
		for _, r := range right {
			ok := true
			for _, k := range keys {
				if l[k] == nil || r[k] == nil || l[k] != r[k] {
					ok = false
				}
			}
			if ok && extra == 1 && (r[3] == nil || !r[3].(bool)) {
				ok = false
			}
			if ok && extra == 2 && l[2].(int64)%7 >= r[2].(int64)%7 {
				ok = false
			}
			if !ok {
				continue
			}
			matches++
			if typ == expr.JoinInner || typ == expr.JoinLeft || typ == expr.JoinSingle {
				out = append(out, joinRender(l, r))
			}
		}
		switch typ {
		case expr.JoinLeft, expr.JoinSingle:
			if matches == 0 {
				out = append(out, joinRender(l, nullPad))
			}
			if typ == expr.JoinSingle && matches > 1 {
				return nil, errSingleRow
			}
		case expr.JoinSemi:
			if matches > 0 {
				out = append(out, joinRender(l, nil))
			}
		case expr.JoinAnti:
			if nullAware && len(right) > 0 && (rightNull || lnull) {
				continue
			}
			if matches == 0 {
				out = append(out, joinRender(l, nil))
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

func joinOut(typ JoinType) *arrow.Schema {
	fields := joinSchema("l").Fields()
	if typ != expr.JoinSemi && typ != expr.JoinAnti {
		fields = append(fields, joinSchema("r").Fields()...)
	}
	return arrow.NewSchema(fields, nil)
}

func TestJoinsRandom(t *testing.T) {
	cases := []struct {
		name         string
		nl, nr, keys int
		keyCols      []int
		extra        int // 0 none, 1 right b column, 2 l.v%7 < r.v%7 (evaluator)
		nested       bool
		rightNulls   bool
	}{
		{"int", 2000, 500, 300, []int{0}, 0, false, true},
		{"int extra", 2000, 500, 300, []int{0}, 1, false, true},
		{"int extra expr", 2000, 500, 300, []int{0}, 2, false, true},
		{"composite", 1500, 700, 100, []int{0, 1}, 0, false, true},
		{"composite extra", 1500, 700, 100, []int{0, 1}, 1, false, true},
		{"int pair", 1500, 700, 3, []int{0, 2}, 0, false, true},
		{"int pair extra expr", 1500, 700, 3, []int{0, 2}, 2, false, true},
		{"big right int pair", 60, 70000, 3, []int{0, 2}, 0, false, true},
		{"string", 800, 50, 10, []int{1}, 0, false, true},
		{"empty right", 500, 0, 10, []int{0}, 0, false, true},
		{"empty left", 0, 100, 10, []int{0}, 0, false, true},
		{"no right nulls", 1000, 300, 500, []int{0}, 0, false, false},
		{"unique right", 1000, 300, 100000, []int{0}, 0, false, false},
		{"big right", 60, 70000, 50000, []int{0}, 0, false, true},
		{"big right composite", 60, 70000, 5000, []int{0, 1}, 0, false, true},
		// Unique build keys over 2^16 rows (partitioned tables): the
		// probes take each key's one row without reading a chain.
		{"big unique right", 60, 70000, 100000, []int{0}, 0, false, false},
		{"big unique both", 70000, 400, 200000, []int{0}, 1, false, false},
		// Every row of either side matches one row of the other: the
		// output takes whole probe columns, the build's key from the probe.
		{"one to one", 5000, 5000, 150000, []int{0}, 0, false, false},
		// Left inputs of 2^16 rows and more: a build-left join merges
		// and emits its marks on several goroutines.
		{"big left", 70000, 400, 50000, []int{0}, 0, false, true},
		{"big left extra", 70000, 400, 50000, []int{0}, 1, false, true},
		{"nested cross", 60, 40, 10, nil, 0, true, true},
		{"nested cond", 300, 70, 10, nil, 1, true, true},
		{"nested cond expr", 300, 70, 10, nil, 2, true, true},
	}
	for _, tc := range cases {
		for _, typ := range []JoinType{expr.JoinInner, expr.JoinLeft, expr.JoinSemi, expr.JoinAnti, expr.JoinSingle} {
			for _, nullAware := range []bool{false, true} {
				if nullAware && (typ != expr.JoinAnti || tc.nested) {
					continue
				}
				for _, threads := range []int{1, 4} {
					name := fmt.Sprintf("%s/%s/na=%v/t%d", tc.name, typ, nullAware, threads)
					t.Run(name, func(t *testing.T) {
						runJoinCase(t, typ, tc.nl, tc.nr, tc.keys, tc.keyCols, tc.extra, tc.nested, tc.rightNulls, nullAware, false, threads)
					})
					if (typ == expr.JoinSemi || typ == expr.JoinAnti || typ == expr.JoinLeft) && !nullAware && !tc.nested && threads > 1 {
						t.Run(name+"/build-left", func(t *testing.T) {
							runJoinCase(t, typ, tc.nl, tc.nr, tc.keys, tc.keyCols, tc.extra, tc.nested, tc.rightNulls, nullAware, true, threads)
						})
					}
				}
			}
		}
	}
}

func runJoinCase(t *testing.T, typ JoinType, nl, nr, keys int, keyCols []int, extra int, nested, rightNulls, nullAware, buildLeft bool, threads int) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(uint64(nl), uint64(nr)))
	lrows := joinRandRows(rng, nl, keys, true)
	rrows := joinRandRows(rng, nr, keys, rightNulls)
	if keys >= 100000 { // unique right keys: single join succeeds
		for i, r := range rrows {
			r[0] = int64(i)
		}
	}
	if keys == 150000 { // a permutation of the right keys
		for i, r := range lrows {
			r[0] = int64(i * 7919 % nl)
		}
	}
	if keys >= 200000 { // unique left keys too, but for the NULLs (build-left)
		for i, r := range lrows {
			if r[0] != nil {
				r[0] = int64(2 * i)
			}
		}
	}
	ls := &testSource{schema: joinSchema("l"), batches: aggBatches(mem, lrows, 97, joinTypes, joinNames("l"))}
	rs := &testSource{schema: joinSchema("r"), batches: aggBatches(mem, rrows, 128, joinTypes, joinNames("r"))}
	defer releaseBatchList(ls.batches)
	defer releaseBatchList(rs.batches)
	var cond expr.Expr
	switch extra {
	case 1:
		cond = col(4+3, expr.Boolean) // the right side's b
	case 2:
		mod7 := func(c int) expr.Expr {
			return &expr.Call{Fn: "mod", Args: []expr.Expr{col(c, expr.Int64), &expr.Literal{Value: int64(7), Type: expr.Int64}}, Type: expr.Int64}
		}
		cond = &expr.Call{Fn: "lt", Args: []expr.Expr{mod7(2), mod7(4 + 2)}, Type: expr.Boolean}
	}
	var node Node
	if nested {
		node = &NestedLoopJoin{Type: typ, Left: ls, Right: rs, Cond: cond, Out: joinOut(typ)}
	} else {
		h := &HashJoin{Type: typ, Left: ls, Right: rs, Extra: cond, NullAware: nullAware, BuildLeft: buildLeft, Out: joinOut(typ)}
		for _, k := range keyCols {
			h.LeftKeys = append(h.LeftKeys, col(k, joinTypes[k]))
			h.RightKeys = append(h.RightKeys, col(k, joinTypes[k]))
		}
		node = h
	}
	got, err := runRows(t, mem, threads, 200, node)
	want, werr := refJoin(typ, lrows, rrows, keyCols, extra, nullAware)
	if werr != nil {
		if errs.KindOf(err) != errs.Execution {
			t.Fatalf("err %v, want %v", err, werr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d:\n got  %s\n want %s", i, got[i], want[i])
		}
	}
}
