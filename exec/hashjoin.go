package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/exec/expr"
)

// JoinType selects a join's semantics (as planner.JoinType).
type JoinType int

const (
	JoinInner  JoinType = iota
	JoinLeft            // unmatched left (probe) rows padded with NULLs
	JoinSemi            // left rows with a match; output: left columns only
	JoinAnti            // left rows without a match; output: left columns only
	JoinSingle          // left join; more than one match is an Execution error
)

func (t JoinType) String() string {
	return [...]string{"inner", "left", "semi", "anti", "single"}[t]
}

// HashJoin builds a hash table on Right (keys RightKeys) and probes it with
// Left (keys LeftKeys); keys match when all are equal and none is NULL.
// Extra (may be nil) is a further condition over Left's columns followed by
// Right's columns, applied to key matches. Out: left columns then right
// columns (semi/anti: left only). NullAware (anti only): NOT IN semantics —
// if Right is non-empty, a left row with a NULL key, or any NULL key on the
// right, yields no output for that left row.
type HashJoin struct {
	Type      JoinType
	Left      Node
	Right     Node
	LeftKeys  []expr.Expr
	RightKeys []expr.Expr
	Extra     expr.Expr
	NullAware bool
	Out       *arrow.Schema
}

func (h *HashJoin) Schema() *arrow.Schema { return h.Out }
func (h *HashJoin) Children() []Node      { return []Node{h.Left, h.Right} }
func (h *HashJoin) Explain() string       { return "HashJoin " + h.Type.String() }
func (h *HashJoin) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "HashJoin")
}

// NestedLoopJoin materialises Right and tests Cond (over left columns then
// right columns; nil: true) for every pair. Types as HashJoin; used for
// cross products and joins without equality keys.
type NestedLoopJoin struct {
	Type  JoinType
	Left  Node
	Right Node
	Cond  expr.Expr
	Out   *arrow.Schema
}

func (n *NestedLoopJoin) Schema() *arrow.Schema { return n.Out }
func (n *NestedLoopJoin) Children() []Node      { return []Node{n.Left, n.Right} }
func (n *NestedLoopJoin) Explain() string       { return "NestedLoopJoin " + n.Type.String() }
func (n *NestedLoopJoin) Open(c *Context) <-chan arrow.RecordBatch {
	return notImplemented(c, "NestedLoopJoin")
}
