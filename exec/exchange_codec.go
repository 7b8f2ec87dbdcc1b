package exec

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"gq/errs"
)

// encodeBatch serialises b as a self-contained Arrow IPC stream (schema
// then one record batch), the unit a shuffle chunk carries.
func encodeBatch(b arrow.RecordBatch) ([]byte, error) {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(b.Schema()))
	if err := w.Write(b); err != nil {
		w.Close()
		return nil, errs.Wrap(errs.Internal, err, "encoding a batch for exchange")
	}
	if err := w.Close(); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding a batch for exchange")
	}
	return buf.Bytes(), nil
}

// decodeBatches reads the batches of one chunk and passes each (under
// schema, owned by emit) to emit until emit returns false.
func decodeBatches(c *Context, data []byte, schema *arrow.Schema, emit func(arrow.RecordBatch) bool) error {
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(c.Alloc))
	if err != nil {
		return errs.Wrap(errs.Communication, err, "decoding an exchanged batch")
	}
	defer r.Release()
	for r.Next() {
		b := r.RecordBatch()
		b.Retain()
		b, err := conform(b, schema)
		if err != nil {
			return err
		}
		if !emit(b) {
			return c.Err()
		}
	}
	if err := r.Err(); err != nil {
		return errs.Wrap(errs.Communication, err, "decoding an exchanged batch")
	}
	return nil
}
