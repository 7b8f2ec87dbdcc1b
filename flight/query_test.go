package flight

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-adbc/go/adbc"
	adbcfs "github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/benchmarks/tpch"
)

func tpchQuery(t testing.TB, n int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("../testdata/tpch/queries/q%02d.sql", n))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(b)), ";"))
}

// TestTPCHFlightSQL runs the 22 TPC-H queries through arrow-go's Flight
// SQL client and compares them with the engine's own answers.
func TestTPCHFlightSQL(t *testing.T) {
	e := newEngine(t)
	addr, logs := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	for n := 1; n <= 22; n++ {
		t.Run(fmt.Sprintf("q%02d", n), func(t *testing.T) {
			sql := tpchQuery(t, n)
			info, err := cl.Execute(ctx, sql)
			if err != nil {
				t.Fatal(err)
			}
			schema, got, err := fetch(ctx, t, cl, info)
			defer release(got)
			if err != nil {
				t.Fatal(err)
			}
			if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, e, sql), ordered(sql)); err != nil {
				t.Error(err)
			}
		})
	}
	waitHeld(t, e)
	// One structured record per query, with its figures.
	done := 0
	for _, line := range strings.Split(logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "query done" {
			continue
		}
		done++
		for _, k := range []string{"query_id", "duration", "rows", "bytes", "sql"} {
			if _, ok := rec[k]; !ok {
				t.Errorf("query log lacks %s: %s", k, line)
			}
		}
	}
	if done != 22 {
		t.Errorf("%d 'query done' records, want 22:\n%s", done, logs.String())
	}
}

// adbcConn opens an ADBC Flight SQL connection to addr with extra
// database options.
func adbcConn(t *testing.T, addr string, opts map[string]string) (adbc.Connection, error) {
	t.Helper()
	o := map[string]string{adbc.OptionKeyURI: "grpc://" + addr}
	for k, v := range opts {
		o[k] = v
	}
	if strings.HasPrefix(opts[adbc.OptionKeyURI], "grpc+tls://") {
		o[adbc.OptionKeyURI] = opts[adbc.OptionKeyURI]
	}
	db, err := adbcfs.NewDriver(memory.DefaultAllocator).NewDatabase(o)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	cn, err := db.Open(testCtx(t))
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cn.Close() })
	return cn, nil
}

// TestTPCHADBC runs TPC-H queries through the ADBC Go driver.
func TestTPCHADBC(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cn, err := adbcConn(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	for _, n := range []int{1, 3, 5, 6, 10, 13, 18, 22} {
		t.Run(fmt.Sprintf("q%02d", n), func(t *testing.T) {
			sql := tpchQuery(t, n)
			st, err := cn.NewStatement()
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.SetSqlQuery(sql); err != nil {
				t.Fatal(err)
			}
			rdr, _, err := st.ExecuteQuery(ctx)
			if err != nil {
				t.Fatal(err)
			}
			schema, got := readAll(t, rdr)
			defer release(got)
			if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, e, sql), ordered(sql)); err != nil {
				t.Error(err)
			}
		})
	}
	waitHeld(t, e)
}

// TestWideBatches: an engine batch larger than a gRPC client's default
// 4 MiB message limit reaches the client, cut into smaller messages.
func TestWideBatches(t *testing.T) {
	e := newEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	const sql = "select * from lineitem where l_orderkey <= 60000"
	info, err := cl.Execute(ctx, sql)
	if err != nil {
		t.Fatal(err)
	}
	schema, got, err := fetch(ctx, t, cl, info)
	defer release(got)
	if err != nil {
		t.Fatal(err)
	}
	if err := tpch.CompareCSV(csvOf(t, schema, got), engineCSV(t, e, sql), false); err != nil {
		t.Error(err)
	}
	waitHeld(t, e)
}
