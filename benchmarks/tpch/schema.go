package tpch

import (
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
)

// Column kinds of the TPC-H schema, as written to Parquet.
var (
	tInt   = arrow.PrimitiveTypes.Int64
	tStr   = arrow.BinaryTypes.String
	tDate  = arrow.FixedWidthTypes.Date32
	tMoney = &arrow.Decimal128Type{Precision: 15, Scale: 2} // stored as INT64 DECIMAL(15,2)
)

func schemaOf(cols ...any) *arrow.Schema {
	fields := make([]arrow.Field, 0, len(cols)/2)
	for i := 0; i < len(cols); i += 2 {
		fields = append(fields, arrow.Field{Name: cols[i].(string), Type: cols[i+1].(arrow.DataType)})
	}
	return arrow.NewSchema(fields, nil)
}

var (
	regionSchema   = schemaOf("r_regionkey", tInt, "r_name", tStr, "r_comment", tStr)
	nationSchema   = schemaOf("n_nationkey", tInt, "n_name", tStr, "n_regionkey", tInt, "n_comment", tStr)
	supplierSchema = schemaOf("s_suppkey", tInt, "s_name", tStr, "s_address", tStr, "s_nationkey", tInt,
		"s_phone", tStr, "s_acctbal", tMoney, "s_comment", tStr)
	customerSchema = schemaOf("c_custkey", tInt, "c_name", tStr, "c_address", tStr, "c_nationkey", tInt,
		"c_phone", tStr, "c_acctbal", tMoney, "c_mktsegment", tStr, "c_comment", tStr)
	partSchema = schemaOf("p_partkey", tInt, "p_name", tStr, "p_mfgr", tStr, "p_brand", tStr, "p_type", tStr,
		"p_size", tInt, "p_container", tStr, "p_retailprice", tMoney, "p_comment", tStr)
	partsuppSchema = schemaOf("ps_partkey", tInt, "ps_suppkey", tInt, "ps_availqty", tInt,
		"ps_supplycost", tMoney, "ps_comment", tStr)
	ordersSchema = schemaOf("o_orderkey", tInt, "o_custkey", tInt, "o_orderstatus", tStr, "o_totalprice", tMoney,
		"o_orderdate", tDate, "o_orderpriority", tStr, "o_clerk", tStr, "o_shippriority", tInt, "o_comment", tStr)
	lineitemSchema = schemaOf("l_orderkey", tInt, "l_partkey", tInt, "l_suppkey", tInt, "l_linenumber", tInt,
		"l_quantity", tMoney, "l_extendedprice", tMoney, "l_discount", tMoney, "l_tax", tMoney,
		"l_returnflag", tStr, "l_linestatus", tStr, "l_shipdate", tDate, "l_commitdate", tDate,
		"l_receiptdate", tDate, "l_shipinstruct", tStr, "l_shipmode", tStr, "l_comment", tStr)
)

// Tables lists the eight TPC-H table names, as Generate names its files.
var Tables = []string{"customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"}

// TablePath is how table name of a generated data set in dir is opened:
// dir/NAME.parquet as Generate writes it, or dir/NAME/*.parquet, the parts
// of gq gen tpch --jobs.
func TablePath(dir, name string) string {
	if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
		return filepath.Join(dir, name, "*.parquet")
	}
	return filepath.Join(dir, name+".parquet")
}
