package arrowgpu

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// filterProject is the whole of a GPU filter/projection over one host
// batch, the shape a GPU Filter node in exec will call: upload the columns
// f reads, run the fused kernel, keep the rows its predicate selects (all
// when it has none), and download the outputs as a batch of schema out
// (one field per output of f). Host memory comes from mem.
func (q *Queue) filterProject(f *Fused, rec arrow.RecordBatch, out *arrow.Schema, mem memory.Allocator) (arrow.RecordBatch, error) {
	if out.NumFields() != len(f.Outputs) {
		return nil, errs.New(errs.Internal, "arrowgpu: %d output fields for %d expressions", out.NumFields(), len(f.Outputs))
	}
	db := &Batch{Schema: rec.Schema(), Len: int(rec.NumRows()), Cols: make([]*Column, rec.NumCols())}
	defer db.Free()
	for _, c := range f.Inputs {
		if c >= len(db.Cols) {
			return nil, errs.New(errs.Internal, "arrowgpu: fused kernel reads column %d of %d", c, len(db.Cols))
		}
		col, err := q.UploadArray(rec.Column(c))
		if err != nil {
			return nil, err
		}
		db.Cols[c] = col
	}
	outs, mask, err := q.RunFused(f, db)
	if err != nil {
		return nil, err
	}
	res := &Batch{Schema: out, Len: db.Len, Cols: outs}
	defer res.Free()
	if mask != nil {
		idx, cnt, err := q.Select(mask)
		mask.Free()
		if err != nil {
			return nil, err
		}
		defer idx.Free()
		for i, c := range res.Cols {
			g, err := q.Gather(c, idx, cnt)
			if err != nil {
				return nil, err
			}
			c.Free()
			res.Cols[i] = g
		}
		res.Len = cnt
	}
	return q.DownloadBatch(res, mem)
}
