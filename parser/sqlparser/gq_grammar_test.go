package sqlparser

// gq: this file is gq's, not upstream's (see UPSTREAM.md): tests of gq's
// grammar changes.

import (
	"strings"
	"testing"
)

func gqParse(t *testing.T, sql string) Statement {
	t.Helper()
	stmt, err := NewTestParser().Parse(sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return stmt
}

// TestGQGrammarFormat parses each statement, checks its canonical text, and
// that the text parses back to an equal tree.
func TestGQGrammarFormat(t *testing.T) {
	cases := []struct{ in, out string }{
		// ALL in aggregates is the default quantifier: the same tree as none.
		{"select count(all a), sum(all a), min(all a), max(all a), avg(all a) from t",
			"select count(a), sum(a), min(a), max(a), avg(a) from t"},
		{"select bit_and(all a), bit_or(all a), bit_xor(all a), std(all a), stddev(all a), stddev_pop(all a), stddev_samp(all a), var_pop(all a), var_samp(all a), variance(all a) from t",
			"select bit_and(a), bit_or(a), bit_xor(a), std(a), stddev(a), stddev_pop(a), stddev_samp(a), var_pop(a), var_samp(a), variance(a) from t"},
		{"select count(all a, b), group_concat(all a) from t", "select count(a, b), group_concat(a) from t"},
		{"select count(distinct a), sum(distinct a) from t", "select count(distinct a), sum(distinct a) from t"},
		{"select count(all a) over (partition by b) from t", "select count(a) over ( partition by b) from t"},

		// One WINDOW clause, definitions separated by commas (MySQL's form).
		{"select sum(a) over w, max(a) over (w2 rows 1 preceding) from t window w as (partition by c), w2 as (w order by d)",
			"select sum(a) over w, max(a) over ( w2 rows 1 preceding) from t window w AS ( partition by c), w2 AS ( w order by d asc)"},

		// DuckDB's type names in CAST; timestamptz stays usable as a name.
		{"select cast(a as timestamp), cast(a as timestamptz), cast(a as interval), timestamptz from t",
			"select cast(a as timestamp), cast(a as timestamptz), cast(a as interval), `timestamptz` from t"},

		// TIMESTAMP WITH TIME ZONE is timestamptz; x::type is a CAST that
		// binds tighter than unary minus; EXTRACT of a non-MySQL part is
		// date_part.
		{"select cast(a as timestamp with time zone), a::int, -a::decimal(10, 2), a::decimal(5)::varchar, extract(epoch from a), extract(day from a) from t",
			"select cast(a as timestamptz), cast(a as signed), -cast(a as decimal(10, 2)), cast(cast(a as decimal(5)) as char), date_part('epoch', a), extract(day from a) from t"},
		// INTERVAL 'text' naming its units (DuckDB's); a string without a
		// letter, or one a unit follows, is MySQL's INTERVAL expr unit.
		{"select interval '3 days', interval '1 day 2 hours' + a, interval  '1:30' hour_minute, interval '2 x' day, date_add(a, interval '1' day) from t",
			"select interval '3 days', interval '1 day 2 hours' + a, interval '1:30' hour_minute, interval '2 x' day, date_add(a, interval '1' day) from t"},
		// INTERVAL n unit on its own, and after + and - as upstream's trees.
		{"select interval 3 day, interval '90' minute + interval 1 day, a + interval 1 day, a - interval 2 hour, interval 1 month + a from t",
			"select interval 3 day, interval '90' minute + interval 1 day, a + interval 1 day, a - interval 2 hour, interval 1 month + a from t"},

		// DuckDB's list and struct literals and subscripts: list_value and
		// list_extract calls; a subscript binds tighter than unary minus.
		{"select [1, a + 2, null], [], [[1], []], {'k': a, b: [1]}, a[1], -a[2][3], [1, 2][a] from t",
			"select list_value(1, a + 2, null), list_value(), list_value(list_value(1), list_value()), {'k': a, 'b': list_value(1)}, list_extract(a, 1), -list_extract(list_extract(a, 2), 3), list_extract(list_value(1, 2), a) from t"},
		{"insert into t select {'a': {'b': 1}}, [{'x': 2}]",
			"insert into t select {'a': {'b': 1}}, list_value({'x': 2}) from dual"},
		// CAST to DuckDB's type names; TRY_CAST is a call of the cast.
		{"select cast(a as varchar), cast(a as varchar(3)), cast(a as text), cast(a as bigint), cast(a as integer), cast(a as int), cast(a as boolean), cast(a as bool), try_cast(a as double) from t",
			"select cast(a as varchar), cast(a as varchar(3)), cast(a as text), cast(a as bigint), cast(a as integer), cast(a as int), cast(a as boolean), cast(a as boolean), try_cast(cast(a as double)) from t"},
		// Ordered-set aggregates: WITHIN GROUP (ORDER BY x) is the
		// aggregate's own ORDER BY.
		{"select percentile_cont(0.5) within group (order by a desc), mode() within group (order by b) filter (where c > 1) from t",
			"select percentile_cont(0.5 order by a desc), mode(b order by b asc) filter (where c > 1) from t"},
		// GROUPING SETS, ROLLUP, CUBE, GROUPING(…); within stays a name.
		{"select a, grouping(a, b), within from t group by grouping sets ((a, b), (a), ()), rollup(a), cube(b)",
			"select a, grouping(a, b), `within` from t group by grouping sets ((a, b), a, ()), rollup(a), cube(b)"},
		{"select a from t group by a, b with rollup", "select a from t group by a, b with rollup"},
		// DuckDB's FROM 'file' is the table `file`.
		{"select * from 'x/y.parquet' as p", "select * from `x/y.parquet` as p"},

		// EXCEPT and INTERSECT: DISTINCT is the default.
		{"select a from t except select a from u", "select a from t except select a from u"},
		{"select a from t except distinct select a from u", "select a from t except select a from u"},
		{"select a from t except all select a from u", "select a from t except all select a from u"},
		{"select a from t intersect select a from u", "select a from t intersect select a from u"},
		{"select a from t intersect all select a from u", "select a from t intersect all select a from u"},
		{"(select a from t) except (select a from u) order by a limit 3",
			"select a from t except select a from u order by a asc limit 3"},
		{"select 1 from dual union select 2 from dual intersect select 3 from dual",
			"select 1 from dual union select 2 from dual intersect select 3 from dual"},
		{"select 1 from dual except (select 2 from dual except select 3 from dual)",
			"select 1 from dual except (select 2 from dual except select 3 from dual)"},
		{"(select 1 from dual union select 2 from dual) intersect select 3 from dual",
			"(select 1 from dual union select 2 from dual) intersect select 3 from dual"},
		{"select 1 from dual union all (select 2 from dual union select 3 from dual)",
			"select 1 from dual union all (select 2 from dual union select 3 from dual)"},
		{"with c as (select a from t) select a from c except select a from u",
			"with c as (select a from t) select a from c except select a from u"},
		{"select a from t where a in (select a from u intersect select a from v)",
			"select a from t where a in (select a from u intersect select a from v)"},
		{"select * from (select a from t except select a from u) as d", "select * from (select a from t except select a from u) as d"},
		{"select `except`, `intersect` from t", "select `except`, `intersect` from t"},

		// VALUES rows without ROW: in parentheses, after UNION/EXCEPT, in
		// FROM (DuckDB's form); printed in MySQL's ROW form.
		{"select * from (values (1, 'a'), (2, 'b')) t(x, y)", "select * from (values row(1, 'a'), row(2, 'b')) as t(x, y)"},
		{"with t (a) as (values (1), (2)) select a from t", "with t(a) as (values row(1), row(2)) select a from t"},
		{"select 1 from dual union all values (2), (3)", "select 1 from dual union all values row(2), row(3)"},
		{"select a from t except values (1)", "select a from t except values row(1)"},
		{"select x from values (1), (2) as t(x)", "select x from (values row(1), row(2)) as t(x)"},
		{"select * from (values row(1, 2)) as t", "select * from (values row(1, 2)) as t"},
		// Window frame EXCLUDE (NO OTHERS, the default, prints nothing).
		{"select sum(a) over (order by b rows between 1 preceding and 1 following exclude current row) from t",
			"select sum(a) over ( order by b asc rows between 1 preceding and 1 following exclude current row) from t"},
		// Frame offsets that are columns or parenthesised expressions
		// (DuckDB's per-row offsets); the latter print in parentheses.
		{"select sum(a) over (order by b rows between p preceding and t.f following) from t",
			"select sum(a) over ( order by b asc rows between p preceding and t.f following) from t"},
		{"select sum(a) over (order by b rows between (p + 1) preceding and (f) following), sum(a) over (order by b rows (2) preceding) from t",
			"select sum(a) over ( order by b asc rows between (p + 1) preceding and f following), sum(a) over ( order by b asc rows 2 preceding) from t"},
		{"select sum(a) over (order by b rows between `unbounded` preceding and unbounded following) from t",
			"select sum(a) over ( order by b asc rows between `unbounded` preceding and unbounded following) from t"},
		{"select sum(a) over (order by b range unbounded preceding exclude group), sum(a) over (order by b rows current row exclude ties) from t",
			"select sum(a) over ( order by b asc range unbounded preceding exclude group), sum(a) over ( order by b asc rows current row exclude ties) from t"},
		{"select sum(a) over (order by b rows 2 preceding exclude no others) from t", "select sum(a) over ( order by b asc rows 2 preceding) from t"},
		// GROUPS frames; GROUPS stays reserved.
		{"select sum(a) over (order by b groups between 1 preceding and current row exclude ties), count(*) over (order by b groups 2 preceding), `groups` from t",
			"select sum(a) over ( order by b asc groups between 1 preceding and current row exclude ties), count(*) over ( order by b asc groups 2 preceding), `groups` from t"},
		// nth_value's n: any expression (DuckDB's per-row n).
		{"select nth_value(a, b + 1) over w, nth_value(trim('abc'), -10) over w, nth_value(a, case when b then 2 end order by c) over w from t",
			"select nth_value(a, b + 1) over w, nth_value(trim('abc'), -10) over w, nth_value(a, case when b then 2 end order by c asc) over w from t"},
		// QUALIFY after the WINDOW clause.
		{"select a, row_number() over w as rn from t window w as (order by b) qualify rn = 1 order by a",
			"select a, row_number() over w as rn from t window w AS ( order by b asc) qualify rn = 1 order by a asc"},
		// range(…), named by a reserved word.
		{"select * from range(1, 10, 2) r(i)", "select * from `range`(1, 10, 2) as r(i)"},

		// FULL [OUTER] JOIN
		{"select * from a full join b on a.x = b.x", "select * from a full outer join b on a.x = b.x"},
		{"select * from a full outer join b using (x)", "select * from a full outer join b using (x)"},
		{"select * from a as full join b on 1", "select * from a as `full` join b on 1"},
		{"select * from a x full outer join b y on x.k = y.k", "select * from a as x full outer join b as y on x.k = y.k"},
		{"show full tables", "show full tables"},

		// NULLS FIRST / NULLS LAST
		{"select a from t order by a nulls first, b desc nulls last, c asc",
			"select a from t order by a asc nulls first, b desc nulls last, c asc"},
		{"select row_number() over (order by a desc nulls first) from t",
			"select row_number() over ( order by a desc nulls first) from t"},
		{"select nulls from t", "select `nulls` from t"},

		// FILTER (WHERE …) is the aggregate over CASE WHEN cond THEN arg END.
		{"select count(*) filter (where a > 1) from t", "select count(case when a > 1 then 1 end) from t"},
		{"select sum(b) filter (where c = 'x'), count(distinct b) filter (where c) from t",
			"select sum(case when c = 'x' then b end), count(distinct case when c then b end) from t"},
		{"select min(all b) filter (where c) over () from t", "select min(case when c then b end) over () from t"},
		{"select filter from t", "select `filter` from t"},
		{"select a as filter from t", "select a as `filter` from t"},

		// aggregates without a rule of their own: OVER, DISTINCT, ORDER BY
		{"select median(a) over (partition by b) from t", "select median(a) over ( partition by b) from t"},
		{"select string_agg(distinct a, ';') from t", "select string_agg(distinct a, ';') from t"},
		{"select string_agg(a, ',' order by b desc, c) over w from t", "select string_agg(a, ',' order by b desc, c asc) over w from t"},
		// window functions with an ORDER BY of their own (DuckDB's)
		{"select rank(order by a desc) over w, cume_dist(order by a) over () from t", "select rank(order by a desc) over w, cume_dist(order by a asc) over () from t"},
		{"select ntile(2 order by a) over w, nth_value(b, 2 order by a) over w from t", "select ntile(2 order by a asc) over w, nth_value(b, 2 order by a asc) over w from t"},
		{"select lead(b, 1, null order by a) over w, lag(b order by a) over w from t", "select lead(b, 1, null order by a asc) over w, lag(b order by a asc) over w from t"},
		{"select first_value(b order by a) ignore nulls over w from t", "select first_value(b order by a asc) ignore nulls over w from t"},
		{"select any_value(a) over () from t", "select any_value(a) over () from t"},
		{"select median(a) filter (where b > 1) over (partition by c), mode(a) filter (where b) from t", "select median(a) filter (where b > 1) over ( partition by c), mode(a) filter (where b) from t"},
		{"select string_agg(distinct a, ',' order by a) filter (where b) from t", "select string_agg(distinct a, ',' order by a asc) filter (where b) from t"},
		{"select f(a) from t", "select f(a) from t"},

		// IS [NOT] DISTINCT FROM is <=>
		{"select a is not distinct from b, a is distinct from b + 1 from t", "select a <=> b, not a <=> b + 1 from t"},
		{"select a from t where a is distinct from null and b = 1", "select a from t where not a <=> null and b = 1"},

		// ILIKE
		{"select a from t where a ilike 'x%'", "select a from t where a ilike 'x%'"},
		{"select a from t where a not ilike 'x%' escape '!'", "select a from t where a not ilike 'x%' escape '!'"},
		{"select a ilike 'x' and b like 'y' from t", "select a ilike 'x' and b like 'y' from t"},
		{"select ilike from t", "select `ilike` from t"},

		// Table functions in FROM; name = value and name => value are the
		// same named argument.
		{"select * from read_csv('x.csv')", "select * from read_csv('x.csv')"},
		{"select * from read_csv('x.csv', delim = ';', header => true, skip = 2 + 1) as t(a, b)",
			"select * from read_csv('x.csv', delim => ';', `header` => true, `skip` => 2 + 1) as t(a, b)"},
		{"select * from read_csv('d/*.csv', columns = {'a': 'BIGINT', 'b': 'VARCHAR'}) t",
			"select * from read_csv('d/*.csv', `columns` => {'a': 'BIGINT', 'b': 'VARCHAR'}) as t"},
		{"select * from read_csv('x.csv', types => {a: 'DATE'}, all_varchar = false)",
			"select * from read_csv('x.csv', types => {'a': 'DATE'}, all_varchar => false)"},
		{"select * from READ_PARQUET('p/*/*.parquet', hive_partitioning = 1) r join t on r.a = t.a",
			"select * from READ_PARQUET('p/*/*.parquet', hive_partitioning => 1) as r join t on r.a = t.a"},
		{"select * from read_csv('x.csv', 'y', t.a = 1)", "select * from read_csv('x.csv', 'y', t.a = 1)"},
		{"select * from t, read_parquet('x.parquet') as p", "select * from t, read_parquet('x.parquet') as p"},
		{"select * from (select 1 from dual) as d(a), t as u", "select * from (select 1 from dual) as d(a), t as u"},
		{"select * from `data/x.csv` where a = 1", "select * from `data/x.csv` where a = 1"},
		{"describe read_csv('x.csv', header = false)", "explain read_csv('x.csv', `header` => false)"},
		{"desc `data/x.csv`", "explain `data/x.csv`"},
		{"describe t", "explain t"},
		{"select * from read_csv('x.csv', header := false)", "select * from read_csv('x.csv', `header` => false)"},
		// A name with arguments in FROM is a table function, known or not.
		{"select * from t (a)", "select * from t(a)"},

		// || concatenates: below + and *, above comparisons.
		{"select 'a' || b || 1 + 2 * c, a = b || c, (a || b) = c, a | b || c from t",
			"select 'a' || b || 1 + 2 * c, a = b || c, a || b = c, a | b || c from t"},
		// DuckDB's named arguments of lag and lead, in any order.
		{"select lead(`offset` := 2, col := c1) over w, lag(col := a, `default` := 0) over w, lead(col => a) over (order by b) from t",
			"select lead(c1, 2) over w, lag(a, 1, 0) over w, lead(a) over ( order by b asc) from t"},

		// DuckDB's FILTER (cond) without WHERE.
		{"select sum(a) filter (a > 1), count(*) filter (b), median(a) filter (a > 1) over w from t",
			"select sum(case when a > 1 then a end), count(case when b then 1 end), median(a) filter (where a > 1) over w from t"},
		// Plural interval units.
		{"select interval 3 days, a + interval 2 Hours, sum(a) over (order by d range between interval 1 weeks preceding and interval 0 days following) from t",
			"select interval 3 day, a + interval 2 hour, sum(a) over ( order by d asc range between interval 1 week preceding and interval 0 day following) from t"},
		// AS next.
		{"select lead(a) over w as next from t", "select lead(a) over w as `next` from t"},
		// An alias on a parenthesised join is a derived table.
		{"select * from (a cross join b) p, (c join d on c.x = d.x) as q (x, y) where p.x = 1",
			"select * from (select * from a join b) as p, (select * from c join d on c.x = d.x) as q(x, y) where p.x = 1"},
		{"select * from (a join b on 1) full join c on 1", "select * from (a join b on 1) full outer join c on 1"},
		// DuckDB's FROM-first query without a select list.
		{"with c as (select 1 as a from dual) from c where a = 1 order by a", "with c as (select 1 as a from dual) select * from c where a = 1 order by a asc"},
		{"select x from (from t join u on t.a = u.a) as s", "select x from (select * from t join u on t.a = u.a) as s"},

		// COPY … TO
		{"copy (select a from t) to 'x.parquet'", "copy (select a from t) to 'x.parquet'"},
		{"COPY (select a from t where b > 1) TO 'x.csv' (FORMAT csv, HEADER false, DELIMITER ';')",
			"copy (select a from t where b > 1) to 'x.csv' (`FORMAT` `csv`, `HEADER` false, DELIMITER ';')"},
		{"copy t to 'out/t.json' (format json)", "copy t to 'out/t.json' (`format` `json`)"},
		{"copy (select 1 from dual union select 2 from dual order by 1) to 'x.csv' (header)",
			"copy (select 1 from dual union select 2 from dual order by 1 asc) to 'x.csv' (`header`)"},
		{"copy (with c as (select 1 as a from dual) select a from c) to 'x.csv' (format 'csv', header 1)",
			"copy (with c as (select 1 as a from dual) select a from c) to 'x.csv' (`format` 'csv', `header` 1)"},
	}
	for _, c := range cases {
		stmt := gqParse(t, c.in)
		got := String(stmt)
		if got != c.out {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.out)
			continue
		}
		again := gqParse(t, got)
		if !Equals.SQLNode(stmt, again) {
			t.Errorf("%s: its text %q parses to a different tree", c.in, got)
		}
	}
}

