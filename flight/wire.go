package flight

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/flight"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Wire types. gq's DECIMAL is a scaled int64 (Arrow decimal64, at most 18
// digits), but most Arrow readers in use know decimal128 only: arrow-rs
// before 54 (and so the Rust-based Node client) panics on a decimal64
// field, and the Flight SQL JDBC driver and pyarrow before 19 refuse one.
// So every schema and batch the server sends carries decimal128 of the
// same precision and scale, unless the server (Config.WireDecimal64) or
// the session (the session option below) asks for decimal64 as is.

// optWireDecimal64 is the session option (SetSessionOptions; with ADBC
// the connection option adbc.flight.sql.session.option.gq.wire_decimal64)
// that picks decimal64 (true) or decimal128 (false) on the wire for the
// session's later calls.
const optWireDecimal64 = "gq.wire_decimal64"

// wireDecimal64 reports whether sess's calls send decimal64 as is.
func (s *Server) wireDecimal64(sess *session) bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return s.wireDecimal64Locked(sess)
}

// wireDecimal64Locked is wireDecimal64 with sess.mu held.
func (s *Server) wireDecimal64Locked(sess *session) bool {
	if sess.decimal64 != nil {
		return *sess.decimal64
	}
	return s.cfg.WireDecimal64
}

// wireType is t as sent: decimal64 becomes decimal128 of the same
// precision and scale, inside nested types too; other types are
// themselves. changed tells whether anything was replaced.
func wireType(t arrow.DataType) (out arrow.DataType, changed bool) {
	switch dt := t.(type) {
	case *arrow.Decimal64Type:
		return &arrow.Decimal128Type{Precision: dt.Precision, Scale: dt.Scale}, true
	case *arrow.ListType:
		if f, ok := wireField(dt.ElemField()); ok {
			return arrow.ListOfField(f), true
		}
	case *arrow.LargeListType:
		if f, ok := wireField(dt.ElemField()); ok {
			return arrow.LargeListOfField(f), true
		}
	case *arrow.FixedSizeListType:
		if f, ok := wireField(dt.ElemField()); ok {
			return arrow.FixedSizeListOfField(dt.Len(), f), true
		}
	case *arrow.MapType:
		k, kc := wireField(dt.KeyField())
		v, vc := wireField(dt.ItemField())
		if kc || vc {
			m := arrow.MapOfFields(k, v)
			m.KeysSorted = dt.KeysSorted
			return m, true
		}
	case *arrow.StructType:
		fields := dt.Fields()
		changed := false
		for i, f := range fields {
			if nf, ok := wireField(f); ok {
				fields[i], changed = nf, true
			}
		}
		if changed {
			return arrow.StructOf(fields...), true
		}
	}
	return t, false
}

func wireField(f arrow.Field) (arrow.Field, bool) {
	t, ok := wireType(f.Type)
	f.Type = t
	return f, ok
}

