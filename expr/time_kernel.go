package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// rowKernel is the CPU kernel the time functions share: it evaluates
// every argument to an array and computes each row whose arguments are
// all non-NULL with one of the typed row functions (the one matching the
// result type t); a NULL argument makes the row NULL. The row functions
// read their arguments with the accessors below.
type rowKernel struct {
	args []node
	t    arrow.DataType
	i64  func(r row) (int64, error)                      // Int64, timestamps, Time, Date (as days)
	f64  func(r row) (float64, error)                    // Float64
	iv   func(r row) (arrow.MonthDayNanoInterval, error) // Interval
	str  func(dst []byte, r row) ([]byte, error)         // String
}

// row is one row of a rowKernel's arguments.
type row struct {
	i    int
	args []arrow.Array
}

// int64 is argument k as int64: µs for timestamps and Time, days for a
// Date, the value for Int64.
func (r row) int64(k int) int64 {
	switch a := r.args[k].(type) {
	case *array.Date32:
		return int64(a.Value(r.i))
	case *array.Timestamp:
		return int64(a.Value(r.i))
	case *array.Time64:
		return int64(a.Value(r.i))
	case *array.Int64:
		return a.Value(r.i)
	}
	return 0
}

func (r row) float64(k int) float64 {
	if a, ok := r.args[k].(*array.Float64); ok {
		return a.Value(r.i)
	}
	return float64(r.int64(k))
}

func (r row) interval(k int) arrow.MonthDayNanoInterval {
	if a, ok := r.args[k].(*array.MonthDayNanoInterval); ok {
		return a.Value(r.i)
	}
	return arrow.MonthDayNanoInterval{}
}

func (r row) string(k int) string {
	if a, ok := r.args[k].(*array.String); ok {
		return a.Value(r.i)
	}
	return ""
}

// micros is argument k as µs since the epoch: a Date's midnight, a
// timestamp as it is.
func (r row) micros(k int) int64 {
	if r.args[k].DataType().ID() == arrow.DATE32 {
		return r.int64(k) * usPerDay
	}
	return r.int64(k)
}

func (n *rowKernel) typ() arrow.DataType { return n.t }

func (n *rowKernel) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	args := make([]arrow.Array, len(n.args))
	defer func() {
		for _, a := range args {
			if a != nil {
				a.Release()
			}
		}
	}()
	for k, a := range n.args {
		v, err := a.eval(c, b)
		if err != nil {
			return nil, err
		}
		args[k] = v
	}
	valid := mergeValidity(c.mem, c.n, args...)
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	present := func(i int) bool { return vb == nil || bitSet(vb, i) }
	r := row{args: args}
	var err error
	switch {
	case n.f64 != nil:
		buf, out := outF64(c.mem, c.n)
		for i := range out {
			if r.i = i; present(i) {
				if out[i], err = n.f64(r); err != nil {
					break
				}
			}
		}
		if err != nil {
			buf.Release()
			break
		}
		return finish(n.t, c.n, valid, buf), nil
	case n.iv != nil:
		bld := array.NewMonthDayNanoIntervalBuilder(c.mem)
		defer bld.Release()
		bld.Reserve(c.n)
		for i := 0; i < c.n && err == nil; i++ {
			if r.i = i; !present(i) {
				bld.AppendNull()
				continue
			}
			var v arrow.MonthDayNanoInterval
			v, err = n.iv(r)
			bld.Append(v)
		}
		if err == nil {
			if valid != nil {
				valid.Release()
			}
			return bld.NewArray(), nil
		}
	case n.str != nil:
		s := newStrOut(c.mem, c.n, c.n*16)
		var tmp []byte
		for i := 0; i < c.n && err == nil; i++ {
			if r.i = i; !present(i) {
				s.empty()
				continue
			}
			tmp, err = n.str(tmp[:0], r)
			s.add(tmp)
		}
		if err == nil {
			return s.finish(valid), nil
		}
		s.finish(nil).Release()
	default:
		if n.t.ID() == arrow.DATE32 {
			buf, out := outI32(c.mem, c.n)
			for i := range out {
				if r.i = i; present(i) {
					var v int64
					if v, err = n.i64(r); err != nil {
						break
					}
					out[i] = int32(v)
				}
			}
			if err != nil {
				buf.Release()
				break
			}
			return finish(n.t, c.n, valid, buf), nil
		}
		buf, out := outI64(c.mem, c.n)
		for i := range out {
			if r.i = i; present(i) {
				if out[i], err = n.i64(r); err != nil {
					break
				}
			}
		}
		if err != nil {
			buf.Release()
			break
		}
		return finish(n.t, c.n, valid, buf), nil
	}
	if valid != nil {
		valid.Release()
	}
	return nil, err
}

// ivs is the values of a MonthDayNanoInterval array.
func ivs(a arrow.Array) []arrow.MonthDayNanoInterval {
	d := a.Data()
	if d.Len() == 0 || d.Buffers()[1] == nil {
		return nil
	}
	return arrow.MonthDayNanoIntervalTraits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

// outIV is an output buffer of n intervals the caller fills.
func outIV(mem memory.Allocator, n int) (*memory.Buffer, []arrow.MonthDayNanoInterval) {
	b := newBuf(mem, n*arrow.MonthDayNanoIntervalSizeBytes)
	return b, arrow.MonthDayNanoIntervalTraits.CastFromBytes(b.Bytes())[:n]
}
