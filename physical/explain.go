package physical

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/arrowgpu"
	"gq/exec"
	"gq/expr"
	"gq/gpuexec"
	"gq/planner"
)

// Explain renders a physical plan as an indented tree, one node a line,
// with the details that matter: join type, keys and build side, filters,
// aggregates, sort keys, top-N limits, estimated rows of scans.
func Explain(n exec.Node) string {
	var b strings.Builder
	explainNode(&b, n, "", "", gpuexec.OnGPU(n))
	return b.String()
}

// explainNode writes n's line and its children's; marks suffixes each line
// with its device ([GPU] or [CPU]) when some operator runs on the GPU.
func explainNode(b *strings.Builder, n exec.Node, first, rest string, marks bool) {
	b.WriteString(first)
	b.WriteString(Describe(n))
	if marks {
		b.WriteString(gpuexec.DeviceMark(n))
	}
	b.WriteByte('\n')
	ch := n.Children()
	for i, c := range ch {
		if i == len(ch)-1 {
			explainNode(b, c, rest+"└─ ", rest+"   ", marks)
		} else {
			explainNode(b, c, rest+"├─ ", rest+"│  ", marks)
		}
	}
}

func exprs(es []expr.Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = show(e)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// show renders an expression with column names only (positions are noise
// in EXPLAIN); an unnamed column shows as #position.
func show(e expr.Expr) string {
	switch x := e.(type) {
	case *expr.Column:
		if x.Name != "" {
			return x.Name
		}
		return fmt.Sprintf("#%d", x.Index)
	case *expr.Call:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = show(a)
		}
		if (x.Fn == "cast" || x.Fn == "key_cast" || x.Fn == "nn_key_cast") && len(args) == 1 {
			return fmt.Sprintf("%s(%s as %s)", x.Fn, args[0], x.Type)
		}
		return x.Fn + "(" + strings.Join(args, ", ") + ")"
	case nil:
		return ""
	}
	return e.String()
}

func sortKeys(keys []exec.SortKey) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		dir := " ASC"
		if k.Desc {
			dir = " DESC"
		}
		s[i] = show(k.Expr) + dir
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// topText is a GPU operator's " top=N by COLUMN DESC|ASC" ("" without a
// top-N): out names the column.
func topText(n int, top arrowgpu.OrderKey, out *arrow.Schema) string {
	if n <= 0 {
		return ""
	}
	dir := "ASC"
	if top.Desc {
		dir = "DESC"
	}
	return fmt.Sprintf(" top=%d by %s %s", n, out.Field(top.Col).Name, dir)
}

// partitionText is a GPU operator's " partitioned=[KEYS]/N" ("" without
// a device partitioning): out names the key columns.
func partitionText(p *gpuexec.DevicePartition, out *arrow.Schema) string {
	if p == nil {
		return ""
	}
	names := make([]string, len(p.Keys))
	for i, k := range p.Keys {
		names[i] = out.Field(k).Name
	}
	return fmt.Sprintf(" partitioned=[%s]/%d", strings.Join(names, ", "), p.Parts)
}

// stagesText is the EXPLAIN text of the stages of a GPU operator's
// pipeline after its end stage: out is the operator's output, cpu its CPU
// twin (the Sort whose keys a sort stage shows).
func stagesText(p gpuexec.Pipeline, out *arrow.Schema, cpu exec.Node) string {
	s := ""
	for _, st := range p.Stages {
		switch st := st.(type) {
		case gpuexec.HavingStage:
			s += " having=" + show(st.Pred)
			if st.Feed != nil {
				s += " (with the scalar subquery's row)"
			}
		case gpuexec.OuterAggStage:
			o := st.Outer
			keys := make([]expr.Expr, len(o.Keys))
			for i, k := range o.Keys {
				keys[i] = &expr.Column{Index: k, Name: o.Inner.Field(k).Name}
			}
			s += fmt.Sprintf(" then keys=%s aggs=%s", exprs(keys), aggList(o.Aggs))
		case gpuexec.TopNStage:
			s += topText(st.N, st.Top, out)
		case gpuexec.SortStage:
			if sort, ok := cpu.(*exec.Sort); ok {
				s += " sort=" + sortKeys(sort.Keys)
			}
		case gpuexec.PartitionStage:
			s += partitionText(st.Partition, out)
		}
	}
	return s
}

