package exec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/expr"
)

// A plan's structural fingerprint: each operator states its identity —
// its kind and the parameters that change its rows (expressions, types,
// keys, limits, the tables it reads), never what a run measured — and a
// plan's fingerprint is its root's identity followed by its inputs'.
// Two plans with equal fingerprints compute the same rows. physical
// shares equal subplans by it, and ranks compare theirs before they run
// a statement together.

// Keyed is a node that states its identity (node_key.go).
type Keyed interface {
	// WriteKey writes the node's kind and parameters (not its inputs).
	WriteKey(k *KeyWriter)
}

// KeyWriter builds one node's part of a fingerprint.
type KeyWriter struct {
	b *strings.Builder
	// local: tables are told apart by identity (one process's plans);
	// otherwise by name (plans of several ranks).
	local bool
	// unique: the node links to one other node of its plan (a join
	// filter its join publishes, a scalar feed): it equals no other.
	unique bool
	// unknown: something in the node has no key (an expression kind
	// WriteKey lacks): the node equals no other.
	unknown bool
}

func (k *KeyWriter) sep() { k.b.WriteByte(';') }

// Str writes a name or a word.
func (k *KeyWriter) Str(s string) { k.b.WriteString(strconv.Quote(s)); k.sep() }

// Int writes an integer parameter.
func (k *KeyWriter) Int(v int64) { k.b.WriteString(strconv.FormatInt(v, 10)); k.sep() }

// Bool writes a flag.
func (k *KeyWriter) Bool(v bool) { k.b.WriteString(strconv.FormatBool(v)); k.sep() }

// Ints writes a list of positions.
func (k *KeyWriter) Ints(vs []int) {
	k.b.WriteByte('[')
	for _, v := range vs {
		k.b.WriteString(strconv.Itoa(v))
		k.b.WriteByte(',')
	}
	k.b.WriteByte(']')
	k.sep()
}

// Expr writes an expression (nil allowed) with its column positions and
// types.
func (k *KeyWriter) Expr(e expr.Expr) {
	if e == nil {
		k.b.WriteString("nil")
	} else if !expr.WriteKey(k.b, e) {
		k.unknown = true
	}
	k.sep()
}

// Exprs writes a list of expressions.
func (k *KeyWriter) Exprs(es []expr.Expr) {
	k.b.WriteByte('[')
	for _, e := range es {
		k.Expr(e)
	}
	k.b.WriteByte(']')
	k.sep()
}

// Type writes a data type.
func (k *KeyWriter) Type(t arrow.DataType) { k.b.WriteString(expr.TypeKey(t)); k.sep() }

// Schema writes an output schema: names, types and nullability.
func (k *KeyWriter) Schema(s *arrow.Schema) {
	if s == nil {
		k.b.WriteString("nil")
	} else {
		k.b.WriteString(s.String())
	}
	k.sep()
}

// Table writes a table: its name, and in one process's plans which
// object it is (two tables may share a name: a CTE's and a stored one).
func (k *KeyWriter) Table(t catalog.Table) {
	if t == nil {
		k.b.WriteString("nil")
	} else {
		k.Str(t.Name())
		if k.local {
			fmt.Fprintf(k.b, "%p", t)
		}
	}
	k.sep()
}

// Param writes an aggregate's parameter: a fraction, a separator.
func (k *KeyWriter) Param(p any) {
	switch v := p.(type) {
	case nil:
		k.b.WriteString("nil")
	case float64:
		k.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case string:
		k.b.WriteString(strconv.Quote(v))
	case int64:
		k.b.WriteString(strconv.FormatInt(v, 10))
	default:
		k.unknown = true
	}
	k.sep()
}

// Unique marks the node as one of a kind, equal to no other.
func (k *KeyWriter) Unique() { k.unique = true }

// Fingerprints computes and keeps the fingerprints of one plan's nodes.
type Fingerprints struct {
	local bool
	memo  map[Node]fingerprint
}

