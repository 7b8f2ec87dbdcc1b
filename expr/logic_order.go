package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// orderConjuncts puts the cheap conjuncts of an AND first, so that the
// costlier ones (string comparisons, IN lists, LIKE) run only on the rows
// the cheap ones keep: filters evaluate each conjunct on the survivors of
// the previous ones (logicNode.filter). Conjuncts that cannot fail
// (comparisons, IN, LIKE, IS NULL over columns and literals) go first,
// sorted by cost (stable: equal costs keep the query's order); the others
// follow in their order, so one that may fail (a division, a cast) is never
// evaluated on more rows than before.
func orderConjuncts(args []node) []node {
	var safe, rest []node
	for _, a := range args {
		if conjunctCost(a) >= 0 {
			safe = append(safe, a)
		} else {
			rest = append(rest, a)
		}
	}
	slices.SortStableFunc(safe, func(a, b node) int { return conjunctCost(a) - conjunctCost(b) })
	return append(safe, rest...)
}

// conjunctCost ranks a conjunct by evaluation cost per row: numeric
// comparisons of a column with a literal cheapest, then column with
// column, string equality and IN, LIKE last; -1 when the conjunct may fail
// or is not one of these.
func conjunctCost(n node) int {
	switch n := n.(type) {
	case *cmpNode:
		if !plainOperand(n.l) || !plainOperand(n.r) {
			return -1
		}
		str := n.l.typ().ID() == arrow.STRING || n.r.typ().ID() == arrow.STRING
		_, lit1 := n.l.(*litNode)
		_, lit2 := n.r.(*litNode)
		switch {
		case str:
			return 3
		case lit1 || lit2:
			return 1
		default:
			return 2
		}
	case *isNullNode:
		if plainOperand(n.a) {
			return 0
		}
	case *inNode:
		if plainOperand(n.x) {
			if n.x.typ().ID() == arrow.STRING {
				return 4
			}
			return 2
		}
	case *likeNode:
		if plainOperand(n.s) && n.m != nil {
			return 6
		}
	}
	return -1
}

func plainOperand(n node) bool {
	switch n.(type) {
	case *colNode, *litNode:
		return true
	}
	return false
}
