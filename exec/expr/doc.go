// Package expr evaluates scalar expressions over Arrow record batches,
// vectorised: one call computes a whole column.
//
// The planner produces these trees with all types resolved and casts made
// explicit (see the function catalogue in ir.go); expr trusts those types and
// never re-infers them. Compile checks a tree once per query; the compiled
// Evaluator is then used by many workers at once.
//
// expr must not import planner, physical or catalog.
package expr
