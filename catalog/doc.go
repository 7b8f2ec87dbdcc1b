// Package catalog owns what queries can name: tables (Parquet, CSV and
// in-memory), views, and the statistics the planner estimates with.
//
// Every table presents its columns in gq's value types (exec/expr lists
// them): readers normalise narrower or foreign Arrow types while reading.
// A table is read in splits (row groups, file chunks, slices of memory), the
// unit of parallel work and, later, of distribution across ranks.
//
// catalog must not import planner, physical or exec.
package catalog
