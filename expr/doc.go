// Package expr is gq's bottom floor for expressions: the value types (ir.go;
// the time types, their text and arithmetic in timestamp.go), decimals (and
// their one correctly rounded conversion to DOUBLE, decfloat.go, which the
// device's gq_i128_to_double mirrors) and civil dates, the expression IR (Column, Literal, Call), the
// function registry (registry.go: one entry per SQL function with its type
// rule, its CPU kernel and its device code generator; most functions are a
// file fn_<name>.go each) and the vectorised evaluator over Arrow record
// batches: one call computes a whole column. A function whose work per row
// dwarfs a call (strings, digests, regexes, transcendentals) writes only
// its row and lets a row kernel (rowkernel.go) evaluate the arguments,
// merge their NULLs and build the column.
// Nested values (lists, structs, maps a file holds, or a query builds with
// list_value and struct_pack, DuckDB's [a, b] and {'k': v}) are values too:
// they travel through every operator, and the functions of nested.go take
// them apart; anything needing their order or equality is refused at
// binding. The only cast of a nested value fills in the NULL type of an
// empty list or a NULL part (cast_nested.go).
//
// Doubles compare in one total order, DuckDB's and PostgreSQL's
// (CompareFloat: NaN equals NaN and is above every number, -0 equals 0):
// the comparison operators, IN, constant folding, min/max, sorting and
// grouping all use it, and the device's gq_dcmp mirrors it.
//
// The planner produces these trees with all types resolved and casts made
// explicit (each function's type rule, Function.Bind, is what it calls);
// the evaluator trusts those types and never re-infers them. Compile checks
// a tree once per query; the compiled Evaluator is then used by many workers
// at once; expressions an operator evaluates together may be compiled
// together (CompileShared, memo.go) so that a call they share is computed
// once per batch. The planner, the CPU executor and the device code generator are
// peers above this package, so that all three read one definition of each
// function.
//
// expr must not import any gq package but errs: everything else builds on
// it (catalog for the value types, planner for the type rules, exec for the
// kernels, arrowgpu for the device code generators).
package expr