// joinsText is the EXPLAIN text of a GPU pipeline's joins: per join, what
// it replaces and its filter; the build sides are the node's children.
func joinsText(p gpuexec.Pipeline) string {
	s := ""
	for k, j := range p.Joins() {
		s += fmt.Sprintf(" ⋈ %s (build %d)", j.Explain, k+1)
		if j.Filter != nil {
			s += fmt.Sprintf(" filter=%s", j.Filter)
		}
	}
	return s
}

// Describe is the EXPLAIN line of one node (without its children).
func Describe(n exec.Node) string {
	switch x := n.(type) {
	case *exec.Analyzed:
		return Describe(x.Inner)
	case *gpuexec.GPUAggregate:
		p := x.Pipeline()
		mode := "partial "
		if p.Final() {
			mode = ""
		}
		return fmt.Sprintf("GPUAggregate %skeys=%s aggs=%s%s over %s%s", mode, exprs(p.Keys()), aggList(p.Aggs()), stagesText(p, x.Out, nil), Describe(p.Scan()), joinsText(p))
	case *gpuexec.GPUJoinRows:
		p := x.Pipeline()
		return fmt.Sprintf("GPUJoinRows cols=%s%s over %s%s", exprs(x.Exprs()), stagesText(p, x.Out, x.CPU), Describe(p.Scan()), joinsText(p))
	case *gpuexec.GPUScan:
		s := "GPU" + Describe(x.CPU)
		if x.CPU.Filter != nil {
			s = strings.Replace(s, " filter="+show(x.CPU.Filter), "", 1)
			if x.DeviceFilter != nil {
				s += " device-filter=" + show(x.DeviceFilter)
			}
			if x.HostFilter != nil {
				s += " host-filter=" + show(x.HostFilter)
			}
		}
		return s + partitionText(x.Partition, x.Schema())
	case *exec.Scan:
		names := make([]string, x.Out.NumFields())
		for i, f := range x.Out.Fields() {
			names[i] = f.Name
		}
		s := fmt.Sprintf("Scan %s cols=[%s]", x.Table.Name(), strings.Join(names, ", "))
		if x.Emit != nil {
			s += fmt.Sprintf(" (of %d read)", len(x.Columns))
		}
		if x.Filter != nil {
			s += " filter=" + show(x.Filter)
		}
		for _, f := range x.JoinFilters {
			s += fmt.Sprintf(" %s=%s", f.Filter, exprs(f.Keys))
		}
		if rc := x.Table.Stats().RowCount; rc >= 0 {
			s += fmt.Sprintf(" rows≈%d", rc)
		}
		return s
	case *exec.Values:
		return fmt.Sprintf("Values rows=%d cols=%d", len(x.Rows), x.Out.NumFields())
	case *exec.Filter:
		return "Filter " + show(x.Pred) + keepOrder(x.KeepOrder)
	case *exec.Project:
		return "Project " + exprs(x.Exprs) + keepOrder(x.KeepOrder)
	case *exec.HashAggregate:
		return fmt.Sprintf("HashAggregate keys=%s aggs=%s", exprs(x.GroupBy), aggList(x.Aggs))
	case *exec.HashJoin:
		keys := make([]string, len(x.LeftKeys))
		for i := range x.LeftKeys {
			keys[i] = show(x.LeftKeys[i]) + " = " + show(x.RightKeys[i])
		}
		s := fmt.Sprintf("HashJoin %s keys=[%s]", x.Type, strings.Join(keys, ", "))
		if x.Extra != nil {
			s += " extra=" + show(x.Extra)
		}
		if x.NullAware {
			s += " null-aware"
		}
		if x.Publish != nil {
			s += " filters=" + x.Publish.String()
			if x.Publish.Keys != nil {
				s += fmt.Sprintf(" on keys %v", x.Publish.Keys)
			}
		}
		if x.BuildLeft {
			return s + " build=left"
		}
		return s + " build=right"
	case *exec.NestedLoopJoin:
		s := "NestedLoopJoin " + x.Type.String()
		if x.Cond != nil {
			s += " cond=" + show(x.Cond)
		}
		return s
	case *gpuexec.GPUSort:
		return fmt.Sprintf("GPUSort %s (on the device from %d rows)", sortKeys(x.CPU.Keys), gpuexec.GPUSortMinRows)
	case *exec.Sort:
		s := "Sort " + sortKeys(x.Keys)
		if x.Limit >= 0 {
			s += fmt.Sprintf(" limit=%d", x.Limit)
			if x.Offset > 0 {
				s += fmt.Sprintf(" offset=%d", x.Offset)
			}
		}
		return s
	case *exec.Limit:
		return fmt.Sprintf("Limit %d offset=%d", x.Count, x.Offset)
	case *exec.Window:
		fs := make([]string, len(x.Funcs))
		for i, f := range x.Funcs {
			inner := ""
			if len(f.Order) > 0 {
				inner = " order by " + strings.Trim(sortKeys(f.Order), "[]")
			}
			dist := ""
			if f.Distinct {
				dist = "DISTINCT "
			}
			fs[i] = f.Fn + "(" + dist + strings.Trim(exprs(f.Args), "[]") + planner.AggParamSuffix(f.Param) + inner + ")" + windowFuncDetail(f, len(x.OrderBy) > 0)
		}
		return fmt.Sprintf("Window partition=%s order=%s funcs=[%s]", exprs(x.PartitionBy), sortKeys(x.OrderBy), strings.Join(fs, ", "))
	case *exec.UnionAll:
		return fmt.Sprintf("UnionAll inputs=%d", len(x.Inputs))
	}
	return n.Explain()
}