func TestGQSetOpPrecedence(t *testing.T) {
	// shape renders a set-operation tree with explicit grouping.
	var shape func(TableStatement) string
	shape = func(s TableStatement) string {
		switch n := s.(type) {
		case *Union:
			q := ""
			if !n.Distinct {
				q = " all"
			}
			return "(" + shape(n.Left) + " " + n.Type.ToString() + q + " " + shape(n.Right) + ")"
		case *Select:
			return String(n.SelectExprs)
		}
		return "?"
	}
	cases := []struct{ in, want string }{
		{"select 1 union select 2 intersect select 3", "(1 union (2 intersect 3))"},
		{"select 1 intersect select 2 union select 3", "((1 intersect 2) union 3)"},
		{"select 1 except select 2 union all select 3", "((1 except 2) union all 3)"},
		{"select 1 union select 2 except select 3", "((1 union 2) except 3)"},
		{"select 1 except select 2 intersect all select 3 intersect select 4", "(1 except ((2 intersect all 3) intersect 4))"},
		{"(select 1 union select 2) intersect select 3", "((1 union 2) intersect 3)"},
		{"select 1 intersect (select 2 except select 3)", "(1 intersect (2 except 3))"},
		{"(select 1) intersect (select 2) except (select 3)", "((1 intersect 2) except 3)"},
	}
	for _, c := range cases {
		got := shape(gqParse(t, c.in).(TableStatement))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestGQGrammarTrees(t *testing.T) {
	sel := gqParse(t, "select * from a full join b on a.x = b.x").(*Select)
	if j := sel.From[0].(*JoinTableExpr); j.Join != FullOuterJoinType {
		t.Errorf("full join: join type %v", j.Join)
	}
	// MySQL would read "full" as a's alias and inner-join; gq must not.
	sel = gqParse(t, "select * from a full join b on 1").(*Select)
	if j, ok := sel.From[0].(*JoinTableExpr); !ok || j.Join != FullOuterJoinType || !j.LeftExpr.(*AliasedTableExpr).As.IsEmpty() {
		t.Errorf("a full join b: %s", String(sel))
	}
	sel = gqParse(t, "select a from t order by a desc nulls first, b").(*Select)
	if o := sel.OrderBy; o[0].Nulls != NullsFirst || o[0].Direction != DescOrder || o[1].Nulls != DefaultNulls {
		t.Errorf("nulls first: %s", String(o))
	}
	sel = gqParse(t, "select a from t where a not ilike 'x'").(*Select)
	if c := sel.Where.Expr.(*ComparisonExpr); c.Operator != NotILikeOp {
		t.Errorf("not ilike: operator %v", c.Operator)
	}
	sel = gqParse(t, "select count(*) filter (where a), count(*) from t").(*Select)
	if _, ok := sel.SelectExprs.Exprs[0].(*AliasedExpr).Expr.(*Count); !ok {
		t.Errorf("count(*) filter: %T", sel.SelectExprs.Exprs[0].(*AliasedExpr).Expr)
	}
	if _, ok := sel.SelectExprs.Exprs[1].(*AliasedExpr).Expr.(*CountStar); !ok {
		t.Errorf("count(*): %T", sel.SelectExprs.Exprs[1].(*AliasedExpr).Expr)
	}
	sel = gqParse(t, "select a + interval 1 day, interval 2 day + a, a - interval 3 day, interval 4 day from t").(*Select)
	for i, want := range []IntervalExprSyntax{IntervalDateExprBinaryAdd, IntervalDateExprBinaryAddLeft, IntervalDateExprBinarySub, IntervalDateExprStandalone} {
		if iv, ok := sel.SelectExprs.Exprs[i].(*AliasedExpr).Expr.(*IntervalDateExpr); !ok || iv.Syntax != want || (iv.Date == nil) != (want == IntervalDateExprStandalone) {
			t.Errorf("interval %d: %s, want syntax %d", i, String(sel.SelectExprs.Exprs[i]), want)
		}
	}
	sel = gqParse(t, "select a = b || c, 1 + 2 || 3 from t").(*Select)
	if c, ok := sel.SelectExprs.Exprs[0].(*AliasedExpr).Expr.(*ComparisonExpr); !ok || c.Right.(*BinaryExpr).Operator != ConcatOp {
		t.Errorf("a = b || c: %s", String(sel.SelectExprs.Exprs[0]))
	}
	if b, ok := sel.SelectExprs.Exprs[1].(*AliasedExpr).Expr.(*BinaryExpr); !ok || b.Operator != ConcatOp || b.Left.(*BinaryExpr).Operator != PlusOp {
		t.Errorf("1 + 2 || 3: %s", String(sel.SelectExprs.Exprs[1]))
	}
	if ILikeOp.Inverse() != NotILikeOp || NotILikeOp.Inverse() != ILikeOp {
		t.Errorf("ILIKE inverse")
	}
}

func TestGQGrammarErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"select * from a natural full join b", "NATURAL FULL JOIN is not supported"},
		{"select except from t", "syntax error"},
		{"select a from t order by a nulls", "syntax error"},
		{"select a from t order by a nulls middle", "syntax error"},
		{"select count(all *) from t", "syntax error"},
		{"select f(distinct) from t", "syntax error"},
		{"select f(order by a) from t", "syntax error"},
		{"select f(a order by) from t", "syntax error"},
		{"select count(all distinct a) from t", "syntax error"},
		{"select a from t except all distinct select a from u", "syntax error"},
		{"select sum(a) filter where a > 1 from t", "syntax error"},
		{"select a from t full", "syntax error"},
		{"select * from read_csv()", "syntax error"},
		{"select {} from t", "syntax error"},
		{"select {'a' 1} from t", "syntax error"},
		{"select [1, 2 from t", "syntax error"},
		{"select a[] from t", "syntax error"},
		{"select a[1, 2] from t", "syntax error"},
		{"select [1,] from t", "syntax error"},
		{"select f(a => 1) from t", "syntax error"},
		{"select * from t where a => 1", "syntax error"},
		{"copy t to x", "syntax error"},
		{"copy (select 1) to 'x.csv' (format = csv)", "syntax error"},
		{"copy t from 'x.csv'", "syntax error"},
		{"select cast(a as timestamp with time region) from t", "ends with ZONE"},
		{"select a::decimal(x) from t", "syntax error"},
		{"select interval '90' from t", "syntax error"},
		{"select sum(a) over (order by b rows p + 1 preceding) from t", "syntax error"},
		{"select sum(a) over (order by b rows a.b.c preceding) from t", "syntax error"},
		{"select f(a as int) from t", "is no function"},
		{"select mode() within group (order by a, b) from t", "takes one ORDER BY expression"},
		{"select a from t group by grouping sits ((a))", "followed by SETS"},
		{"select a from t group by grouping sets", "syntax error"},
		{"select a || from t", "syntax error"},
		{"select interval 3 dayz", "dayz is no interval unit"},
		{"select sum(a) filter () from t", "syntax error"},
		{"select lead(x := a) over w from t", "named arguments col, offset and default, not x"},
		{"select lead(col := a, col := b) over w from t", "given twice"},
		{"select lead(`offset` := 1) over w from t", "need the named argument col"},
		{"select lead(a, `offset` := 1) over w from t", "syntax error"},
	}
	for _, c := range cases {
		_, err := NewTestParser().Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestGQTableFuncTrees(t *testing.T) {
	sel := gqParse(t, "select * from read_csv('x.csv', delim = ';', columns => {'a': 'BIGINT'}) as t(a)").(*Select)
	at := sel.From[0].(*AliasedTableExpr)
	tf, ok := at.Expr.(*TableFuncExpr)
	if !ok || tf.Name.String() != "read_csv" || at.As.String() != "t" || len(at.Columns) != 1 || len(tf.Args) != 3 {
		t.Fatalf("%s: %#v", String(sel), at)
	}
	if !tf.Args[0].Name.IsEmpty() || tf.Args[1].Name.String() != "delim" || tf.Args[2].Name.String() != "columns" {
		t.Errorf("argument names: %s", String(tf))
	}
	if st, ok := tf.Args[2].Value.(*StructExpr); !ok || len(st.Fields) != 1 || st.Fields[0].Key != "a" {
		t.Errorf("struct: %#v", tf.Args[2].Value)
	}
	d := gqParse(t, "desc read_parquet('x.parquet')").(*DescribeTableFunc)
	if d.Func.Name.String() != "read_parquet" {
		t.Errorf("describe: %s", String(d))
	}
	c := gqParse(t, "copy (select a from t) to 'x.csv' (format csv, header false)").(*CopyTo)
	if c.Query == nil || c.File != "x.csv" || len(c.Options) != 2 || c.Options[0].Name.String() != "format" ||
		c.Options[0].Value.(*ColName).Name.String() != "csv" || c.Options[1].Value != BoolVal(false) {
		t.Errorf("copy: %#v", c)
	}
	c = gqParse(t, "copy db.t to 'x.parquet'").(*CopyTo)
	if c.Query != nil || c.Table.Name.String() != "t" || c.Table.Qualifier.String() != "db" || c.Options != nil {
		t.Errorf("copy table: %#v", c)
	}
	// A keyword named like an option is still a column, a table and an alias.
	gqParse(t, "select format, header, copy from copy as format")
}
