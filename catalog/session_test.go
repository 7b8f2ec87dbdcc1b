package catalog

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestSessionCatalog(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	shared := New()
	if err := shared.Register(NewMemTable("lineitem", schema, nil), false); err != nil {
		t.Fatal(err)
	}
	a, b := shared.Session(), shared.Session()
	if _, ok := a.Table("LINEITEM"); !ok {
		t.Fatal("a session does not see the shared table")
	}
	for _, err := range []error{
		a.DropTable("lineitem", false),
		a.DropTable("lineitem", true),
		a.Register(NewMemTable("lineitem", schema, nil), true),
		a.CreateView(&View{Name: "lineitem", SQL: "select 1"}, true),
	} {
		if err == nil || !strings.Contains(err.Error(), "shared catalog") {
			t.Fatalf("DDL on a shared table through a session: %v", err)
		}
	}
	if err := a.Register(NewMemTable("mine", schema, nil), false); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Table("mine"); ok {
		t.Fatal("one session sees another's table")
	}
	if _, ok := shared.Table("mine"); ok {
		t.Fatal("a session's table reached the shared catalog")
	}
	if got := strings.Join(a.Names(), ","); got != "lineitem,mine" {
		t.Fatalf("names %s", got)
	}
	if !a.Owned("mine") || a.Owned("lineitem") {
		t.Fatal("Owned")
	}
	if err := a.DropTable("mine", false); err != nil {
		t.Fatal(err)
	}
	if _, ok := shared.Table("lineitem"); !ok {
		t.Fatal("the shared table is gone")
	}
}