// aggList renders aggregates as [fn(arg), count_star(*), fn(DISTINCT arg)].
func aggList(aggs []exec.AggFunc) string {
	s := make([]string, len(aggs))
	for i, a := range aggs {
		arg := "*"
		if a.Arg != nil {
			arg = show(a.Arg)
		}
		if a.Distinct {
			arg = "DISTINCT " + arg
		}
		s[i] = a.Fn + "(" + arg + planner.AggParamSuffix(a.Param) + ")"
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func keepOrder(k bool) string {
	if k {
		return " keep-order"
	}
	return ""
}

// ExplainAnalyze renders an instrumented plan after its run: one line per
// operator with rows, batches, its active wall time (open to last batch),
// self time (how long its consumer waited for its batches minus the same
// for its inputs: its share of the critical path; operators running in
// parallel overlap, so the column does not sum to the total), the device
// it ran on, and a column for each figure
// an operator reports (peak memory and spilled bytes for every one, and
// what exec.RunStatsReporter gives: shuffled bytes, device figures), then the tree as EXPLAIN draws it. Numbers come
// first so they line up however deep the tree is.
func ExplainAnalyze(root exec.Node, total time.Duration, resultRows int64) string {
	type line struct {
		tree  string
		st    exec.OpStats
		known bool
	}
	var lines []line
	var extraNames []string
	extraUnit := map[string]string{}
	var walk func(n exec.Node, first, rest string)
	walk = func(n exec.Node, first, rest string) {
		l := line{tree: first}
		inner := n
		if a, ok := n.(*exec.Analyzed); ok {
			l.st, l.known, inner = a.Stats(), true, a.Inner
			for _, x := range l.st.Extra {
				if _, ok := extraUnit[x.Name]; !ok {
					extraNames = append(extraNames, x.Name)
					extraUnit[x.Name] = x.Unit
				}
			}
		}
		l.tree += Describe(inner)
		lines = append(lines, l)
		ch := inner.Children()
		for i, c := range ch {
			if i == len(ch)-1 {
				walk(c, rest+"└─ ", rest+"   ")
			} else {
				walk(c, rest+"├─ ", rest+"│  ")
			}
		}
	}
	walk(root, "", "")

	head := append([]string{"rows", "batches", "time", "self", "device"}, extraNames...)
	cells := make([][]string, len(lines))
	for i, l := range lines {
		if !l.known {
			cells[i] = make([]string, len(head))
			continue
		}
		row := []string{humanCount(l.st.Rows), humanCount(l.st.Batches), humanDuration(l.st.Active), humanDuration(l.st.Self), l.st.Device}
		for _, name := range extraNames {
			v := ""
			for _, x := range l.st.Extra {
				if x.Name == name {
					v = statText(x)
				}
			}
			row = append(row, v)
		}
		cells[i] = row
	}
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len([]rune(h))
		for _, r := range cells {
			width[i] = max(width[i], len([]rune(r[i])))
		}
	}
	var b strings.Builder
	writeRow := func(vals []string, tree string) {
		for i, v := range vals {
			pad := strings.Repeat(" ", width[i]-len([]rune(v)))
			if head[i] == "device" {
				b.WriteString(v + pad + "  ")
			} else {
				b.WriteString(pad + v + "  ")
			}
		}
		b.WriteString(tree)
		b.WriteString("\n")
	}
	writeRow(head, "operator")
	for i, l := range lines {
		writeRow(cells[i], l.tree)
	}
	noun := "rows"
	if resultRows == 1 {
		noun = "row"
	}
	fmt.Fprintf(&b, "Total time %s, %s %s returned\n(time: from the operator's start to its last batch; self: its own share of the critical path)\n", humanDuration(total), humanCount(resultRows), noun)
	return b.String()
}

func statText(s exec.Stat) string {
	switch s.Unit {
	case "bytes":
		return HumanBytes(s.Value)
	case "text":
		return s.Text
	}
	return humanCount(s.Value)
}

// humanCount groups digits by thousands: 6001215 → 6,001,215.
func humanCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// humanDuration shows d with three significant figures in a fitting unit.
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	case d >= time.Microsecond:
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	}
	return "0"
}

