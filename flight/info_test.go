package flight

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
)

// sqlInfoValue is one GetSqlInfo answer: the union member it came in
// (FlightSql.proto's value types) and its value.
type sqlInfoValue struct {
	kind string // string, bool, int64, int32, []string
	val  any
}

func getSqlInfo(t *testing.T, cl *flightsql.Client, ids ...flightsql.SqlInfo) map[flightsql.SqlInfo]sqlInfoValue {
	t.Helper()
	ctx := testCtx(t)
	info, err := cl.GetSqlInfo(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(ctx, t, cl, info)
	defer release(bs)
	if err != nil {
		t.Fatal(err)
	}
	out := map[flightsql.SqlInfo]sqlInfoValue{}
	for _, b := range bs {
		names := b.Column(0).(*array.Uint32)
		vals := b.Column(1).(*array.DenseUnion)
		for i := range int(b.NumRows()) {
			child, off := vals.Field(vals.ChildID(i)), int(vals.ValueOffset(i))
			var v sqlInfoValue
			switch c := child.(type) {
			case *array.String:
				v = sqlInfoValue{"string", c.Value(off)}
			case *array.Boolean:
				v = sqlInfoValue{"bool", c.Value(off)}
			case *array.Int64:
				v = sqlInfoValue{"int64", c.Value(off)}
			case *array.Int32:
				v = sqlInfoValue{"int32", c.Value(off)}
			case *array.List:
				lo, hi := c.ValueOffsets(off)
				var ss []string
				for j := lo; j < hi; j++ {
					ss = append(ss, c.ListValues().(*array.String).Value(int(j)))
				}
				v = sqlInfoValue{"[]string", ss}
			default:
				v = sqlInfoValue{child.DataType().String(), nil}
			}
			out[flightsql.SqlInfo(names.Value(i))] = v
		}
	}
	return out
}

// TestSqlInfoJDBC: GetSqlInfo answers what the Flight SQL JDBC driver's
// DatabaseMetaData reads for a BI tool such as DBeaver, each in the value
// type FlightSql.proto gives it (the driver casts an int32 ordinal to
// Integer and fails on a Long).
func TestSqlInfoJDBC(t *testing.T) {
	addr, _ := startServer(t, Config{})
	got := getSqlInfo(t, newClient(t, addr))
	want := map[flightsql.SqlInfo]sqlInfoValue{
		flightsql.SqlInfoIdentifierQuoteChar:                  {"string", "`"},
		flightsql.SqlInfoIdentifierCase:                       {"int32", int32(flightsql.SqlCaseSensitivityCaseInsensitive)},
		flightsql.SqlInfoQuotedIdentifierCase:                 {"int32", int32(flightsql.SqlCaseSensitivityCaseInsensitive)},
		flightsql.SqlInfoNullOrdering:                         {"int32", int32(flightsql.SqlNullOrderingSortHigh)},
		flightsql.SqlInfoFlightSqlServerTransaction:           {"int32", int32(flightsql.SqlTransactionNone)},
		flightsql.SqlInfoTransactionsSupported:                {"bool", false},
		flightsql.SqlInfoDefaultTransactionIsolation:          {"int32", int32(transactionNone)},
		flightsql.SqlInfoSupportedTransactionsIsolationlevels: {"int32", int32(0)},
		flightsql.SqlInfoOuterJoinsSupportLevel:               {"int32", int32(outerJoinsLimited)},
		flightsql.SqlInfoSearchStringEscape:                   {"string", `\`},
		flightsql.SqlInfoSchemaTerm:                           {"string", "schema"},
		flightsql.SqlInfoCatalogTerm:                          {"string", "catalog"},
		flightsql.SqlInfoBatchUpdatesSupported:                {"bool", false},
		flightsql.SqlInfoSupportedResultSetTypes:              {"int32", int32(resultSetForwardOnly)},
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || g.kind != w.kind || g.val != w.val {
			t.Errorf("%v: %v %v, want %v %v", id, g.kind, g.val, w.kind, w.val)
		}
	}
	// Every value the JDBC driver's DatabaseMetaData reads is present.
	for id := flightsql.SqlInfoDDLCatalog; id <= flightsql.SqlInfoStoredFunctionsUsingCallSyntaxSupported; id++ {
		if id == flightsql.SqlInfoSupportsConvert || flightsql.SqlInfo(id) == 526 { // no 526 in the enum
			continue
		}
		if _, ok := got[id]; !ok {
			t.Errorf("%v (%d) is not answered", id, int32(id))
		}
	}
	for id, fs := range map[flightsql.SqlInfo][]sqlFunc{flightsql.SqlInfoNumericFunctions: numericFunctions,
		flightsql.SqlInfoStringFunctions: stringFunctions, flightsql.SqlInfoSystemFunctions: systemFunctions,
		flightsql.SqlInfoDateTimeFunctions: dateTimeFunctions} {
		if g := got[id]; g.kind != "[]string" || len(g.val.([]string)) != len(fs) {
			t.Errorf("%v: %v %v", id, g.kind, g.val)
		}
	}
}

// TestSqlInfoClaims: each function GetSqlInfo lists, and each feature it
// claims, plans in gq's SQL.
func TestSqlInfoClaims(t *testing.T) {
	e := newEngine(t)
	plans := func(sql string) {
		t.Helper()
		if _, err := e.Schema(context.Background(), sql); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
	for _, fs := range [][]sqlFunc{numericFunctions, stringFunctions, systemFunctions, dateTimeFunctions} {
		for _, f := range fs {
			plans("select " + f.call)
		}
	}
	for _, sql := range []string{
		// column aliasing, table correlation names, ORDER BY an unrelated
		// column and an expression, GROUP BY beyond and unrelated to the
		// select list
		"select n_name as x from nation as n order by n_regionkey, n_nationkey + 1",
		"select count(*) from nation group by n_regionkey, n_name",
		// subqueries in comparisons, EXISTS and IN, correlated
		"select n_name from nation where n_regionkey = (select max(r_regionkey) from region)",
		"select n_name from nation where exists (select 1 from region where r_regionkey = n_regionkey)",
		"select n_name from nation where n_regionkey in (select r_regionkey from region)",
		// UNION and UNION ALL; LEFT and RIGHT outer joins
		"select 1 union select 2", "select 1 union all select 1",
		"select n_name from nation left join region on n_regionkey = r_regionkey",
		"select n_name from nation right join region on n_regionkey = r_regionkey",
		// NULL + x is NULL
		"select null + 1",
	} {
		plans(sql)
	}
}
