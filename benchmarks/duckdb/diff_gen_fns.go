package duckdb

import (
	"fmt"
	"math/rand/v2"
)

// The scalar functions of issue 30 for the differential tester, drawn
// where MySQL's rules (gq's) and DuckDB's agree, inside the generated
// queries' expressions and predicates.
//
// Exclusions, each with its reason:
//   - log(x) (MySQL: natural, DuckDB: base 10), and the functions over
//     DOUBLE that are not exact (ln, exp, power, the trigonometric ones,
//     degrees/radians, cbrt): the last bit depends on the libm; ln(0),
//     asin(2) and the like are NULL in MySQL and errors in DuckDB.
//   - greatest/least over arguments that can be NULL (MySQL: NULL,
//     DuckDB: NULL skipped); they are drawn over non-NULL literals only.
//   - left/right with a negative count (MySQL: '', DuckDB: from the
//     other end); lpad/rpad with an empty pad or a negative length (MySQL:
//     NULL, DuckDB: an error).
//   - ascii past ASCII (first byte against first code point), the XOR
//     operator ^ (DuckDB's ^ is a power), shifts (DuckDB errs where MySQL
//     gives 0, and on any overflow), ~ and & | of mixed signs are kept:
//     both compute them in two's complement BIGINT.
//   - regexp_replace without 'g' (MySQL replaces every match, DuckDB the
//     first): drawn with 'g', which gq accepts; to_base64 (DuckDB's takes
//     a BLOB, and a VARCHAR with characters past ASCII does not cast to
//     one); json_extract (DuckDB's
//     JSON type prints otherwise); hex, bin and oct of integers and
//     make_date (DuckDB's literals are INTEGER, not BIGINT).
//   - bit_count of anything but a BIGINT column: DuckDB types a literal
//     such as -1 as INTEGER, whose two's complement has 32 bits set, not
//     64.

// NewFuncGen returns a generator over the generated tables (see
// diff_tables.go) whose expressions and predicates often call those
// functions.
func NewFuncGen(seed uint64) *Gen {
	g := NewDiffGen(seed)
	g.r = rand.New(rand.NewPCG(seed, 0xf7c5))
	g.fns = true
	return g
}

// fnExpr draws a call of kind k, "" where none fits.
func (g *Gen) fnExpr(k kind, d int) string {
	small := func() int { return g.pick(5) }
	switch k {
	case kInt:
		switch g.pick(8) {
		case 0:
			return fmt.Sprintf("instr(%s, %s)", g.expr(kStr, d), g.literal(kStr))
		case 1:
			return fmt.Sprintf("gcd(%s, %s)", g.expr(kInt, d), fmt.Sprint(g.r.IntN(41)-20))
		case 2:
			return fmt.Sprintf("(%s & %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 3:
			return fmt.Sprintf("(%s | %s)", g.expr(kInt, d), g.expr(kInt, d))
		case 4:
			return fmt.Sprintf("(~ %s)", g.expr(kInt, d))
		case 5:
			if c := g.col(kInt); c != "" {
				return fmt.Sprintf("bit_count(%s)", c)
			}
		case 6:
			return fmt.Sprintf("greatest(%d, %d, %d)", g.r.IntN(21)-10, g.r.IntN(21)-10, g.r.IntN(21)-10)
		}
		return fmt.Sprintf("strpos(%s, %s)", g.expr(kStr, d), g.literal(kStr))
	case kDec:
		return fmt.Sprintf("trunc(%s)", g.expr(kDec, d))
	case kFloat:
		if g.chance(50) {
			return fmt.Sprintf("trunc(%s)", g.expr(kFloat, d))
		}
		return "pi()"
	case kStr:
		s := func() string { return g.expr(kStr, d) }
		switch g.pick(16) {
		case 0:
			return fmt.Sprintf("replace(%s, %s, %s)", s(), g.literal(kStr), g.literal(kStr))
		case 1:
			return fmt.Sprintf("concat_ws(%s, %s, %s)", g.literal(kStr), s(), s())
		case 2:
			return fmt.Sprintf("left(%s, %d)", s(), small())
		case 3:
			return fmt.Sprintf("right(%s, %d)", s(), small())
		case 4:
			return fmt.Sprintf("lpad(%s, %d, 'xy')", s(), small())
		case 5:
			return fmt.Sprintf("rpad(%s, %d, '日')", s(), small())
		case 6:
			return fmt.Sprintf("repeat(%s, %d)", s(), g.pick(3))
		case 7:
			return fmt.Sprintf("translate(%s, 'al', 'A')", s())
		case 8:
			return fmt.Sprintf("split_part(%s, %s, %d)", s(), []string{"' '", "'a'", "'l'"}[g.pick(3)], 1+g.pick(3))
		case 9:
			return fmt.Sprintf("md5(%s)", s())
		case 10:
			return fmt.Sprintf("sha256(%s)", s())
		case 11:
			return fmt.Sprintf("sha1(%s)", s())
		case 12:
			return fmt.Sprintf("hex(%s)", s())
		case 13:
			return fmt.Sprintf("regexp_replace(%s, '[a-c]+', '<x>', 'g')", s())
		case 14:
			return fmt.Sprintf("regexp_extract(%s, '([a-z])([a-z]*)', %d)", s(), g.pick(3))
		}
		return fmt.Sprintf("chr(%d)", 65+g.pick(26))
	}
	return ""
}

// fnPred draws a predicate calling a function.
func (g *Gen) fnPred(d int) string {
	switch g.pick(5) {
	case 0:
		return fmt.Sprintf("starts_with(%s, %s)", g.expr(kStr, d), g.literal(kStr))
	case 1:
		return fmt.Sprintf("ends_with(%s, %s)", g.expr(kStr, d), g.literal(kStr))
	case 2:
		return fmt.Sprintf("contains(%s, %s)", g.expr(kStr, d), g.literal(kStr))
	case 3:
		return fmt.Sprintf("regexp_matches(%s, %s)", g.expr(kStr, d), []string{"'^a'", "'[lo]+'", "'b|z'", "'.'", "'^$'"}[g.pick(5)])
	}
	return fmt.Sprintf("isnan(%s)", g.expr(kFloat, d))
}
