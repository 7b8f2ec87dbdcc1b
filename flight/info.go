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
	{name: "DECIMAL", code: 3, sqlCode: 3, size: maxDecimalDigits, createParams: []string{"precision", "scale"}, fixedPrec: true, maxSc: maxDecimalDigits},
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

// Functions a BI tool lists (JDBC's getNumericFunctions and the like),
// each with a call that plans (TestSqlInfoFunctions runs them), so that a
// name the engine does not know never gets listed.
var (
	numericFunctions = []sqlFunc{
		{"ABS", "abs(-1)"}, {"CEIL", "ceil(1.5)"}, {"CEILING", "ceiling(1.5)"}, {"FLOOR", "floor(1.5)"},
		{"MOD", "mod(7, 3)"}, {"ROUND", "round(1.25, 1)"}, {"SQRT", "sqrt(4)"},
	}
	stringFunctions = []sqlFunc{
		{"CHAR_LENGTH", "char_length('ab')"}, {"CHARACTER_LENGTH", "character_length('ab')"},
		{"CONCAT", "concat('a', 'b')"}, {"LCASE", "lcase('A')"}, {"LENGTH", "length('ab')"},
		{"LOWER", "lower('A')"}, {"LTRIM", "ltrim(' a')"}, {"MID", "mid('abc', 2, 1)"},
		{"RTRIM", "rtrim('a ')"}, {"SUBSTR", "substr('abc', 2)"}, {"SUBSTRING", "substring('abc', 2, 1)"},
		{"TRIM", "trim(' a ')"}, {"UCASE", "ucase('a')"}, {"UPPER", "upper('a')"},
	}
	systemFunctions = []sqlFunc{
		{"COALESCE", "coalesce(null, 1)"}, {"IF", "if(1 = 1, 'a', 'b')"}, {"IFNULL", "ifnull(null, 1)"},
		{"NULLIF", "nullif(1, 1)"},
	}
	dateTimeFunctions = []sqlFunc{
		{"ADDDATE", "adddate(date '2020-01-02', 1)"}, {"DATEDIFF", "datediff(date '2020-01-02', date '2020-01-01')"},
		{"DAY", "day(date '2020-01-02')"}, {"DAYOFMONTH", "dayofmonth(date '2020-01-02')"},
		{"EXTRACT", "extract(year from date '2020-01-02')"}, {"MONTH", "month(date '2020-01-02')"},
		{"QUARTER", "quarter(date '2020-01-02')"}, {"SUBDATE", "subdate(date '2020-01-02', 1)"},
		{"YEAR", "year(date '2020-01-02')"},
	}
)

// sqlFunc is a function's name and a call of it.
type sqlFunc struct{ name, call string }

func funcNames(fs []sqlFunc) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// Bits of the SqlInfo bitmasks and ordinals gq reports (FlightSql.proto's
// enums, which arrow-go does not name): the flag is set for what gq's SQL
// accepts, checked by TestSqlInfoClaims.
const (
	groupByUnrelated    = 1 << 0 // SQL_GROUP_BY_UNRELATED
	groupByBeyondSelect = 1 << 1 // SQL_GROUP_BY_BEYOND_SELECT

	subqueriesInComparisons = 1 << 0 // SQL_SUBQUERIES_IN_COMPARISONS
	subqueriesInExists      = 1 << 1 // SQL_SUBQUERIES_IN_EXISTS
	subqueriesInIns         = 1 << 2 // SQL_SUBQUERIES_IN_INS

	unionDistinct = 1 << 0 // SQL_UNION
	unionAll      = 1 << 1 // SQL_UNION_ALL

	outerJoinsLimited = 1 // SQL_LIMITED_OUTER_JOINS: LEFT and RIGHT, no FULL

	resultSetForwardOnly = 1 << 1 // SQL_RESULT_SET_TYPE_FORWARD_ONLY
	concurrencyReadOnly  = 1 << 1 // SQL_RESULT_SET_CONCURRENCY_READ_ONLY

	transactionNone = 0 // SQL_TRANSACTION_NONE
)

