package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"gq/parser/sqlparser"

	"gq/catalog"
	"gq/errs"
	"gq/exec"
	"gq/expr"
	"gq/format"
	"gq/parser"
	"gq/physical"
	"gq/planner"
)

// run executes one parsed statement.
func (e *Engine) run(ctx context.Context, st parser.Statement) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, exec.CancelledErr(err)
	}
	res, err := e.dispatch(ctx, st.AST)
	if err == nil {
		if err = e.gpuOpened(); err != nil && res != nil {
			res.Release()
			res = nil
		}
	}
	res = e.rootOnly(res)
	if res != nil {
		res.Statement = st.Text
	}
	return res, err
}

func (e *Engine) dispatch(ctx context.Context, ast sqlparser.Statement) (*Result, error) {
	switch s := ast.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		if into := intoOf(s); into != nil {
			return e.intoOutfile(ctx, s, into)
		}
		return e.query(ctx, s)
	case *sqlparser.ExplainStmt:
		return e.explain(ctx, s)
	case *sqlparser.ExplainTab:
		return e.describe(ctx, s.Table.Name.String())
	case *sqlparser.DescribeTableFunc:
		t, err := planner.OpenTableFunc(ctx, e.catalog(ctx), s.Func)
		if err != nil {
			return nil, err
		}
		return describeTable(t), nil
	case *sqlparser.CopyTo:
		return e.copyTo(ctx, s)
	case *sqlparser.CreateView:
		return e.createView(ctx, s)
	case *sqlparser.DropView:
		for _, t := range s.FromTables {
			if err := e.catalog(ctx).DropView(t.Name.String(), s.IfExists); err != nil {
				return nil, err
			}
		}
		return &Result{}, nil
	case *sqlparser.CreateTable:
		return e.createTable(ctx, s)
	case *sqlparser.Insert:
		return e.insert(ctx, s)
	case *sqlparser.DropTable:
		for _, t := range s.FromTables {
			if err := e.dropTable(ctx, t.Name.String(), s.IfExists); err != nil {
				return nil, err
			}
		}
		return &Result{}, nil
	case *sqlparser.Show:
		return e.show(ctx, s)
	case *sqlparser.Set:
		return e.set(s)
	}
	return nil, errs.New(errs.Unsupported, "%s statements are not supported", kindName(ast))
}

// kindName names a statement's kind for error messages ("INSERT", "UPDATE").
func kindName(ast sqlparser.Statement) string {
	name := fmt.Sprintf("%T", ast)
	name = strings.TrimPrefix(name, "*sqlparser.")
	switch name {
	case "Insert":
		if ins, ok := ast.(*sqlparser.Insert); ok && ins.Action == sqlparser.ReplaceAct {
			return "REPLACE"
		}
	}
	return strings.ToUpper(name)
}

// plan binds, optimises and lowers a query. A panic there is a gq bug; it
// becomes an Internal error rather than ending the process (a REPL session
// survives it).
func (e *Engine) plan(ctx context.Context, ast sqlparser.Statement) (p planner.Plan, n exec.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, n, err = nil, nil, errs.New(errs.Internal, "planning panicked: %v", r)
		}
	}()
	p, err = planner.BindContext(ctx, e.catalog(ctx), ast)
	if err != nil {
		return nil, nil, err
	}
	return e.lower(p)
}

// lower optimises and lowers a bound plan (plan's second half, for
// statements the planner binds by other means: INSERT's rows).
func (e *Engine) lower(p planner.Plan) (_ planner.Plan, n exec.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, n, err = nil, nil, errs.New(errs.Internal, "planning panicked: %v", r)
		}
	}()
	p, err = planner.Optimize(p)
	if err != nil {
		return nil, nil, err
	}
	n, err = physical.Lower(p)
	if err != nil {
		return nil, nil, err
	}
	if e.NRanks() == 1 { // exchanges make copies of a subplan differ
		n = physical.PruneScanOutputs(physical.AttachJoinFilters(physical.ShareCommonSubplans(n)))
	}
	if e.gpuErr != nil {
		return nil, nil, e.gpuErr
	}
	// With ranks, the GPU takes its operators after the exchanges are
	// placed (distribute).
	if e.NRanks() == 1 {
		if n, err = e.placeOnGPU(n, false); err != nil {
			return nil, nil, err
		}
	}
	return p, n, nil
}

// query runs a row-returning statement and collects its batches, so that a
// failing query shows nothing partial.
func (e *Engine) query(ctx context.Context, ast sqlparser.Statement) (*Result, error) {
	p, root, err := e.plan(ctx, ast)
	return e.collect(ctx, p, root, err, ast)
}

// collect runs a planned query (p lowered to root, or planning's error)
// and collects its batches; ast names it in operator statistics.
func (e *Engine) collect(ctx context.Context, p planner.Plan, root exec.Node, err error, ast sqlparser.Statement) (*Result, error) {
	root, ops, err := e.distribute(ctx, root, err)
	if err != nil {
		return nil, e.agree(ctx, err)
	}
	root = trackProgress(ctx, root)
	root, reportOps := e.operatorStats(root, ast)
	schema := planSchema(p.Columns())
	fields := schema.Fields()
	res := &Result{Schema: schema}
	copts, qa, qs := e.queryContext(exec.Options{Threads: e.opts.Threads, BatchSize: e.opts.BatchSize})
	res.Stats, res.Mem = qs, qa
	defer e.finishQuery(qa, qs)
	c := exec.NewContext(ctx, copts)
	start := time.Now()
	err = exec.Run(c, root, func(b arrow.RecordBatch) error {
		if b.NumRows() == 0 {
			return nil
		}
		if int(b.NumCols()) != len(fields) {
			return errs.New(errs.Internal, "query produced %d columns, plan has %d", b.NumCols(), len(fields))
		}
		// Rewrap under the plan's schema: the header names are the
		// plan's, whatever names the operators used.
		res.Batches = append(res.Batches, array.NewRecordBatch(schema, b.Columns(), b.NumRows()))
		return nil
	})
	if err != nil {
		e.abortRanks(ops, err)
	}
	if err = e.agree(ctx, err); err != nil {
		res.Release()
		return nil, err
	}
	reportOps(time.Since(start), res.NumRows())
	return res, nil
}

