package duckdb

import (
	"strings"
	"testing"
)

// familyMarks is text every query of a family holds: the construct it is
// there to draw.
var familyMarks = map[string][]string{
	"concat":    {"||"},
	"groups":    {" groups "},
	"firstlast": {"first(", "last(", "entropy("},
	"lagcol":    {"lag(", "lead(", "nth_value("},
	"recursive": {"with recursive "},
}

// TestConstructFamilies draws from each constructs family alone: every
// query is drawn from that family, spelt without the dual markers on
// either side, holds its family's construct, and the same seed draws the
// same queries.
func TestConstructFamilies(t *testing.T) {
	for _, f := range constructFamilies {
		g, err := NewConstructGen(3, f.name)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := NewConstructGen(3, f.name)
		const n = 200
		for range n {
			q, r := g.Next(), again.Next()
			if q.SQL == "" || q.SQL != r.SQL || q.Duck != r.Duck {
				t.Fatalf("%s: %q then %q for one seed", f.name, q.SQL, r.SQL)
			}
			for _, s := range []string{q.SQL, q.Duck, q.Select, q.From, q.Where} {
				if strings.ContainsAny(s, "\x01\x02\x03") {
					t.Fatalf("%s: a dual marker left in %q", f.name, s)
				}
			}
			if marks := familyMarks[f.name]; marks != nil && !containsAny(q.SQL, marks) {
				t.Fatalf("%s: none of %q in %q", f.name, marks, q.SQL)
			}
			if q.Duck == q.SQL {
				t.Fatalf("%s: Duck is set to the same text: %q", f.name, q.SQL)
			}
		}
		if g.FamilyDrawn[f.name] != n || len(g.FamilyDrawn) != 1 {
			t.Errorf("%s: drew %v", f.name, g.FamilyDrawn)
		}
	}
	if _, err := NewConstructGen(3, "no such family"); err == nil {
		t.Error("an unknown family was accepted")
	}
}

func TestSpell(t *testing.T) {
	s := "a " + dual("x", "y") + " b " + dual("", "2") + "."
	if got := spell(s, 0); got != "a x b ." {
		t.Errorf("gq side %q", got)
	}
	if got := spell(s, 1); got != "a y b 2." {
		t.Errorf("DuckDB side %q", got)
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
