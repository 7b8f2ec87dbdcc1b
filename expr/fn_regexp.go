package expr

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// The regular-expression functions, with Go's regexp (RE2 syntax, linear
// time): regexp_like(s, pattern [, flags]) and its names regexp_matches
// (DuckDB) and the REGEXP / RLIKE operators (MySQL; the planner binds them
// here); regexp_replace(s, pattern, replacement [, flags]) replaces every
// match (MySQL's rule: DuckDB replaces the first unless given 'g'), the
// replacement naming groups as $1 or \1; regexp_extract(s, pattern [,
// group]) (DuckDB's) is the first match's group (0: the whole match), ”
// where nothing matches. A match anywhere in s counts; matching is case
// sensitive, as gq compares strings (flags: 'i' ignores case, 'c' respects
// it, 'm' makes ^ and $ match at line ends, 'n' or 's' lets . match a
// newline; 'g' is accepted and changes nothing). RE2 has no backreferences
// (\1 inside a pattern) nor lookaround ((?=…), (?<=…)): a constant pattern
// using them is refused when the query is bound, with the reason; a
// pattern computed per row fails the query at the first such row.
func init() {
	Register(&Function{Name: "regexp_like", SQL: []string{"regexp_like", "regexp_matches"}, MinArgs: 2, MaxArgs: 3,
		Bind: bindRegexp("regexp_like", "sss", Boolean, 2),
		CPU: func(call *Call, args []node) (node, error) {
			re, err := regexpOf(call, 1, 2)
			if err != nil {
				return nil, err
			}
			return boolRows(func(a []strArg, i int) (bool, bool, error) {
				r, err := re.row(a, i)
				if err != nil {
					return false, false, err
				}
				return r.Match(a[0].str(i)), true, nil
			})(call, args)
		},
		NullPropagating: true,
		Doc:             "regexp_like(s VARCHAR, pattern VARCHAR [, flags VARCHAR]) → BOOLEAN: pattern matches somewhere in s (RE2 syntax)"})
	Register(&Function{Name: "regexp_replace", SQL: []string{"regexp_replace"}, MinArgs: 3, MaxArgs: 4,
		Bind: bindRegexp("regexp_replace", "ssss", String, 3),
		CPU: func(call *Call, args []node) (node, error) {
			re, err := regexpOf(call, 1, 3)
			if err != nil {
				return nil, err
			}
			return strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				r, err := re.row(a, i)
				if err != nil {
					return dst, false, err
				}
				s, tmpl := a[0].str(i), replacementTemplate(a[2].str(i))
				last := 0
				for _, m := range r.FindAllSubmatchIndex(s, -1) {
					dst = append(dst, s[last:m[0]]...)
					dst = r.Expand(dst, tmpl, s, m)
					last = m[1]
				}
				return append(dst, s[last:]...), true, nil
			})(call, args)
		},
		NullPropagating: true,
		Doc:             "regexp_replace(s VARCHAR, pattern VARCHAR, replacement VARCHAR [, flags VARCHAR]) → VARCHAR: every match replaced (MySQL; DuckDB: the first unless 'g')"})
	Register(&Function{Name: "regexp_extract", SQL: []string{"regexp_extract"}, MinArgs: 2, MaxArgs: 3,
		Bind: bindRegexp("regexp_extract", "ssi", String, -1),
		CPU: func(call *Call, args []node) (node, error) {
			re, err := regexpOf(call, 1, -1)
			if err != nil {
				return nil, err
			}
			return strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				r, err := re.row(a, i)
				if err != nil {
					return dst, false, err
				}
				group := int64(0)
				if len(a) == 3 {
					group = a[2].int(i)
				}
				if group < 0 || group > int64(r.NumSubexp()) {
					return dst, false, errs.New(errs.Execution, "regexp_extract: group %d of a pattern with %d groups", group, r.NumSubexp())
				}
				m := r.FindSubmatchIndex(a[0].str(i))
				if m == nil || m[2*group] < 0 {
					return dst, true, nil
				}
				return append(dst, a[0].str(i)[m[2*group]:m[2*group+1]]...), true, nil
			})(call, args)
		},
		NullPropagating: true,
		Doc:             "regexp_extract(s VARCHAR, pattern VARCHAR [, group BIGINT]) → VARCHAR: the first match's group, '' if none (DuckDB's)"})
}

