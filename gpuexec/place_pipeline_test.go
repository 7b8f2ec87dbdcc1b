package gpuexec

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec"
	"gq/expr"
)

// A semi or anti join that only filters moves ahead of an inner join when
// its probe key is that join's build key (taking the join's probe key,
// equal after it), and stays where it is otherwise: after a left join
// (whose build columns may be NULL), on a build column that is not the
// key, across a type change, or with a condition on the pairs.
func TestSemiJoinsFirst(t *testing.T) {
	i64, i32 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32
	// Pipeline columns: 0, 1 from the scan; 2, 3 appended by join 0
	// (its build columns 0 and 1; key: build column 0 = scan column 1).
	build := func(typ exec.JoinType, keyType arrow.DataType) *pipeline {
		return &pipeline{
			width: 4,
			types: map[int]arrow.DataType{0: i64, 1: i64, 2: keyType, 3: i64},
			joins: []GPUJoin{{Type: typ, BuildKeys: []int{0}, ProbeKeys: []int{1}, Cols: []int{0, 1}}},
		}
	}
	for _, c := range []struct {
		name     string
		typ      exec.JoinType
		keyType  arrow.DataType
		semi     GPUJoin
		wantMove bool
		wantKeys []int
	}{
		{"semi on the inner join's key", expr.JoinInner, i64, GPUJoin{Type: expr.JoinSemi, ProbeKeys: []int{2}}, true, []int{1}},
		{"anti on the key and a scan column", expr.JoinInner, i64, GPUJoin{Type: expr.JoinAnti, ProbeKeys: []int{0, 2}}, true, []int{0, 1}},
		{"after a left join", expr.JoinLeft, i64, GPUJoin{Type: expr.JoinSemi, ProbeKeys: []int{2}}, false, []int{2}},
		{"on a build column that is not the key", expr.JoinInner, i64, GPUJoin{Type: expr.JoinSemi, ProbeKeys: []int{3}}, false, []int{3}},
		{"keys of different types", expr.JoinInner, i32, GPUJoin{Type: expr.JoinSemi, ProbeKeys: []int{2}}, false, []int{2}},
		{"with a condition on the pairs", expr.JoinInner, i64, GPUJoin{Type: expr.JoinSemi, ProbeKeys: []int{2}, On: &expr.Literal{Value: true, Type: expr.Boolean}}, false, []int{2}},
	} {
		pl := build(c.typ, c.keyType)
		pl.joins = append(pl.joins, c.semi)
		mark := func(name string) func(twinEdits) exec.Node {
			return func(twinEdits) exec.Node {
				return &exec.Values{Out: arrow.NewSchema([]arrow.Field{{Name: name, Type: i64}}, nil)}
			}
		}
		pl.builds = []func(twinEdits) exec.Node{mark("inner"), mark("semi")}
		pl.semiJoinsFirst()
		at := 1
		if c.wantMove {
			at = 0
		}
		if pl.joins[at].Type != c.semi.Type || !slices.Equal(pl.joins[at].ProbeKeys, c.wantKeys) {
			t.Errorf("%s: joins %+v, want the %v join at %d with keys %v", c.name, pl.joins, c.semi.Type, at, c.wantKeys)
		}
		if got := pl.builds[at](nil).Schema().Field(0).Name; got != "semi" {
			t.Errorf("%s: build %d is %s's, want the semi join's", c.name, at, got)
		}
	}
}
