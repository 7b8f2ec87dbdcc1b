package tpch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"gq/parser/sqlparser"
)

// testdataDir is testdata/tpch relative to this source file.
func testdataDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "tpch")
}

func TestQueriesParse(t *testing.T) {
	parser, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, set := range []string{"queries", "queries_alt"} {
		for n := 1; n <= 22; n++ {
			files = append(files, filepath.Join(testdataDir(t), set, fmt.Sprintf("q%02d.sql", n)))
		}
	}
	files = append(files, filepath.Join(testdataDir(t), "queries", "q15_view.sql"))
	for _, f := range files {
		sql, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pieces, err := parser.SplitStatementToPieces(string(sql))
		if err != nil {
			t.Errorf("%s: split: %v", f, err)
			continue
		}
		want := 1
		if filepath.Base(f) == "q15_view.sql" {
			want = 3
		}
		if len(pieces) != want {
			t.Errorf("%s: %d statements, want %d", f, len(pieces), want)
		}
		for _, p := range pieces {
			if _, err := parser.Parse(p); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}
