package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/expr"
)

// What exec lends the device operators (package gpuexec): the helpers of
// its own operators that a GPU twin shares with its CPU one. They keep
// their unexported names where they live, so the CPU code reads as it did
// and this file is the whole of the surface; gpuexec uses nothing else of
// exec's that is not exported for every caller.

// CompiledExpr is an expression compiled for the CPU evaluator: a device
// operator evaluates on the host what the device does not.
type CompiledExpr = compiledExpr

// CompileExpr compiles e for the CPU evaluator.
func CompileExpr(e expr.Expr) (CompiledExpr, error) { return compileExpr(e) }

// ExprColumns appends the distinct column indexes that e reads to dst.
func ExprColumns(e expr.Expr, dst []int) []int { return exprColumns(e, dst) }

// ApplyFilter keeps the rows of b where pred is true, as a Filter does
// (applyFilter).
func ApplyFilter(c *Context, pred CompiledExpr, b arrow.RecordBatch, sel []int32) (arrow.RecordBatch, []int32, error) {
	return applyFilter(c, pred, b, sel)
}

// KeepRows returns the rows sel of b, consuming b (keepRows).
func KeepRows(c *Context, b arrow.RecordBatch, sel []int32) arrow.RecordBatch {
	return keepRows(c, b, sel)
}

// Conform returns b under schema when only names, nullability or
// metadata differ (conform).
func Conform(b arrow.RecordBatch, schema *arrow.Schema) (arrow.RecordBatch, error) {
	return conform(b, schema)
}

// Failed is the output of a node that cannot start: err fails the query
// (failed).
func Failed(c *Context, out chan arrow.RecordBatch, err error) <-chan arrow.RecordBatch {
	return failed(c, out, err)
}

// Forward sends every batch of in to out, draining in on cancellation
// (forward).
func Forward(c *Context, in <-chan arrow.RecordBatch, out chan<- arrow.RecordBatch) error {
	return forward(c, in, out)
}

// DrainLater releases whatever still arrives on in (drainLater).
func DrainLater(c *Context, in <-chan arrow.RecordBatch) { drainLater(c, in) }

// MapBatches runs workers goroutines over in, each with its own function
// made by newFn (mapBatches).
func MapBatches(c *Context, in <-chan arrow.RecordBatch, workers int, newFn func() func(arrow.RecordBatch) (arrow.RecordBatch, error)) <-chan arrow.RecordBatch {
	return mapBatches(c, in, workers, newFn)
}

// AwaitJoinFilters waits until every filter of a scan has settled, for a
// bounded time (awaitJoinFilters).
func AwaitJoinFilters(c *Context, jfs []*RunningJoinFilter) { awaitJoinFilters(c, jfs) }

// ReleaseArrays releases the non-nil arrays of as.
func ReleaseArrays(as []arrow.Array) { releaseArrays(as) }

// ReleaseBatches releases the non-nil batches of bs.
func ReleaseBatches(bs []arrow.RecordBatch) { releaseParts(bs) }

// PartBatch is a batch of one partition of a hash exchange: a GPU scan
// that partitions on the device emits them (partBatch).
type PartBatch = partBatch

// SplitRower is a table that knows each split's row count (splitRower).
type SplitRower = splitRower

// NewPartitioner is the CPU's hash partitioner, which the device's must
// agree with row for row (newPartitioner).
func NewPartitioner(keys []expr.Expr, nparts int) (*Partitioner, error) {
	return newPartitioner(keys, nparts)
}

// Partitioner is a hash exchange's partitioner (partitioner).
type Partitioner = partitioner

// Fnv64 is the exchange's stable string hash (fnv64).
func Fnv64(s string) uint64 { return fnv64(s) }

// AppendImage appends the value whose 64-bit image a device table holds
// to b (appendImage).
func AppendImage(b array.Builder, v int64) bool { return appendImage(b, v) }

// The aggregates' results and errors, which a device aggregation gives
// exactly as a HashAggregate does.
var (
	ErrSumOverflow     = errSumOverflow
	ErrWideSumOverflow = errWideSumOverflow
)

// MaxDecimalDigits is DECIMAL's largest precision.
const MaxDecimalDigits = maxDecimalDigits

// FitsDigits says n has at most digits decimal digits.
func FitsDigits(n decimal128.Num, digits int32) bool { return fitsDigits(n, digits) }

// AggArray copies vals into an array of type dt; valid nil means no NULLs
// (aggArray).
func AggArray[T int64 | float64 | decimal128.Num](mem memory.Allocator, dt arrow.DataType, vals []T, valid []bool) arrow.Array {
	return aggArray(mem, dt, vals, valid)
}
