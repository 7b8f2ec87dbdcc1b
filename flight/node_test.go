//go:build unix

package flight

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// The Node client test reads gq's answers with @lakehouse-rs/flight-sql-client,
// a Node binding of arrow-rs's Flight SQL client: a reader from another
// language, of the kind that knows decimal128 only. Its script and locked
// dependencies are in testdata/node; scripts/install-test-deps.sh installs
// them, and the test itself does (npm ci) when they are missing. Without
// node or npm, or when the registry cannot be reached, the test skips
// with the reason; it never waits on npm longer than npmInstallTimeout.

const (
	nodeDir           = "testdata/node"
	npmInstallTimeout = 3 * time.Minute
	nodeRunTimeout    = 3 * time.Minute
)

var (
	nodeOnce   sync.Once
	nodeBin    string
	nodeReason string // why the Node client cannot run; "" when it can
)

// groupCmd is a command whose process group is killed when ctx ends, so
// that npm's or node's children cannot outlive a timeout, and whose Wait
// returns soon after even if a child holds its output open.
func groupCmd(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = nodeDir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// nodeLoads reports whether node can load the client (its native module
// included).
func nodeLoads(node string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := groupCmd(ctx, node, "-e", "require('@lakehouse-rs/flight-sql-client'); require('apache-arrow')").CombinedOutput()
	if err != nil {
		return &loadError{err: err, out: lastLines(out, 5)}
	}
	return nil
}

type loadError struct {
	err error
	out string
}

func (e *loadError) Error() string { return e.err.Error() + ": " + e.out }

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// nodeClient returns the node binary with the client installed, or skips
// the test saying why it cannot run.
func nodeClient(t *testing.T) string {
	t.Helper()
	nodeOnce.Do(func() {
		node, err := exec.LookPath("node")
		if err != nil {
			nodeReason = "node is not installed (not on PATH)"
			return
		}
		if nodeLoads(node) == nil {
			nodeBin = node
			return
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			nodeReason = "npm is not installed (not on PATH), and " + nodeDir + "/node_modules is missing"
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), npmInstallTimeout)
		defer cancel()
		// package.json overrides the client's freebsd-x64 binary package
		// to the last version published (0.0.7; the client lists 0.0.10,
		// never published): without it the lock file cannot list every
		// optional dependency and npm ci refuses to install.
		out, err := groupCmd(ctx, npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--fetch-retries=1").CombinedOutput()
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			nodeReason = "npm ci in " + nodeDir + " failed (registry unreachable?): " + err.Error() + ": " + lastLines(out, 5)
			return
		}
		if err := nodeLoads(node); err != nil {
			nodeReason = "the Node Flight SQL client does not load on this machine: " + err.Error()
			return
		}
		nodeBin = node
	})
	if nodeReason != "" {
		t.Skip(nodeReason)
	}
	return nodeBin
}

// nodeField is a field as the Node client's Arrow library reads it.
type nodeField struct {
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	BitWidth  *int    `json:"bitWidth"`
	Precision *int    `json:"precision"`
	Scale     *int    `json:"scale"`
	Unit      *int    `json:"unit"`
	Timezone  *string `json:"timezone"`
}

type nodeResult struct {
	SQL    string                 `json:"sql"`
	Fields []nodeField            `json:"fields"`
	Rows   [][]*string            `json:"rows"`
	Error  string                 `json:"error"`
	Tables map[string][]nodeField `json:"tables"`
}

// runNode runs queries (and GetTables when tables) through the Node
// client against the server at addr.
func runNode(t *testing.T, node, addr string, queries []string, tables bool) []nodeResult {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(map[string]any{"queries": queries, "tables": tables})
	ctx, cancel := context.WithTimeout(context.Background(), nodeRunTimeout)
	defer cancel()
	cmd := groupCmd(ctx, node, "query.js", port)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node query.js: %v\n%s\n%s", err, out, stderr.String())
	}
	var res []nodeResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r nodeResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("node output %q: %v", sc.Text(), err)
		}
		res = append(res, r)
	}
	return res
}

