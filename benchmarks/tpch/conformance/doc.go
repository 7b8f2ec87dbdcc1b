// Package conformance holds only tests: it runs the 22 TPC-H queries
// (testdata/tpch/queries and queries_alt) through gq's engine over the SF
// 0.1 data and compares the results with DuckDB's (testdata/tpch/sf0.1,
// sf0.1-alt) using tpch.CompareCSV. It is a separate package so that the
// generator's own tests do not depend on the engine compiling.
//
// The data is not committed; generate it once with
//
//	go run ./benchmarks/tpch/cmd/tpchgen --sf 0.1 --out data/tpch-sf0.1
//
// or point GQ_TPCH_DATA at another SF 0.1 directory. Without it the tests
// skip.
package conformance
