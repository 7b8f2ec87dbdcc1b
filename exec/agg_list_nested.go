package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
	"gq/expr"
)

// nestedListState is list() of nested values (a list of structs, of
// lists): each update's rows are copied into Go memory, as collectState
// keeps flat values in Go slices, and each group keeps references to its
// rows (chunk, row) in arrival order; result gathers them into one list
// per group. Go memory because a state has no release: the copies go with
// the state, as collectState's slices do.
type nestedListState struct {
	out    *arrow.ListType
	chunks []arrow.Array
	refs   [][]nestedRef
}

type nestedRef struct{ chunk, row int32 }

func newNestedListState(out arrow.DataType) (aggState, error) {
	lt, ok := out.(*arrow.ListType)
	if !ok || !expr.IsNested(lt.Elem()) {
		return nil, errs.New(errs.Internal, "list() of nested values typed %s", out)
	}
	return &nestedListState{out: lt}, nil
}

func (s *nestedListState) resize(n int) { s.refs = growZero(s.refs, n) }

func (s *nestedListState) update(gids []int32, arg arrow.Array) error {
	if !arrow.TypeEqual(arg.DataType(), s.out.Elem()) {
		return errs.New(errs.Internal, "list() of %s given %s", s.out.Elem(), arg.DataType())
	}
	all := make([]int32, arg.Len())
	for i := range all {
		all[i] = int32(i)
	}
	c := int32(len(s.chunks))
	s.chunks = append(s.chunks, expr.TakeNested(memory.DefaultAllocator, arg, all))
	for i, g := range gids {
		s.refs[g] = append(s.refs[g], nestedRef{c, int32(i)}) // NULLs too, as list() keeps them
	}
	return nil
}

func (s *nestedListState) merge(from aggState, src, dst []int32) error {
	f := from.(*nestedListState)
	base := int32(len(s.chunks))
	s.chunks = append(s.chunks, f.chunks...)
	for i, g := range src {
		for _, r := range f.refs[g] {
			s.refs[dst[i]] = append(s.refs[dst[i]], nestedRef{r.chunk + base, r.row})
		}
		f.refs[g] = nil
	}
	f.chunks = nil
	return nil
}

func (s *nestedListState) result(mem memory.Allocator, n int) (arrow.Array, error) {
	starts := make([]int32, len(s.chunks)+1)
	for i, c := range s.chunks {
		starts[i+1] = starts[i] + int32(c.Len())
	}
	var idx []int32
	offs := make([]int32, n+1)
	valid := make([]bool, n)
	for g := range n {
		for _, r := range s.refs[g] {
			idx = append(idx, starts[r.chunk]+r.row)
		}
		offs[g+1] = int32(len(idx))
		valid[g] = len(s.refs[g]) > 0 // no rows: NULL
	}
	var elems arrow.Array
	if len(s.chunks) == 0 {
		elems = array.MakeArrayOfNull(mem, s.out.Elem(), 0)
	} else {
		all, err := array.Concatenate(s.chunks, memory.DefaultAllocator)
		if err != nil {
			return nil, errs.New(errs.Internal, "list(): %v", err)
		}
		elems = expr.TakeNested(mem, all, idx)
		all.Release()
	}
	defer elems.Release()
	ob := memory.NewResizableBuffer(mem)
	defer ob.Release()
	ob.Resize(arrow.Int32Traits.BytesRequired(n + 1))
	copy(arrow.Int32Traits.CastFromBytes(ob.Bytes()), offs)
	vb := memory.NewResizableBuffer(mem)
	defer vb.Release()
	vb.Resize(int(bitutil.BytesForBits(int64(n))))
	bits, nulls := vb.Bytes(), 0
	for g, ok := range valid {
		bitutil.SetBitTo(bits, g, ok)
		if !ok {
			nulls++
		}
	}
	data := array.NewData(s.out, n, []*memory.Buffer{vb, ob}, []arrow.ArrayData{elems.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}
