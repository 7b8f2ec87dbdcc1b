package planner

import (
	"strings"
	"testing"
)

// TestEmptyJoins: a join that can match nothing plans no join: inner and
// semi joins become an empty relation, a left join its left input padded
// with NULLs, an anti join its left input; a null-aware anti join (NOT IN)
// keeps its join unless the right side is empty.
func TestEmptyJoins(t *testing.T) {
	cat := tpchCatalog(t)
	tests := []struct{ sql, want string }{
		{"select * from nation join region on 1=0", `
Values cols=[n_nationkey, n_name, n_regionkey, n_comment, r_regionkey, r_name, r_comment] rows=0`},
		{"select n_name from nation join region on n_regionkey = r_regionkey and false", `
Values cols=[n_name] rows=0`},
		{"select n_name, r_name from nation join region on null", `
Values cols=[n_name, r_name] rows=0`},
		{"select n_name, r_name from nation left join region on n_regionkey = r_regionkey and 1=0", `
Project [n_name AS n_name, r_name AS r_name]
└─ Project [n_name AS n_name, NULL AS r_name]
   └─ Scan nation cols=[n_name]`},
		{"select n_name, r_name from region right join nation on 1=0", `
Project [n_name AS n_name, r_name AS r_name]
└─ Project [n_name AS n_name, NULL AS r_name]
   └─ Scan nation cols=[n_name]`},
		{"select n_name, r_name from nation left join (select * from region where false) r on n_regionkey = r_regionkey", `
Project [n_name AS n_name, r_name AS r_name]
└─ Project [n_name AS n_name, NULL AS r_name]
   └─ Scan nation cols=[n_name]`},
		{"select n_name, (select r_name from region where 1=0) from nation", `
Project [n_name AS n_name, r_name AS (select r_name from region where 1 = 0)]
└─ Project [n_name AS n_name, NULL AS r_name]
   └─ Scan nation cols=[n_name]`},
		{"select n_name from nation where exists (select 1 from region where 1=0)", `
Values cols=[n_name] rows=0`},
		{"select n_name from nation where n_regionkey in (select r_regionkey from region where 1=0)", `
Values cols=[n_name] rows=0`},
		{"select n_name from nation where not exists (select 1 from region where r_regionkey = n_regionkey and 1=0)", `
Project [n_name AS n_name]
└─ Scan nation cols=[n_name]`},
		{"select n_name from nation where n_regionkey not in (select r_regionkey from region where 1=0)", `
Project [n_name AS n_name]
└─ Scan nation cols=[n_name]`},
		{"select n_regionkey, count(*) from nation join region on 1=0 group by n_regionkey", `
Values cols=[n_regionkey, count(*)] rows=0`},
		// No GROUP BY: one row (count 0) from no row.
		{"select count(*) from nation join region on 1=0", `
Project [count(*) AS count(*)]
└─ Aggregate keys=[] aggs=[count_star(*) AS count(*)]
   └─ Values cols=[n_nationkey] rows=0`},
		// A condition that is not constant keeps its join.
		{"select n_name from nation left join region on n_regionkey = r_regionkey", `
Project [n_name AS n_name]
└─ Join left on eq(n_regionkey, r_regionkey)
   ├─ Scan nation cols=[n_name, n_regionkey]
   └─ Scan region cols=[r_regionkey]`},
	}
	for _, tc := range tests {
		p, err := bindSQL(cat, tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if p, err = Optimize(p); err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		got := strings.TrimSpace(tClean(Format(p)))
		if want := strings.TrimSpace(tc.want); got != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.sql, got, want)
		}
	}
}
