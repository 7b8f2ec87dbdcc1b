package flight

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"gq/engine"
)

// Clients other than arrow-go's read the server's answers; each test
// renders their values in one canonical text form (cell) and compares
// them with the engine's own answer rendered the same way.

// typesQuery returns a column of each gq type, and of each a column with
// NULLs; negative decimals check the sign of the widened high word.
const typesQuery = `select o_orderkey as c_bigint,
	o_totalprice as c_decimal,
	o_totalprice - 150000 as c_decimal_neg,
	cast(o_totalprice as double) / 7 as c_double,
	o_orderdate as c_date,
	o_orderpriority as c_varchar,
	o_orderstatus = 'F' as c_boolean,
	case when o_orderkey % 3 = 0 then null else o_custkey end as n_bigint,
	case when o_orderkey % 3 = 1 then null else o_totalprice end as n_decimal,
	case when o_orderkey % 3 = 2 then null else cast(o_totalprice as double) end as n_double,
	case when o_orderkey % 3 = 0 then null else o_orderdate end as n_date,
	case when o_orderkey % 3 = 1 then null else o_clerk end as n_varchar,
	case when o_orderkey % 3 = 2 then null else o_orderstatus = 'O' end as n_boolean
from orders where o_orderkey < 600 order by o_orderkey`

// gqTypes are the gq types typesQuery's columns must cover.
var gqTypes = []arrow.Type{arrow.INT64, arrow.DECIMAL64, arrow.FLOAT64, arrow.DATE32, arrow.STRING, arrow.BOOL}

// cellNull is a NULL's canonical text.
const cellNull = "NULL"

// cell is value i of arr in canonical text: integers and decimals in
// digits (a decimal with its scale's fraction digits), doubles in Go's
// shortest form, dates as days since the epoch, booleans true/false.
func cell(t *testing.T, arr arrow.Array, i int) string {
	t.Helper()
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return cellNull
	}
	switch a := arr.(type) {
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Decimal64:
		return decimalText(big.NewInt(int64(a.Value(i))), a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.Decimal128:
		return decimalText(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Float64:
		return floatText(a.Value(i))
	case *array.Date32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.String:
		return a.Value(i)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	}
	t.Fatalf("no canonical form for %s", arr.DataType())
	return ""
}

func floatText(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// decimalText is an unscaled decimal with scale fraction digits.
func decimalText(v *big.Int, scale int32) string {
	neg := v.Sign() < 0
	s := new(big.Int).Abs(v).String()
	if scale > 0 {
		if len(s) <= int(scale) {
			s = strings.Repeat("0", int(scale)-len(s)+1) + s
		}
		s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// engineRows is the engine's answer to sql: its schema and its rows in
// canonical text.
func engineRows(t *testing.T, e *engine.Engine, sql string) (*arrow.Schema, [][]string) {
	t.Helper()
	res, err := e.Query(context.Background(), sql)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	defer res.Release()
	var rows [][]string
	for _, b := range res.Batches {
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for c, col := range b.Columns() {
				row[c] = cell(t, col, r)
			}
			rows = append(rows, row)
		}
	}
	return res.Schema, rows
}

// compareRows reports the first differences between got and want, rows
// in the same order.
func compareRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
	}
	bad := 0
	for r := range min(len(got), len(want)) {
		if fmt.Sprint(got[r]) != fmt.Sprint(want[r]) {
			if bad++; bad <= 5 {
				t.Errorf("%s: row %d\n got  %q\n want %q", what, r, got[r], want[r])
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d rows differ in all", what, bad)
	}
}

// coversTypes fails unless schema has a column of each gq type.
func coversTypes(t *testing.T, schema *arrow.Schema) {
	t.Helper()
	have := map[arrow.Type]bool{}
	for _, f := range schema.Fields() {
		have[f.Type.ID()] = true
	}
	for _, id := range gqTypes {
		if !have[id] {
			t.Errorf("the query has no %s column: %v", id, schema)
		}
	}
}
