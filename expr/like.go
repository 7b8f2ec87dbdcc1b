package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// likeNode is LIKE / NOT LIKE. A literal pattern is compiled once into the
// cheapest matcher that implements it.
type likeNode struct {
	s, p node
	not  bool
	m    *matcher // nil when the pattern is not a literal
	null bool     // literal NULL pattern
}

func newLike(call *Call, args []node) (node, error) {
	if err := wantArgs(call, args, 2, 2); err != nil {
		return nil, err
	}
	for _, a := range args {
		if err := wantType(call, a, arrow.STRING); err != nil {
			return nil, err
		}
	}
	n := &likeNode{s: args[0], p: args[1], not: call.Fn == "not_like"}
	if l, ok := args[1].(*litNode); ok {
		if l.v.null {
			n.null = true
		} else {
			n.m = compileLike(l.v.s)
		}
	}
	return n, nil
}

type likeKind int

const (
	likeExact likeKind = iota
	likePrefix
	likeSuffix
	likeContains
	likeGeneral
)

// matcher is a compiled LIKE pattern: segments separated by '%'.
type matcher struct {
	kind     likeKind
	lit      []byte    // exact/prefix/suffix/contains
	segs     [][]token // general
	anyStart bool      // pattern starts with %
	anyEnd   bool      // pattern ends with %
}

// token is a literal run or (any) a '_' that matches one character.
type token struct {
	lit []byte
	any bool
}

func compileLike(p string) *matcher {
	// Split at unescaped '%' into segments of literal runs and '_'.
	var segs [][]token
	var cur []token
	var run []byte
	flush := func() {
		if len(run) > 0 {
			cur = append(cur, token{lit: run})
			run = nil
		}
	}
	for i := 0; i < len(p); i++ {
		switch ch := p[i]; {
		case ch == '\\' && i+1 < len(p):
			i++
			run = append(run, p[i])
		case ch == '_':
			flush()
			cur = append(cur, token{any: true})
		case ch == '%':
			flush()
			segs = append(segs, cur)
			cur = nil
		default:
			run = append(run, ch)
		}
	}
	flush()
	segs = append(segs, cur)
	m := &matcher{}
	if len(segs) > 1 {
		// An empty first/last segment means the pattern starts/ends with %.
		m.anyStart = len(segs[0]) == 0
		m.anyEnd = len(segs[len(segs)-1]) == 0
	}
	for _, s := range segs {
		if len(s) > 0 { // %% gives empty middle segments
			m.segs = append(m.segs, s)
		}
	}
	simple := func(s []token) bool { return len(s) == 1 && !s[0].any }
	switch {
	case len(m.segs) == 0 && len(segs) == 1:
		m.kind = likeExact // '' matches only ''
	case len(m.segs) == 0:
		m.kind = likeContains // only %: everything matches
	case len(m.segs) == 1 && simple(m.segs[0]):
		m.lit = m.segs[0][0].lit
		switch {
		case !m.anyStart && !m.anyEnd && len(segs) == 1:
			m.kind = likeExact
		case !m.anyStart && !m.anyEnd:
			m.kind = likeGeneral // 'a%%' style cannot happen; 'a%a' has two segs
		case !m.anyStart:
			m.kind = likePrefix
		case !m.anyEnd:
			m.kind = likeSuffix
		default:
			m.kind = likeContains
		}
	default:
		m.kind = likeGeneral
	}
	return m
}

func (m *matcher) match(s []byte) bool {
	switch m.kind {
	case likeExact:
		return bytes.Equal(s, m.lit)
	case likePrefix:
		return bytes.HasPrefix(s, m.lit)
	case likeSuffix:
		return bytes.HasSuffix(s, m.lit)
	case likeContains:
		return bytes.Contains(s, m.lit)
	}
	return m.general(s)
}

