// Package tpch owns gq's TPC-H tooling: the data generator (Generate, which
// drives the official dbgen port in github.com/pingcap/go-tpc and writes
// Parquet), and CompareCSV, which checks a query result in gq's canonical
// CSV format against an expected result (see testdata/tpch/).
package tpch