// TestNodeClient reads TPC-H q01, a query with a column of each gq type
// (and NULLs of each), and GetTables' schemas through the Rust-based Node
// client, and compares every value with the engine's answer (q01's also
// with DuckDB's, checkQ01): DECIMAL arrives as decimal128 of the column's
// precision and scale, TIMESTAMP and TIME in microseconds, TIMESTAMPTZ
// with its zone, lists, structs and maps with their values.
func TestNodeClient(t *testing.T) {
	node := nodeClient(t)
	e := typesEngine(t)
	addr, _ := startServer(t, Config{Engine: e})
	queries := []string{tpchQuery(t, 1), typesQuery}
	results := runNode(t, node, addr, queries, true)
	if len(results) != len(queries)+1 {
		t.Fatalf("%d results from node, want %d: %+v", len(results), len(queries)+1, results)
	}
	for qi, sql := range queries {
		r := results[qi]
		if r.Error != "" {
			t.Errorf("query %d: the Node client failed: %s", qi, r.Error)
			continue
		}
		schema, want := engineRows(t, e, sql)
		if qi == 1 {
			coversTypes(t, schema)
		}
		if len(r.Fields) != schema.NumFields() {
			t.Fatalf("query %d: %d fields, want %d", qi, len(r.Fields), schema.NumFields())
		}
		for c, f := range schema.Fields() {
			checkNodeField(t, r.Fields[c], f)
		}
		got := make([][]string, len(r.Rows))
		for i, row := range r.Rows {
			got[i] = make([]string, len(row))
			for c, v := range row {
				got[i][c] = nodeCell(t, v, schema.Field(c).Type)
			}
		}
		compareRows(t, "node: "+strings.SplitN(sql, "\n", 2)[0], got, want)
		if qi == 0 {
			checkQ01(t, "node", schema, got)
		}
	}
	// GetTables(include_schema): lineitem's DECIMAL columns decimal128.
	tr := results[len(queries)]
	if tr.Error != "" || tr.Tables == nil {
		t.Fatalf("GetTables through the Node client: %s", tr.Error)
	}
	li, _ := e.Catalog().Table("lineitem")
	fields := tr.Tables["lineitem"]
	if len(fields) != li.Schema().NumFields() {
		t.Fatalf("lineitem: %d fields through GetTables, want %d", len(fields), li.Schema().NumFields())
	}
	for c, f := range li.Schema().Fields() {
		checkNodeField(t, fields[c], f)
	}
}

// checkNodeField checks the Node client read field f (an engine field)
// as its wire type: a DECIMAL a 128-bit decimal of f's precision and
// scale, a TIMESTAMP or TIME in microseconds (apache-arrow's TimeUnit 2)
// with f's zone, an INTERVAL of months, days and nanoseconds
// (IntervalUnit 2).
func checkNodeField(t *testing.T, got nodeField, f arrow.Field) {
	t.Helper()
	if got.Name != f.Name {
		t.Errorf("field %q, want %q", got.Name, f.Name)
	}
	const micro, monthDayNano = 2, 2
	var prec, scale int32
	switch dt := f.Type.(type) {
	case *arrow.Decimal64Type:
		prec, scale = dt.Precision, dt.Scale
	case *arrow.Decimal128Type:
		prec, scale = dt.Precision, dt.Scale
	case *arrow.TimestampType:
		if deref(got.Unit) != micro || deref(got.Timezone) != nonEmpty(dt.TimeZone) {
			t.Errorf("field %s: %s (unit %v, zone %v), want microseconds, zone %q", f.Name, got.Type, deref(got.Unit), deref(got.Timezone), dt.TimeZone)
		}
	case *arrow.Time64Type:
		if deref(got.Unit) != micro {
			t.Errorf("field %s: %s (unit %v), want microseconds", f.Name, got.Type, deref(got.Unit))
		}
	case *arrow.MonthDayNanoIntervalType:
		if deref(got.Unit) != monthDayNano {
			t.Errorf("field %s: %s (unit %v), want MONTH_DAY_NANO", f.Name, got.Type, deref(got.Unit))
		}
	}
	if prec > 0 && (got.BitWidth == nil || *got.BitWidth != 128 || got.Precision == nil || *got.Precision != int(prec) ||
		got.Scale == nil || *got.Scale != int(scale)) {
		t.Errorf("field %s: %s (bit width %v, precision %v, scale %v), want decimal128(%d, %d)",
			f.Name, got.Type, deref(got.BitWidth), deref(got.Precision), deref(got.Scale), prec, scale)
	}
}

// nonEmpty is s, or nil for "" (a field without a zone).
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// nodeCell is a value the Node script printed, in canonical text: its
// doubles (JavaScript's shortest round-trip digits) are parsed and
// printed as Go prints them.
func nodeCell(t *testing.T, v *string, typ arrow.DataType) string {
	t.Helper()
	if v == nil {
		return cellNull
	}
	if typ.ID() == arrow.FLOAT64 {
		f, err := strconv.ParseFloat(*v, 64)
		if err != nil {
			t.Fatalf("node double %q: %v", *v, err)
		}
		return floatText(f)
	}
	return *v
}