// wireSchema is schema as sent to a client that takes decimal64 only if
// dec64; the schema itself when nothing changes.
func wireSchema(schema *arrow.Schema, dec64 bool) *arrow.Schema {
	if dec64 || schema == nil {
		return schema
	}
	var fields []arrow.Field
	for i, f := range schema.Fields() {
		nf, ok := wireField(f)
		if !ok {
			continue
		}
		if fields == nil {
			fields = schema.Fields()
		}
		fields[i] = nf
	}
	if fields == nil {
		return schema
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// wireBatch is b with wire types (wireSchema of b's schema, which the
// caller computed once as schema); it takes over b's reference. Only
// decimal64 columns are rewritten, each in one pass; the others are
// shared.
func wireBatch(b arrow.RecordBatch, schema *arrow.Schema) arrow.RecordBatch {
	if schema == b.Schema() {
		return b
	}
	cols := make([]arrow.Array, b.NumCols())
	for i, c := range b.Columns() {
		if arrow.TypeEqual(c.DataType(), schema.Field(i).Type) {
			c.Retain()
			cols[i] = c
			continue
		}
		d := wireData(c.Data(), schema.Field(i).Type)
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	out := array.NewRecordBatch(schema, cols, b.NumRows())
	for _, c := range cols {
		c.Release()
	}
	b.Release()
	return out
}

// wireData is d converted to type to (wireType of d's type): decimal64
// values widened to decimal128, nested children converted likewise, the
// rest of the buffers shared.
func wireData(d arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	if d.DataType().ID() == arrow.DECIMAL64 {
		return widenDecimal64(d, to)
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	var toChildren []arrow.DataType
	switch dt := to.(type) {
	case arrow.ListLikeType:
		toChildren = []arrow.DataType{dt.Elem()}
	case *arrow.StructType:
		for _, f := range dt.Fields() {
			toChildren = append(toChildren, f.Type)
		}
	}
	for i, c := range d.Children() {
		if i < len(toChildren) && !arrow.TypeEqual(c.DataType(), toChildren[i]) {
			children[i] = wireData(c, toChildren[i])
			defer children[i].Release()
		} else {
			children[i] = c
		}
	}
	return array.NewData(to, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
}

// widenDecimal64 writes d's decimal64 values as decimal128 (the high word
// the sign of the low one) into a new buffer starting at d's first value;
// the validity bitmap is shared when d starts at bit 0 and copied
// otherwise.
func widenDecimal64(d arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n, off := d.Len(), d.Offset()
	src := arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[off : off+n]
	vals := memory.NewResizableBuffer(memory.DefaultAllocator)
	vals.Resize(arrow.Decimal128Traits.BytesRequired(n))
	dst := arrow.Decimal128Traits.CastFromBytes(vals.Bytes())[:n]
	for i, v := range src {
		dst[i] = decimal128.New(v>>63, uint64(v))
	}
	var valid *memory.Buffer
	// A slice's null count may be unknown (negative): only a count of 0
	// says the bitmap can go.
	if bm := d.Buffers()[0]; bm != nil && d.NullN() != 0 {
		if off == 0 {
			valid = bm
			valid.Retain()
		} else {
			valid = memory.NewResizableBuffer(memory.DefaultAllocator)
			valid.Resize(int(bitutil.BytesForBits(int64(n))))
			bitutil.CopyBitmap(bm.Bytes(), off, n, valid.Bytes(), 0)
		}
	}
	out := array.NewData(to, n, []*memory.Buffer{valid, vals}, nil, d.NullN(), 0)
	vals.Release()
	if valid != nil {
		valid.Release()
	}
	return out
}

// serializeSchema is schema in its IPC form, with wire types unless
// dec64.
func serializeSchema(schema *arrow.Schema, dec64 bool) []byte {
	return flight.SerializeSchema(wireSchema(schema, dec64), memory.DefaultAllocator)
}

// SetSessionOptions sets the caller's session options: only
// gq.wire_decimal64 (a bool, or the string "true"/"false"; an empty
// value resets it to the server's default). Unknown names and bad values
// are reported per option, as Flight SQL asks, and change nothing.
func (s *Server) SetSessionOptions(ctx context.Context, req *flight.SetSessionOptionsRequest) (*flight.SetSessionOptionsResult, error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res := &flight.SetSessionOptionsResult{}
	fail := func(name string, v pb.SetSessionOptionsResult_ErrorValue) {
		if res.Errors == nil {
			res.Errors = map[string]*flight.SetSessionOptionsResultError{}
		}
		res.Errors[name] = &flight.SetSessionOptionsResultError{Value: v}
	}
	for name, val := range req.GetSessionOptions() {
		if name != optWireDecimal64 {
			fail(name, flight.SetSessionOptionsResultErrorInvalidName)
			continue
		}
		var set *bool
		switch v := val.GetOptionValue().(type) {
		case *pb.SessionOptionValue_BoolValue:
			set = &v.BoolValue
		case *pb.SessionOptionValue_StringValue:
			if strings.TrimSpace(v.StringValue) != "" {
				b, err := strconv.ParseBool(strings.TrimSpace(v.StringValue))
				if err != nil {
					fail(name, flight.SetSessionOptionsResultErrorInvalidValue)
					continue
				}
				set = &b
			}
		case nil: // an unset value resets the option
		default:
			fail(name, flight.SetSessionOptionsResultErrorInvalidValue)
			continue
		}
		sess.mu.Lock()
		sess.decimal64 = set
		sess.mu.Unlock()
	}
	return res, nil
}

// GetSessionOptions answers the session's options: gq.wire_decimal64 as
// it applies to the session's calls.
func (s *Server) GetSessionOptions(ctx context.Context, _ *flight.GetSessionOptionsRequest) (*flight.GetSessionOptionsResult, error) {
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	opts, err := flight.NewSessionOptionValues(map[string]any{optWireDecimal64: s.wireDecimal64(sess)})
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &flight.GetSessionOptionsResult{SessionOptions: opts}, nil
}
