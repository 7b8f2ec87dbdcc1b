package arrowgpu

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/expr"
)

// Expression fixtures shared by the generator's golden test (CPU) and the
// GPU test that runs them against the CPU evaluator. The batch layout is a
// lineitem-like one (see testBatch in gpu_test.go):
//
//	#0 quantity  Decimal(15,2)   #1 price  Decimal(15,2)
//	#2 discount  Decimal(15,2)   #3 tax    Decimal(15,2)
//	#4 shipdate  Date32          #5 id     Int64 (with NULLs)
//	#6 ratio     Float64 (NULLs) #7 flag   Boolean (with NULLs)

var (
	dec152 = expr.Decimal(15, 2)
	colQty = &expr.Column{Index: 0, Type: dec152, Name: "quantity"}
	colPrc = &expr.Column{Index: 1, Type: dec152, Name: "price"}
	colDis = &expr.Column{Index: 2, Type: dec152, Name: "discount"}
	colTax = &expr.Column{Index: 3, Type: dec152, Name: "tax"}
	colDay = &expr.Column{Index: 4, Type: expr.Date, Name: "shipdate"}
	colID  = &expr.Column{Index: 5, Type: expr.Int64, Name: "id"}
	colRat = &expr.Column{Index: 6, Type: expr.Float64, Name: "ratio"}
	colFlg = &expr.Column{Index: 7, Type: expr.Boolean, Name: "flag"}
)

func call(fn string, t arrow.DataType, args ...expr.Expr) *expr.Call {
	return &expr.Call{Fn: fn, Args: args, Type: t}
}

func decLit(v int64, s int32) *expr.Literal {
	return &expr.Literal{Value: v, Type: expr.Decimal(15, s)}
}

func dateLit(days int32) *expr.Literal { return &expr.Literal{Value: days, Type: expr.Date} }
func intLit(v int64) *expr.Literal     { return &expr.Literal{Value: v, Type: expr.Int64} }

// q6Pred is TPC-H Q6's predicate: shipdate in [1994-01-01, 1995-01-01),
// discount between 0.05 and 0.07, quantity < 24.
func q6Pred() expr.Expr {
	return call("and", expr.Boolean,
		call("ge", expr.Boolean, colDay, dateLit(8766)),
		call("lt", expr.Boolean, colDay, dateLit(9131)),
		call("ge", expr.Boolean, colDis, decLit(5, 2)),
		call("le", expr.Boolean, colDis, decLit(7, 2)),
		call("lt", expr.Boolean, colQty, decLit(2400, 2)))
}

// q1Charge is price * (1 - discount) * (1 + tax), TPC-H Q1's sum_charge.
func q1Charge() expr.Expr {
	discPrice := call("mul", expr.Decimal(18, 4), colPrc, call("sub", expr.Decimal(16, 2), decLit(100, 2), colDis))
	return call("mul", expr.Decimal(18, 6), discPrice, call("add", expr.Decimal(16, 2), decLit(100, 2), colTax))
}

// fusedFixtures are projections covering each lowering path.
func fusedFixtures() []expr.Expr {
	return []expr.Expr{
		q1Charge(),
		call("mul", expr.Decimal(18, 4), colPrc, colDis), // Q6's revenue term
		call("case", dec152,
			call("gt", expr.Boolean, colQty, decLit(3000, 2)), colPrc,
			call("is_null", expr.Boolean, colID), decLit(0, 2),
			&expr.Literal{Type: dec152}),
		call("in", expr.Boolean, colID, intLit(1), intLit(7), &expr.Literal{Type: expr.Int64}),
		call("extract_year", expr.Int64, colDay),
		call("div", expr.Float64, colRat, call("cast", expr.Float64, colQty)),
		call("or", expr.Boolean, colFlg, call("not", expr.Boolean, call("lt", expr.Boolean, colID, intLit(50)))),
		call("coalesce", expr.Int64, colID, call("date_diff_days", expr.Int64, colDay, dateLit(9000))),
		call("div", expr.Decimal(18, 6), colPrc, colQty),
		call("floor", expr.Decimal(15, 0), colPrc),
		call("date_add_days", expr.Date, colDay, intLit(90)),
		call("neg", expr.Int64, colID),
	}
}