// bindRegexp is bindSig, checking a constant pattern (with its flags,
// argument flagsAt, -1 for none, which must be constant) at binding.
func bindRegexp(fn, sig string, result arrow.DataType, flagsAt int) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, name string, args []Operand) (Operand, error) {
		flags := ""
		if flagsAt >= 0 && len(args) > flagsAt {
			v, ok := b.Constant(args[flagsAt])
			if !ok {
				return nil, errs.New(errs.Unsupported, "%s: the flags must be a constant", name)
			}
			flags, _ = v.(string)
		}
		if v, ok := b.Constant(args[1]); ok {
			if p, isStr := v.(string); isStr {
				if _, err := compileRegexp(name, p, flags); err != nil {
					return nil, err
				}
			}
		}
		return bindSig(fn, sig, result)(b, name, args)
	}
}

// compileRegexp compiles pattern under MySQL's match flags.
func compileRegexp(fn, pattern, flags string) (*regexp.Regexp, error) {
	on := map[byte]bool{}
	for k := 0; k < len(flags); k++ {
		switch c := flags[k]; c {
		case 'i', 'm':
			on[c] = true
		case 'c':
			on['i'] = false
		case 'n', 's':
			on['s'] = true
		case 'g', 'u':
		default:
			return nil, errs.New(errs.Binding, "%s: unknown flag %q in %q (i, c, m, n, s, g)", fn, c, flags)
		}
	}
	prefix := ""
	for _, c := range []byte("ims") {
		if on[c] {
			prefix += string(c)
		}
	}
	if prefix != "" {
		prefix = "(?" + prefix + ")"
	}
	re, err := regexp.Compile(prefix + pattern)
	if err != nil {
		return nil, errs.New(errs.Unsupported, "%s: pattern %q is not supported (RE2 syntax: no backreferences, no lookaround): %v", fn, pattern, err)
	}
	return re, nil
}

// rowRegexp is the compiled pattern of a call: fixed where the pattern and
// flags are constants, else compiled per distinct pattern and cached (the
// Evaluator is shared by workers: the cache is a sync.Map, bounded).
type rowRegexp struct {
	fn             string
	fixed          *regexp.Regexp
	patAt, flagsAt int
	cache          sync.Map
	cached         atomic.Int32
}

// maxCachedRegexps bounds a call's cache of per-row patterns.
const maxCachedRegexps = 4096

func regexpOf(call *Call, patAt, flagsAt int) (*rowRegexp, error) {
	r := &rowRegexp{fn: call.Fn, patAt: patAt, flagsAt: flagsAt}
	flags, constFlags := "", true
	if flagsAt >= 0 && len(call.Args) > flagsAt {
		l, ok := call.Args[flagsAt].(*Literal)
		constFlags = ok
		if ok {
			flags, _ = l.Value.(string)
		}
	}
	if l, ok := call.Args[patAt].(*Literal); ok && constFlags {
		if p, isStr := l.Value.(string); isStr {
			re, err := compileRegexp(call.Fn, p, flags)
			if err != nil {
				return nil, err
			}
			r.fixed = re
		}
	}
	return r, nil
}

// row is the pattern of row i.
func (r *rowRegexp) row(a []strArg, i int) (*regexp.Regexp, error) {
	if r.fixed != nil {
		return r.fixed, nil
	}
	p, f := bstr(a[r.patAt].str(i)), ""
	if r.flagsAt >= 0 && len(a) > r.flagsAt {
		f = bstr(a[r.flagsAt].str(i))
	}
	key := f + "\x00" + p // a copy: p and f view batch memory
	if v, ok := r.cache.Load(key); ok {
		return v.(*regexp.Regexp), nil
	}
	re, err := compileRegexp(r.fn, p, f)
	if err != nil {
		return nil, err
	}
	if r.cached.Add(1) <= maxCachedRegexps {
		r.cache.Store(key, re)
	}
	return re, nil
}

// replacementTemplate is a replacement in Go's Expand form: \N (DuckDB's
// group reference) becomes ${N} and \\ a backslash; $N is Go's own.
func replacementTemplate(rep []byte) []byte {
	if !strings.Contains(bstr(rep), "\\") {
		return rep
	}
	out := make([]byte, 0, len(rep)+8)
	for k := 0; k < len(rep); k++ {
		c := rep[k]
		if c == '\\' && k+1 < len(rep) {
			n := rep[k+1]
			switch {
			case n >= '0' && n <= '9':
				out = append(out, '$', '{', n, '}')
				k++
				continue
			case n == '\\':
				out = append(out, '\\')
				k++
				continue
			}
		}
		out = append(out, c)
	}
	return out
}
