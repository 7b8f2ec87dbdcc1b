// Package planner turns parsed SQL into an optimised logical plan.
//
// The binder (bind*.go) resolves names against the catalog, types every
// expression (MySQL's result-type rules, explicit casts), and plans
// subqueries as joins (decorrelation happens here: the plans it returns hold
// no subquery expressions). The optimiser (optimize*.go) is a list of small
// named rules, each a function Plan → Plan, applied in order.
//
// Columns are identified by process-unique ColumnIDs, not positions, so that
// rules can move expressions between nodes freely; physical lowering maps
// IDs to positions.
//
// Functions bind by their expr registry entry (functions.go): the entry's
// type rule, not the planner, decides argument casts and result types.
// s.f names a struct field where no table s has a column f; a struct
// literal {'k': v} binds to struct_pack with the keys as field names;
// after binding, checkNested refuses nested values where an order, an
// equality or a cast of them would be needed (bind_nested.go).
//
// A CTE is bound again at each reference (physical shares equal
// subplans). A recursive one (bind_recursive.go) becomes a RecursiveCTE
// over its anchor and its recursive term, in which the self-reference is
// a WorkScan of the working table; the binder enforces where that
// reference may stand.
//
// The table functions that compute their rows rather than read files,
// range and generate_series over integers (bind_series.go) and over
// timestamps (bind_series_time.go), are catalog.Tables the binder makes,
// so every scan path (ranks, GPU) reads them as any table.
//
// planner must not import physical or exec: it builds on expr (value types,
// the function registry) and catalog, a peer of exec above expr.
package planner
