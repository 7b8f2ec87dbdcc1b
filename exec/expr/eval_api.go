package expr

// This file is the evaluator's public surface (the implementation lives in
// the other files of this package).
//
//	// Compile checks e (known functions, argument types as the catalogue
//	// requires) and prepares it for evaluation (e.g. compiles LIKE patterns,
//	// builds IN hash sets). The Evaluator is safe for concurrent use.
//	func Compile(e Expr) (*Evaluator, error)
//
//	// Eval computes the expression over every row of batch and returns an
//	// array of length batch.NumRows() and type e.DataType(), allocated from
//	// mem. The caller releases it. Literals yield a full-length array.
//	func (ev *Evaluator) Eval(mem memory.Allocator, batch arrow.RecordBatch) (arrow.Array, error)
//
//	// EvalFilter evaluates a Boolean expression and returns the indices of the
//	// rows where it is true (NULL counts as false), as a selection vector.
//	func (ev *Evaluator) EvalFilter(mem memory.Allocator, batch arrow.RecordBatch, sel []int32) ([]int32, error)
