package tpch

import (
	"strings"
	"testing"
)

func TestCellEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"abc", "abc", true},
		{"abc", "ABC", false},
		{"", "", true},
		{"", "0", false},
		{"0.0500", "0.05", true},
		{"2.55", "2.5499999999999998", true},
		{"2.55", "2.56", false},
		{"2.55", "2.5449999", false},
		{"3", "4", false},
		{"3", "3.0", true},
		{"1e-12", "0", true},
		{"38250854.6263", "38250854.626300004", true},
		{"1.6263", "1.6264", false},
		{"38250854.6263", "38250854.6264", true}, // within relative 1e-9
		{"13", "13", true},
		{"1996-01-02", "1996-01-02", true},
		{"1996-01-02", "1996-01-03", false},
		{"NaN", "NaN", true},
		{"Inf", "NaN", false},
	}
	for _, tc := range tests {
		if got := cellEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("cellEqual(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCompareCSV(t *testing.T) {
	const base = "name,v\nb,2.55\na,1\n\"x,y\",\n"
	tests := []struct {
		name      string
		got, want string
		ordered   bool
		errSubstr string // "" means equal
	}{
		{"identical", base, base, true, ""},
		{"header case", "NAME,V\nb,2.55\na,1\n\"x,y\",\n", base, true, ""},
		{"float vs decimal", "name,v\nb,2.5499999999999998\na,1.000\n\"x,y\",\n", base, true, ""},
		{"header differs", "nm,v\nb,2.55\na,1\n\"x,y\",\n", base, true, "column 1"},
		{"row count", "name,v\nb,2.55\n", base, true, "got 1 rows, want 3"},
		{"value differs", "name,v\nb,2.56\na,1\n\"x,y\",\n", base, true, `"2.56"`},
		{"null vs zero", "name,v\nb,2.55\na,1\n\"x,y\",0\n", base, false, "no match"},
		{"order ignored", "name,v\na,1\nb,2.55\n\"x,y\",\n", base, false, ""},
		{"order checked", "name,v\na,1\nb,2.55\n\"x,y\",\n", base, true, "not in order: row 1 column name"},
		{"duplicates counted", "name,v\na,1\na,1\n\"x,y\",\n", base, false, "no match"},
		{"empty results", "name,v\n", "name,v\n", true, ""},
		{"bad csv", "name,v\n\"a,1\n", base, true, "got:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CompareCSV([]byte(tc.got), []byte(tc.want), tc.ordered)
			switch {
			case tc.errSubstr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.errSubstr != "" && err == nil:
				t.Errorf("no error, want one containing %q", tc.errSubstr)
			case tc.errSubstr != "" && !strings.Contains(err.Error(), tc.errSubstr):
				t.Errorf("error %q does not contain %q", err, tc.errSubstr)
			}
		})
	}
}

// A result whose rows differ from the expected one only in the order of
// rows with equal ORDER BY values passes CompareCSVQuery; a reordering
// that breaks the ORDER BY does not.
func TestCompareCSVQueryTies(t *testing.T) {
	const q = "select k, v from t order by v desc;"
	want := []byte("k,v\n1,30\n2,20\n3,20\n4,10\n")
	ties := []byte("k,v\n1,30\n3,20\n2,20\n4,10\n")
	wrong := []byte("k,v\n1,30\n4,10\n3,20\n2,20\n")
	if err := CompareCSVQuery(ties, want, q); err != nil {
		t.Errorf("ties reordered: %v", err)
	}
	if err := CompareCSVQuery(wrong, want, q); err == nil {
		t.Error("rows out of ORDER BY order passed")
	}
	if err := CompareCSVQuery(ties, want, "select k, v from t order by v + 1"); err == nil {
		t.Error("an ORDER BY expression left the comparison loose")
	}
}