type fingerprint struct {
	key string
	ok  bool
}

// NewFingerprints is for one plan. Local fingerprints tell tables apart by
// identity (physical's shared subplans); the others by name, the same on
// every rank (the symmetry check).
func NewFingerprints(local bool) *Fingerprints {
	return &Fingerprints{local: local, memo: map[Node]fingerprint{}}
}

// Of returns n's fingerprint, and false when n or a node under it equals
// no other (Unique, a node that is not Keyed, an expression without a
// key): the key then still describes the plan, but only for comparing a
// plan with its copy on another rank.
func (f *Fingerprints) Of(n Node) (string, bool) {
	if n == nil {
		return "nil", true
	}
	if fp, ok := f.memo[n]; ok {
		return fp.key, fp.ok
	}
	var b strings.Builder
	k := KeyWriter{b: &b, local: f.local}
	if kn, ok := n.(Keyed); ok {
		kn.WriteKey(&k)
	} else {
		k.unknown = true
		k.Str(fmt.Sprintf("%T", n))
		k.Str(n.Explain())
	}
	ok := !k.unique && !k.unknown
	b.WriteByte('(')
	for _, c := range n.Children() {
		ck, cok := f.Of(c)
		b.WriteString(ck)
		b.WriteByte(',')
		ok = ok && cok
	}
	if l, isL := n.(Linked); isL {
		b.WriteString("|")
		for _, c := range l.Links() {
			ck, cok := f.Of(c)
			b.WriteString(ck)
			b.WriteByte(',')
			ok = ok && cok
		}
	}
	b.WriteByte(')')
	fp := fingerprint{b.String(), ok}
	f.memo[n] = fp
	return fp.key, fp.ok
}

func (k *KeyWriter) sortKeys(keys []SortKey) {
	k.b.WriteByte('[')
	for _, s := range keys {
		k.Expr(s.Expr)
		k.Bool(s.Desc)
		k.Bool(s.NullsFirst)
	}
	k.b.WriteByte(']')
	k.sep()
}

func (k *KeyWriter) aggFunc(a AggFunc) {
	k.Str(a.Fn)
	k.Bool(a.Distinct)
	k.Expr(a.Arg)
	k.Type(a.Type)
	k.Param(a.Param)
}

func (k *KeyWriter) frameBound(b FrameBound) {
	k.Int(int64(b.Kind))
	k.Int(b.Rows)
	k.b.WriteString(strconv.FormatFloat(b.Float, 'g', -1, 64))
	k.sep()
	k.Int(b.Int)
	k.Int(int64(b.Scale))
	k.Bool(b.Exact)
	k.Bool(b.Months)
}

func (k *KeyWriter) joinFilter(f *JoinFilter) {
	if f == nil {
		k.b.WriteString("nil")
		k.sep()
		return
	}
	k.Unique()
	k.Int(int64(f.ID))
	k.Ints(f.Keys)
}

func (s *Scan) WriteKey(k *KeyWriter) {
	k.Str("Scan")
	k.Table(s.Table)
	k.Ints(s.Columns)
	k.Expr(s.Filter)
	k.Schema(s.Out)
	for _, jf := range s.JoinFilters {
		k.joinFilter(jf.Filter)
		k.Exprs(jf.Keys)
	}
	k.Ints(s.Emit)
	k.Bool(s.Emit == nil)
}

func (v *Values) WriteKey(k *KeyWriter) {
	k.Str("Values")
	k.Schema(v.Out)
	for _, row := range v.Rows {
		k.b.WriteByte('[')
		for _, l := range row {
			if l == nil {
				k.Expr(nil)
			} else {
				k.Expr(l)
			}
		}
		k.b.WriteByte(']')
	}
}

func (f *Filter) WriteKey(k *KeyWriter) {
	k.Str("Filter")
	k.Expr(f.Pred)
	k.Bool(f.KeepOrder)
}

