package expr

// JoinType selects a join's semantics. The planner's logical joins and the
// executor's join operators share this one type (each package names it
// through an alias), so that lowering a join keeps its type as it is.
type JoinType int

const (
	JoinInner JoinType = iota // no condition: the cross product
	JoinLeft                  // unmatched left (probe) rows padded with NULLs
	JoinSemi                  // left rows with at least one match; output: left columns only
	JoinAnti                  // left rows with no match; output: left columns only
	// JoinSingle is a left join for a scalar subquery: more than one
	// matching right row is an Execution error ("subquery returns more
	// than 1 row").
	JoinSingle
)

func (t JoinType) String() string {
	return [...]string{"inner", "left", "semi", "anti", "single"}[t]
}

// KeepsUnmatched reports whether a probe row without a match stays, with
// NULL build columns: a left join, and a single join (a scalar subquery's:
// a left join whose build keys are unique).
func (t JoinType) KeepsUnmatched() bool { return t == JoinLeft || t == JoinSingle }