// registerSqlInfo answers GetSqlInfo: the server's identity and what a
// JDBC driver asks of the SQL dialect for DatabaseMetaData (quoting,
// case, keywords, functions, grammar, what it supports). The Flight SQL
// JDBC driver casts each value to the Java type FlightSql.proto gives it
// (an int32 ordinal is an Integer, never a Long) and fails on one that is
// missing, so every value a BI tool such as DBeaver reads is here, typed
// as the proto says.
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
		{flightsql.SqlInfoIdentifierCase, int32(flightsql.SqlCaseSensitivityCaseInsensitive)},
		{flightsql.SqlInfoQuotedIdentifierCase, int32(flightsql.SqlCaseSensitivityCaseInsensitive)},
		{flightsql.SqlInfoIdentifierQuoteChar, "`"},
		{flightsql.SqlInfoAllTablesAreASelectable, true},
		// ASC puts NULLs last, DESC first: NULL sorts high.
		{flightsql.SqlInfoNullOrdering, int32(flightsql.SqlNullOrderingSortHigh)},
		{flightsql.SqlInfoKeywords, keywords},
		{flightsql.SqlInfoNumericFunctions, funcNames(numericFunctions)},
		{flightsql.SqlInfoStringFunctions, funcNames(stringFunctions)},
		{flightsql.SqlInfoSystemFunctions, funcNames(systemFunctions)},
		{flightsql.SqlInfoDateTimeFunctions, funcNames(dateTimeFunctions)},
		{flightsql.SqlInfoSearchStringEscape, "\\"},
		{flightsql.SqlInfoExtraNameChars, ""},
		{flightsql.SqlInfoSupportsColumnAliasing, true},
		{flightsql.SqlInfoNullPlusNullIsNull, true},
		{flightsql.SqlInfoSupportsTableCorrelationNames, true},
		{flightsql.SqlInfoSupportsDifferentTableCorrelationNames, false},
		{flightsql.SqlInfoSupportsExpressionsInOrderBy, true},
		{flightsql.SqlInfoSupportsOrderByUnrelated, true},
		{flightsql.SqlInfoSupportedGroupBy, int32(groupByUnrelated | groupByBeyondSelect)},
		// LIKE takes no ESCAPE clause but the default backslash.
		{flightsql.SqlInfoSupportsLikeEscapeClause, false},
		{flightsql.SqlInfoSupportsNonNullableColumns, false},
		// SQL_MINIMUM_GRAMMAR and SQL_CORE_GRAMMAR; ANSI92 entry level.
		{flightsql.SqlInfoSupportedGrammar, int32(0b011)},
		{flightsql.SqlInfoANSI92SupportedLevel, int32(0b001)},
		{flightsql.SqlInfoSupportsIntegrityEnhancementFacility, false},
		{flightsql.SqlInfoOuterJoinsSupportLevel, int32(outerJoinsLimited)},
		{flightsql.SqlInfoSchemaTerm, "schema"},
		{flightsql.SqlInfoProcedureTerm, "procedure"},
		{flightsql.SqlInfoCatalogTerm, "catalog"},
		{flightsql.SqlInfoCatalogAtStart, false},
		{flightsql.SqlInfoSchemasSupportedActions, int32(0)},
		{flightsql.SqlInfoCatalogsSupportedActions, int32(0)},
		{flightsql.SqlInfoSupportedPositionedCommands, int32(0)},
		{flightsql.SqlInfoSelectForUpdateSupported, false},
		{flightsql.SqlInfoStoredProceduresSupported, false},
		{flightsql.SqlInfoSupportedSubqueries, int32(subqueriesInComparisons | subqueriesInExists | subqueriesInIns)},
		{flightsql.SqlInfoCorrelatedSubqueriesSupported, true},
		{flightsql.SqlInfoSupportedUnions, int32(unionDistinct | unionAll)},
		// 0: no limit of gq's own, but a statement's size.
		{flightsql.SqlInfoMaxBinaryLiteralLen, int64(0)},
		{flightsql.SqlInfoMaxCharLiteralLen, int64(0)},
		{flightsql.SqlInfoMaxColumnNameLen, int64(0)},
		{flightsql.SqlInfoMaxColumnsInGroupBy, int64(0)},
		{flightsql.SqlInfoMaxColumnsInIndex, int64(0)},
		{flightsql.SqlInfoMaxColumnsInOrderBy, int64(0)},
		{flightsql.SqlInfoMaxColumnsInSelect, int64(0)},
		{flightsql.SqlInfoMaxColumnsInTable, int64(0)},
		{flightsql.SqlInfoMaxConnections, int64(0)},
		{flightsql.SqlInfoMaxCursorNameLen, int64(0)},
		{flightsql.SqlInfoMaxIndexLen, int64(0)},
		{flightsql.SqlInfoDBSchemaNameLen, int64(0)},
		{flightsql.SqlInfoMaxProcedureNameLen, int64(0)},
		{flightsql.SqlInfoMaxCatalogNameLen, int64(0)},
		{flightsql.SqlInfoMaxRowSize, int64(0)},
		{flightsql.SqlInfoMaxRowSizeIncludesBlobs, false},
		{flightsql.SqlInfoMaxStatementLen, s.cfg.MaxStatementBytes},
		{flightsql.SqlInfoMaxStatements, int64(s.cfg.MaxPrepared)},
		{flightsql.SqlInfoMaxTableNameLen, int64(0)},
		{flightsql.SqlInfoMaxTablesInSelect, int64(0)},
		{flightsql.SqlInfoMaxUsernameLen, int64(0)},
		{flightsql.SqlInfoDefaultTransactionIsolation, int32(transactionNone)},
		{flightsql.SqlInfoTransactionsSupported, false},
		{flightsql.SqlInfoSupportedTransactionsIsolationlevels, int32(0)},
		{flightsql.SqlInfoDataDefinitionCausesTransactionCommit, false},
		{flightsql.SqlInfoDataDefinitionsInTransactionsIgnored, false},
		{flightsql.SqlInfoSupportedResultSetTypes, int32(resultSetForwardOnly)},
		{flightsql.SqlInfoSupportedConcurrenciesForResultSetUnspecified, int32(concurrencyReadOnly)},
		{flightsql.SqlInfoSupportedConcurrenciesForResultSetForwardOnly, int32(concurrencyReadOnly)},
		{flightsql.SqlInfoSupportedConcurrenciesForResultSetScrollSensitive, int32(0)},
		{flightsql.SqlInfoSupportedConcurrenciesForResultSetScrollInsensitive, int32(0)},
		{flightsql.SqlInfoBatchUpdatesSupported, false},
		{flightsql.SqlInfoSavePointsSupported, false},
		{flightsql.SqlInfoNamedParametersSupported, false},
		{flightsql.SqlInfoLocatorsUpdateCopy, false},
		{flightsql.SqlInfoStoredFunctionsUsingCallSyntaxSupported, false},
	}
	for _, in := range infos {
		if err := s.RegisterSqlInfo(in.id, in.val); err != nil {
			return err
		}
	}
	return nil
}