// explain returns the physical plan of a query as one String column.
func (e *Engine) explain(ctx context.Context, s *sqlparser.ExplainStmt) (*Result, error) {
	switch s.Statement.(type) {
	case *sqlparser.Select, *sqlparser.Union:
	default:
		return nil, errs.New(errs.Unsupported, "EXPLAIN of %s statements is not supported", kindName(s.Statement))
	}
	if s.Type == sqlparser.AnalyzeType {
		return e.explainAnalyze(ctx, s.Statement)
	}
	_, root, err := e.plan(ctx, s.Statement)
	if err == nil {
		root, err = e.explainDistributed(root)
	}
	if err != nil {
		return nil, err
	}
	return explainResult(physical.Explain(root)), nil
}

func (e *Engine) createView(ctx context.Context, s *sqlparser.CreateView) (*Result, error) {
	name := s.ViewName.Name.String()
	// Bind now so a broken view fails at CREATE, not at first use.
	if _, err := planner.BindContext(ctx, e.catalog(ctx), s.Select); err != nil {
		return nil, err
	}
	v := &catalog.View{Name: name, SQL: sqlparser.String(s.Select)}
	for _, c := range s.Columns {
		v.Columns = append(v.Columns, c.String())
	}
	return &Result{}, e.catalog(ctx).CreateView(v, s.IsReplace)
}

func (e *Engine) show(ctx context.Context, s *sqlparser.Show) (*Result, error) {
	b, ok := s.Internal.(*sqlparser.ShowBasic)
	if ok {
		switch b.Command {
		case sqlparser.Table:
			var rows [][]string
			for _, n := range e.catalog(ctx).Names() {
				rows = append(rows, []string{n})
			}
			return stringResult([]string{"name"}, rows), nil
		case sqlparser.Column:
			return e.describe(ctx, b.Tbl.Name.String())
		}
	}
	return nil, errs.New(errs.Unsupported, "this SHOW statement is not supported (try SHOW TABLES or SHOW COLUMNS FROM t)")
}

// describe lists a table's or view's columns, or a file's: a name with
// '/', '.' or '*' that is no table is opened as FROM opens it (under the
// catalog's file-access policy).
func (e *Engine) describe(ctx context.Context, name string) (*Result, error) {
	cat := e.catalog(ctx)
	if t, ok := cat.Table(name); ok {
		return describeTable(t), nil
	}
	v, ok := cat.View(name)
	if !ok {
		if strings.ContainsAny(name, "/.*") {
			t, err := cat.OpenFile(ctx, name, name)
			if err != nil {
				return nil, err
			}
			return describeTable(t), nil
		}
		return nil, errs.NewNear(errs.Binding, name, "table %s does not exist", name)
	}
	ast, err := parser.Split(v.SQL)
	if err != nil || len(ast) != 1 {
		return nil, errs.New(errs.Internal, "view %s does not parse: %v", name, err)
	}
	p, err := planner.BindContext(ctx, cat, ast[0].AST)
	if err != nil {
		return nil, err
	}
	var fields []arrow.Field
	for i, c := range p.Columns() {
		n := c.Name
		if i < len(v.Columns) {
			n = v.Columns[i]
		}
		fields = append(fields, arrow.Field{Name: n, Type: c.Type, Nullable: c.Nullable})
	}
	return describeRows(arrow.NewSchema(fields, nil), nil), nil
}

// describeTable lists t's columns, those of its files gq cannot read last.
func describeTable(t catalog.Table) *Result {
	return describeRows(t.Schema(), catalog.Unreadable(t))
}

// describeRows is DESCRIBE's result: a row per column, then one per
// unreadable column with the file's type for it and why gq cannot read it.
func describeRows(schema *arrow.Schema, unreadable []catalog.UnreadableColumn) *Result {
	var rows [][]string
	for _, f := range schema.Fields() {
		null := "NO"
		if f.Nullable {
			null = "YES"
		}
		rows = append(rows, []string{f.Name, format.TypeName(f.Type), null})
	}
	for _, u := range unreadable {
		rows = append(rows, []string{u.Name, u.Type + " (not readable: " + u.Why + ")", "YES"})
	}
	return stringResult([]string{"column_name", "column_type", "null"}, rows)
}

// stringResult builds a one-batch result of String columns.
func stringResult(names []string, rows [][]string) *Result {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: expr.String}
	}
	schema := arrow.NewSchema(fields, nil)
	bld := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer bld.Release()
	for _, r := range rows {
		for i, v := range r {
			bld.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	res := &Result{Schema: schema}
	if len(rows) > 0 {
		res.Batches = []arrow.RecordBatch{bld.NewRecordBatch()}
	}
	return res
}
