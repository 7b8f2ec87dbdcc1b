package physical

import (
	"hash/maphash"

	"gq/exec"
)

// ShareCommonSubplans computes identical expensive subplans once. The
// binder inlines a CTE at every reference, so a query that names one CTE
// twice (TPC-H q15's revenue0) lowers to two equal subtrees; each becomes
// a SharedRead of one SharedSource, which runs the subtree once and keeps
// its result for the query (DuckDB materialises such CTEs too). Only
// subtrees rooted at an aggregate, join, sort or window are shared: below
// those, recomputing is cheap next to keeping the rows.
//
// Subtrees are equal when their fingerprints are (exec.Fingerprints:
// each operator's kind and parameters, expressions with column positions
// and types, tables by identity). A subtree with a node that states no
// identity, or links to another node (a join filter), is never shared.
// Plans for several ranks are not shared (their exchanges differ), so the
// engine calls this for one-rank plans only.
func ShareCommonSubplans(root exec.Node) exec.Node {
	candidates := repeatedShapes(root)
	if len(candidates) == 0 {
		return root // most plans: no two shareable subtrees alike
	}
	all := exec.NewFingerprints(true)
	fps := map[exec.Node]string{}
	count := map[string]int{}
	for _, n := range candidates {
		if fp, ok := all.Of(n); ok {
			fps[n] = fp
			count[fp]++
		}
	}
	sources := map[string]*exec.SharedSource{}
	next := 0
	var rewrite func(n exec.Node) exec.Node
	rewrite = func(n exec.Node) exec.Node {
		if fp, ok := fps[n]; ok && shareable(n) && count[fp] > 1 {
			src, seen := sources[fp]
			if !seen {
				next++
				src = &exec.SharedSource{Input: exec.RewriteChildren(n, rewrite), ID: next}
				sources[fp] = src
			}
			return &exec.SharedRead{Src: src, ID: src.ID, Primary: !seen}
		}
		return exec.RewriteChildren(n, rewrite)
	}
	if len(count) == 0 {
		return root
	}
	return rewrite(root)
}

// repeatedShapes returns the shareable subtrees of root whose shape
// (the tree, its common operators' kinds) another one has. Equal subtrees
// have equal shapes, so only these can be equal, and only they need
// fingerprints: every parameter of every node below, written out (made
// for every node, they were a fifth of planning a TPC-H query).
func repeatedShapes(root exec.Node) []exec.Node {
	byShape := map[uint64][]exec.Node{}
	var shape func(n exec.Node) uint64
	shape = func(n exec.Node) uint64 {
		var h maphash.Hash
		h.SetSeed(shapeSeed)
		h.WriteByte(kindTag(n))
		for _, c := range n.Children() {
			maphash.WriteComparable(&h, shape(c))
		}
		sum := h.Sum64()
		if shareable(n) {
			byShape[sum] = append(byShape[sum], n)
		}
		return sum
	}
	shape(root)
	var out []exec.Node
	for _, ns := range byShape {
		if len(ns) > 1 {
			out = append(out, ns...)
		}
	}
	return out
}

var shapeSeed = maphash.MakeSeed()

// kindTag tells the common operators apart for shapes (0: the others);
// shapes only narrow the search, fingerprints decide.
func kindTag(n exec.Node) byte {
	switch n.(type) {
	case *exec.HashAggregate:
		return 1
	case *exec.HashJoin:
		return 2
	case *exec.Sort:
		return 3
	case *exec.Window:
		return 4
	case *exec.Scan:
		return 5
	case *exec.Filter:
		return 6
	case *exec.Project:
		return 7
	}
	return 0
}

func shareable(n exec.Node) bool {
	switch n.(type) {
	case *exec.HashAggregate, *exec.HashJoin, *exec.Sort, *exec.Window:
		return true
	}
	return false
}
