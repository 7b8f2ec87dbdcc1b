package flight

import (
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
)

// xdbcType is one row of GetXdbcTypeInfo: a SQL type gq's columns can
// have, with its JDBC/ODBC type code (java.sql.Types).
type xdbcType struct {
	name          string
	code          int32 // data_type
	sqlCode       int32 // sql_data_type: the code, or 9 (SQL_DATETIME) for dates
	subcode       int32 // datetime_subcode (1: DATE); 0: none
	size          int32 // column_size; 0: none
	prefix        string
	createParams  []string
	fixedPrec     bool
	minSc, maxSc  int32
	caseSensitive bool
}

var xdbcTypes = []xdbcType{
	{name: "BOOLEAN", code: 16, sqlCode: 16, size: 1},
	{name: "BIGINT", code: -5, sqlCode: -5, size: 19, fixedPrec: true},
	{name: "DECIMAL", code: 3, sqlCode: 3, size: 38, createParams: []string{"precision", "scale"}, fixedPrec: true, maxSc: 38},
	{name: "DOUBLE", code: 8, sqlCode: 8, size: 15},
	{name: "VARCHAR", code: 12, sqlCode: 12, prefix: "'", caseSensitive: true},
	{name: "DATE", code: 91, sqlCode: 9, subcode: 1, size: 10, prefix: "DATE '"},
}

func (t xdbcType) append(b *array.RecordBuilder) {
	str := func(i int, v string) {
		if v == "" {
			b.Field(i).AppendNull()
			return
		}
		b.Field(i).(*array.StringBuilder).Append(v)
	}
	i32 := func(i int, v int32, null bool) {
		if null {
			b.Field(i).AppendNull()
			return
		}
		b.Field(i).(*array.Int32Builder).Append(v)
	}
	str(0, t.name)
	i32(1, t.code, false)
	i32(2, t.size, t.size == 0)
	str(3, t.prefix)
	suffix := ""
	if t.prefix != "" {
		suffix = "'"
	}
	str(4, suffix)
	if lb := b.Field(5).(*array.ListBuilder); t.createParams == nil {
		lb.AppendNull()
	} else {
		lb.Append(true)
		lb.ValueBuilder().(*array.StringBuilder).AppendValues(t.createParams, nil)
	}
	i32(6, 1, false) // nullable: columns may hold NULL
	b.Field(7).(*array.BooleanBuilder).Append(t.caseSensitive)
	i32(8, 3, false) // searchable: in every WHERE clause
	b.Field(9).(*array.BooleanBuilder).Append(false)
	b.Field(10).(*array.BooleanBuilder).Append(t.fixedPrec)
	b.Field(11).(*array.BooleanBuilder).Append(false)
	str(12, t.name)
	numeric := t.fixedPrec
	i32(13, t.minSc, !numeric)
	i32(14, t.maxSc, !numeric)
	i32(15, t.sqlCode, false)
	i32(16, t.subcode, t.subcode == 0)
	i32(17, 10, !(numeric || t.code == 8))
	b.Field(18).AppendNull()
}

// registerSqlInfo answers GetSqlInfo: the server's identity and what a
// JDBC driver asks of the SQL dialect (quoting, case, grammar level).
func (s *Server) registerSqlInfo() error {
	version := s.cfg.Version
	if version == "" {
		version = "unknown"
	}
	// Keywords beyond SQL-92 that gq's dialect reserves.
	keywords := []string{"ANALYZE", "DESCRIBE", "EXPLAIN", "INTERVAL", "LIMIT", "SHOW"}
	infos := []struct {
		id  flightsql.SqlInfo
		val any
	}{
		{flightsql.SqlInfoFlightSqlServerName, "gq"},
		{flightsql.SqlInfoFlightSqlServerVersion, version},
		{flightsql.SqlInfoFlightSqlServerArrowVersion, "18.8.0"},
		{flightsql.SqlInfoFlightSqlServerReadOnly, false},
		{flightsql.SqlInfoFlightSqlServerSql, true},
		{flightsql.SqlInfoFlightSqlServerSubstrait, false},
		{flightsql.SqlInfoFlightSqlServerTransaction, int32(flightsql.SqlTransactionNone)},
		{flightsql.SqlInfoFlightSqlServerCancel, true},
		{flightsql.SqlInfoFlightSqlServerBulkIngestion, false},
		{flightsql.SqlInfoFlightSqlServerStatementTimeout, int32(s.cfg.QueryTimeout.Seconds())},
		{flightsql.SqlInfoDDLCatalog, false},
		{flightsql.SqlInfoDDLSchema, false},
		{flightsql.SqlInfoDDLTable, true},
		{flightsql.SqlInfoIdentifierCase, int64(flightsql.SqlCaseSensitivityCaseInsensitive)},
		{flightsql.SqlInfoQuotedIdentifierCase, int64(flightsql.SqlCaseSensitivityCaseInsensitive)},
		{flightsql.SqlInfoIdentifierQuoteChar, "`"},
		{flightsql.SqlInfoAllTablesAreASelectable, true},
		// ASC puts NULLs last, DESC first: NULL sorts high.
		{flightsql.SqlInfoNullOrdering, int64(flightsql.SqlNullOrderingSortHigh)},
		{flightsql.SqlInfoKeywords, keywords},
		{flightsql.SqlInfoSearchStringEscape, "\\"},
		{flightsql.SqlInfoSupportsColumnAliasing, true},
		// SQL_MINIMUM_GRAMMAR and SQL_CORE_GRAMMAR; ANSI92 entry level.
		{flightsql.SqlInfoSupportedGrammar, int32(0b011)},
		{flightsql.SqlInfoANSI92SupportedLevel, int32(0b001)},
		{flightsql.SqlInfoTransactionsSupported, false},
	}
	for _, in := range infos {
		if err := s.RegisterSqlInfo(in.id, in.val); err != nil {
			return err
		}
	}
	return nil
}