// general matches segment by segment; placing each segment at its leftmost
// possible position is optimal because segments have fixed character counts.
func (m *matcher) general(s []byte) bool {
	segs := m.segs
	pos := 0
	for k, seg := range segs {
		first := k == 0 && !m.anyStart
		last := k == len(segs)-1 && !m.anyEnd
		if last {
			// The last anchored segment must end exactly at the end: try
			// every start from pos (segments may contain '_').
			for st := pos; st <= len(s); st++ {
				if end, ok := matchAt(s, st, seg); ok && end == len(s) {
					return !first || st == 0
				}
				if first {
					return false
				}
			}
			return false
		}
		if first {
			end, ok := matchAt(s, 0, seg)
			if !ok {
				return false
			}
			pos = end
			continue
		}
		found := false
		for st := pos; st <= len(s); st++ {
			if !seg[0].any {
				j := bytes.Index(s[st:], seg[0].lit)
				if j < 0 {
					return false
				}
				st += j
			}
			if end, ok := matchAt(s, st, seg); ok {
				pos, found = end, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// matchAt matches seg at byte offset st and returns the end offset.
func matchAt(s []byte, st int, seg []token) (int, bool) {
	p := st
	for _, t := range seg {
		if t.any {
			if p >= len(s) {
				return 0, false
			}
			_, sz := utf8.DecodeRune(s[p:])
			p += sz
			continue
		}
		if !bytes.HasPrefix(s[p:], t.lit) {
			return 0, false
		}
		p += len(t.lit)
	}
	return p, true
}

func (n *likeNode) typ() arrow.DataType { return Boolean }

func (n *likeNode) filter(c *ctx, b arrow.RecordBatch, cand, dst []int32) ([]int32, error) {
	if n.null {
		return dst, nil
	}
	s, err := evalOperand(c, b, n.s)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if s.nullScalar() {
		return dst, nil
	}
	if s.sc != nil {
		s = operand{arr: materialize(c, String, s)}
		defer s.release()
	}
	p, err := evalOperand(c, b, n.p)
	if err != nil {
		return nil, err
	}
	defer p.release()
	return n.sel(s.arr, p, cand, dst), nil
}

// sel selects rows where the LIKE result is true (NULLs never are).
func (n *likeNode) sel(s arrow.Array, p operand, cand, dst []int32) []int32 {
	offs, data := strView(s)
	valid := validBits(s)
	off := s.Data().Offset()
	want := !n.not
	if n.m != nil {
		m := n.m
		if cand == nil && m.kind == likeContains && len(m.lit) > 0 {
			// The hot path of '%word%' filters: one search over the whole
			// data buffer instead of one call per row.
			base := len(dst)
			dst = containsRows(offs, data, m.lit, dst)
			if !want {
				dst = complementRows(dst, base, s.Len())
			}
			if valid != nil {
				dst = append(dst[:base], dropNulls(s, nil, dst[base:])...)
			}
			return dst
		}
		return selectRows(&ctx{n: s.Len()}, cand, dst, func(i int) bool {
			return isValid(valid, off, i) && m.match(data[offs[i]:offs[i+1]]) == want
		})
	}
	po, pd := strView(p.arr)
	pv := validBits(p.arr)
	poff := p.arr.Data().Offset()
	return selectRows(&ctx{n: s.Len()}, cand, dst, func(i int) bool {
		if !isValid(valid, off, i) || !isValid(pv, poff, i) {
			return false
		}
		m := compileLike(bstr(pd[po[i]:po[i+1]]))
		return m.match(data[offs[i]:offs[i+1]]) == want
	})
}

func (n *likeNode) eval(c *ctx, b arrow.RecordBatch) (arrow.Array, error) {
	if n.null {
		return allNull(c, Boolean), nil
	}
	s, err := evalOperand(c, b, n.s)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if s.nullScalar() {
		return allNull(c, Boolean), nil
	}
	if s.sc != nil {
		s = operand{arr: materialize(c, String, s)}
		defer s.release()
	}
	p, err := evalOperand(c, b, n.p)
	if err != nil {
		return nil, err
	}
	defer p.release()
	sel := n.sel(s.arr, p, nil, make([]int32, 0, c.n))
	return boolFromSel(c.mem, c.n, sel, mergeValidity(c.mem, c.n, s.arr, p.arr)), nil
}

// containsRows appends the rows whose value contains lit, searching the
// concatenated bytes of all rows and mapping hits back to rows.
func containsRows(offs []int32, data []byte, lit []byte, dst []int32) []int32 {
	n := len(offs) - 1
	pos, end := int(offs[0]), int(offs[n])
	r := 0
	for pos < end {
		j := bytes.Index(data[pos:end], lit)
		if j < 0 {
			break
		}
		p := pos + j
		for int(offs[r+1]) <= p {
			r++
		}
		if p+len(lit) <= int(offs[r+1]) {
			dst = append(dst, int32(r))
			r++
			if r >= n {
				break
			}
			pos = int(offs[r])
		} else {
			pos = p + 1
		}
	}
	return dst
}

// complementRows replaces dst[base:] (ascending rows) by the rows of
// 0..n-1 not in it.
func complementRows(dst []int32, base, n int) []int32 {
	hits := append([]int32(nil), dst[base:]...)
	dst = dst[:base]
	j := 0
	for i := 0; i < n; i++ {
		if j < len(hits) && hits[j] == int32(i) {
			j++
			continue
		}
		dst = append(dst, int32(i))
	}
	return dst
}
