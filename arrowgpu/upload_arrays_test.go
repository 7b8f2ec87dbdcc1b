package arrowgpu

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// UploadArrays of slices of a batch (offsets not multiples of 8, NULLs in
// some parts only, an empty part) holds what the concatenation holds,
// column by column; a boolean column is refused.
func TestUploadArrays(t *testing.T) {
	q := needGPU(t)
	rec := testBatch(5000, 3)
	defer rec.Release()
	cuts := [][2]int64{{0, 13}, {13, 13}, {13, 1000}, {1000, 1003}, {1003, 4999}}
	for c, f := range rec.Schema().Fields() {
		var parts []arrow.Array
		for _, cut := range cuts {
			parts = append(parts, array.NewSlice(rec.Column(c), cut[0], cut[1]))
		}
		if f.Type.ID() == arrow.BOOL {
			if _, err := q.UploadArrays(f.Type, parts); err == nil {
				t.Errorf("%s: a boolean column was taken", f.Name)
			}
		} else {
			want, err := array.Concatenate(parts, memory.NewGoAllocator())
			if err != nil {
				t.Fatal(err)
			}
			col, err := q.UploadArrays(f.Type, parts)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			got, err := q.Download(col, memory.NewGoAllocator())
			col.Free()
			if err != nil {
				t.Fatalf("%s: download: %v", f.Name, err)
			}
			wantEqualArrays(t, f.Name, want, got)
			want.Release()
			got.Release()
		}
		for _, p := range parts {
			p.Release()
		}
	}
}
