package exec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/errs"
	"gq/expr"
)

// partitioner splits batches by a hash of key expressions. The hash must
// be the same in every process (unlike the maphash of hash tables, whose
// seed is random per process) and the same for equal keys on both sides
// of a join, whose keys the planner casts to one type.
type partitioner struct {
	keys   []compiledExpr
	nparts int
	hashes []uint64
	idx    [][]int32
}

func newPartitioner(keys []expr.Expr, nparts int) (*partitioner, error) {
	if len(keys) == 0 {
		return nil, errs.New(errs.Internal, "hash exchange without keys")
	}
	ks, err := compileExprs(keys)
	if err != nil {
		return nil, err
	}
	return &partitioner{keys: ks, nparts: nparts, idx: make([][]int32, nparts)}, nil
}

// split returns one batch per partition (nil where no row goes); b is
// not consumed.
func (p *partitioner) Split(c *Context, b arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	n := int(b.NumRows())
	arrs, err := evalAll(c.Alloc, p.keys, b)
	if err != nil {
		return nil, err
	}
	defer releaseArrays(arrs)
	p.hashes = grown(p.hashes, n)
	clear(p.hashes)
	for _, a := range arrs {
		if err := hashColumn(a, p.hashes); err != nil {
			return nil, err
		}
	}
	for i := range p.idx {
		p.idx[i] = p.idx[i][:0]
	}
	for i, h := range p.hashes {
		pid := int(expr.Mix64(h) % uint64(p.nparts))
		p.idx[pid] = append(p.idx[pid], int32(i))
	}
	out := make([]arrow.RecordBatch, p.nparts)
	for pid, idx := range p.idx {
		switch len(idx) {
		case 0:
		case n:
			b.Retain()
			out[pid] = b
		default:
			out[pid] = TakeBatch(c.Alloc, b, idx)
		}
	}
	return out, nil
}

// partBatch is a batch whose rows all belong to partition Part of a hash
// exchange into Parts partitions: a GPU scan partitioning on the device
// (GPUScan.Partition) emits them, and the exchange sends each whole
// instead of hashing its rows again.
type partBatch struct {
	arrow.RecordBatch
	Part, Parts int
}

// hashColumn folds column a into the running row hashes h: h = mix(h*31
// + v). A NULL's v is a constant, whatever its slot holds (NULLs meet no
// partner in a join, and group together). The device computes the same
// (arrowgpu HashPartition, kernels/partition.cu gq_part_hash), so a rank
// partitioning on its GPU and one on its CPU agree.
func hashColumn(a arrow.Array, h []uint64) error {
	const nullHash = 0x9e3779b97f4a7c15
	step := func(i int, v uint64) { h[i] = expr.Mix64(h[i]*31 + v) }
	if a.NullN() > 0 {
		step = func(i int, v uint64) {
			if a.IsNull(i) {
				v = nullHash
			}
			h[i] = expr.Mix64(h[i]*31 + v)
		}
	}
	switch x := a.(type) {
	case *array.Int64:
		for i, v := range x.Int64Values() {
			step(i, uint64(v))
		}
	case *array.Decimal64:
		for i, v := range asInt64s(x.Values()) {
			step(i, uint64(v))
		}
	case *array.Decimal128:
		// A value within int64 hashes as the same Decimal64 would.
		for i, v := range x.Values() {
			u := v.LowBits()
			if !fitsInt64(v) {
				u ^= expr.Mix64(uint64(v.HighBits()))
			}
			step(i, u)
		}
	case *array.Timestamp, *array.Time64:
		for i, v := range temporalInts(x) {
			step(i, uint64(v))
		}
	case *array.Date32:
		for i, v := range x.Date32Values() {
			step(i, uint64(int64(v)))
		}
	case *array.MonthDayNanoInterval:
		// Its normal form: equal intervals (30 days, 1 month) meet.
		for i := range x.Len() {
			m, d, ns := expr.NormInterval(x.Value(i))
			step(i, expr.Mix64(uint64(m))^expr.Mix64(uint64(d)*31)^uint64(ns))
		}
	case *array.Int32:
		for i, v := range x.Int32Values() {
			step(i, uint64(int64(v)))
		}
	case *array.Float64:
		for i, v := range x.Float64Values() {
			if v == 0 {
				v = 0 // -0 goes with 0
			} else if v != v {
				v = math.NaN()
			}
			step(i, math.Float64bits(v))
		}
	case *array.Boolean:
		for i := range x.Len() {
			v := uint64(0)
			if x.Value(i) {
				v = 1
			}
			step(i, v)
		}
	case *array.String:
		for i := range x.Len() {
			step(i, fnv64(x.Value(i)))
		}
	case *array.Null:
		for i := range x.Len() {
			step(i, 0) // every row NULL
		}
	default:
		return errs.New(errs.Unsupported, "hash exchange on a key of type %s", a.DataType())
	}
	return nil
}

// fnv64 is FNV-1a: stable across processes, unlike maphash.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