func (p *Project) WriteKey(k *KeyWriter) {
	k.Str("Project")
	k.Exprs(p.Exprs)
	k.Schema(p.Out)
	k.Bool(p.KeepOrder)
}

func (h *HashJoin) WriteKey(k *KeyWriter) {
	k.Str("HashJoin")
	k.Int(int64(h.Type))
	k.Exprs(h.LeftKeys)
	k.Exprs(h.RightKeys)
	k.Expr(h.Extra)
	k.Bool(h.NullAware)
	k.Bool(h.BuildLeft)
	k.Schema(h.Out)
	k.joinFilter(h.Publish)
}

func (n *NestedLoopJoin) WriteKey(k *KeyWriter) {
	k.Str("NestedLoopJoin")
	k.Int(int64(n.Type))
	k.Expr(n.Cond)
	k.Schema(n.Out)
	if n.Feed != nil {
		k.Unique()
		k.Str("feed")
	}
}

func (h *HashAggregate) WriteKey(k *KeyWriter) {
	k.Str("HashAggregate")
	k.Exprs(h.GroupBy)
	for _, a := range h.Aggs {
		k.aggFunc(a)
	}
	k.Schema(h.Out)
}

func (w *Window) WriteKey(k *KeyWriter) {
	k.Str("Window")
	k.Exprs(w.PartitionBy)
	k.sortKeys(w.OrderBy)
	for _, f := range w.Funcs {
		k.Str(f.Fn)
		k.Exprs(f.Args)
		k.Type(f.Type)
		k.Int(f.N)
		k.Bool(f.Frame.Rows)
		k.frameBound(f.Frame.Start)
		k.frameBound(f.Frame.End)
		k.Int(int64(f.Frame.Exclude))
		k.Bool(f.IgnoreNulls)
		k.Param(f.Param)
		k.Bool(f.Distinct)
		k.sortKeys(f.Order)
	}
	k.Schema(w.Out)
}

func (s *Sort) WriteKey(k *KeyWriter) {
	k.Str("Sort")
	k.sortKeys(s.Keys)
	k.Int(s.Limit)
	k.Int(s.Offset)
}

func (l *Limit) WriteKey(k *KeyWriter) {
	k.Str("Limit")
	k.Int(l.Offset)
	k.Int(l.Count)
}

func (l *DrainLimit) WriteKey(k *KeyWriter) {
	k.Str("DrainLimit")
	k.Int(l.Offset)
	k.Int(l.Count)
}

func (u *UnionAll) WriteKey(k *KeyWriter) {
	k.Str("UnionAll")
	k.Schema(u.Out)
	k.Bool(u.InOrder)
}

func (a *AvgCombine) WriteKey(k *KeyWriter) {
	k.Str("AvgCombine")
	for _, c := range a.Cols {
		k.Int(int64(c.From))
		k.Int(int64(c.Count))
	}
	k.Schema(a.Out)
}

func (e *Exchange) WriteKey(k *KeyWriter) {
	k.Str("Exchange")
	k.Int(int64(e.Kind))
	k.Exprs(e.Keys)
	k.Int(int64(e.Op))
}

func (s *SharedSource) WriteKey(k *KeyWriter) {
	k.Str("SharedSource")
	k.Int(int64(s.ID))
	k.Str(s.Label)
}

func (r *SharedRead) WriteKey(k *KeyWriter) {
	k.Str("SharedRead")
	k.Int(int64(r.ID))
	k.Bool(r.Primary)
}

// WriteKey of a wrapper is its operator's: EXPLAIN ANALYZE runs the plan
// it was given.
func (a *Analyzed) WriteKey(k *KeyWriter) {
	if kn, ok := a.Inner.(Keyed); ok {
		kn.WriteKey(k)
		return
	}
	k.unknown = true
	k.Str(a.Inner.Explain())
}