// HumanBytes shows a byte count in binary units: 512B, 1.5KiB, 3.2GiB.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%dB", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 4 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f%ciB", f, "KMGTP"[i])
}

// EstimatedRows is the number of rows a leaf operator is expected to emit
// (a scan's table row count, a VALUES list's length), or -1 when unknown;
// the CLI's progress bar measures scans against it.
func EstimatedRows(n exec.Node) int64 {
	if a, ok := n.(*exec.Analyzed); ok {
		n = a.Inner
	}
	switch x := n.(type) {
	case *exec.Scan:
		return x.Table.Stats().RowCount
	case *exec.Values:
		return int64(len(x.Rows))
	}
	return -1
}

// windowFuncDetail is a window function's count argument and its frame
// where that is not the default one.
func windowFuncDetail(f exec.WindowFunc, ordered bool) string {
	s := ""
	switch f.Fn {
	case "ntile", "nth_value", "lag", "lead":
		s = fmt.Sprintf(" n=%d", f.N)
		if k := exec.PerRowN(f); k >= 0 {
			s = " n=" + f.Args[k].String()
		}
	}
	if !planner.FrameAware(f.Fn) && len(f.Order) == 0 {
		return s
	}
	def := exec.WindowFrame{Start: exec.FrameBound{Kind: expr.UnboundedPreceding}, End: exec.FrameBound{Kind: expr.CurrentRow}}
	if !ordered {
		def.End.Kind = expr.UnboundedFollowing
	}
	if f.Frame == def {
		return s
	}
	unit := "range"
	if f.Frame.Rows {
		unit = "rows"
	} else if f.Frame.Groups {
		unit = "groups"
	}
	bound := func(b exec.FrameBound) string {
		switch b.Kind {
		case expr.UnboundedPreceding:
			return "unbounded preceding"
		case expr.UnboundedFollowing:
			return "unbounded following"
		case expr.CurrentRow:
			return "current row"
		}
		off := strconv.FormatFloat(b.Float, 'g', -1, 64)
		if b.PerRow {
			off = "(per row)"
		}
		if b.Months {
			off += " months"
		}
		if b.Kind == expr.OffsetPreceding {
			return off + " preceding"
		}
		return off + " following"
	}
	s += " " + unit + " " + bound(f.Frame.Start) + " to " + bound(f.Frame.End) + f.Frame.Exclude.Suffix()
	if f.IgnoreNulls {
		s += " ignore nulls"
	}
	return s
}
