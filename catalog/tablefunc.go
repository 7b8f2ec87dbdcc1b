package catalog

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
	"gq/expr"
)

// parquetOptions are read_parquet's named arguments.
type parquetOptions struct {
	// HivePartitioning adds a column for each key=value folder of the
	// files' paths.
	HivePartitioning bool
}

// readCSV opens the CSV files pathOrGlob names (a file, a glob, or a
// directory's CSV files) as one table, read as opts say: read_csv(…).
// Under c's file-access policy and ctx, as Catalog.OpenFile.
func (c *Catalog) readCSV(ctx context.Context, name, pathOrGlob string, opts csvOptions) (Table, error) {
	paths, err := expandFormat(ctx, c.policy(), pathOrGlob, []string{"*.csv", "*.tsv", "*.csv.gz", "*.csv.zst", "*.tsv.gz", "*.tsv.zst"}, opts.HivePartitioning)
	if err != nil {
		return nil, err
	}
	t, err := openCSV(name, paths, opts)
	if err != nil || !opts.HivePartitioning {
		return t, err
	}
	if t.extra, err = hivePartitions(paths); err != nil {
		return nil, err
	}
	t.schema, err = withPartitions(t.schema, t.extra)
	return t, err
}

// readParquet opens the Parquet files pathOrGlob names as one table:
// read_parquet(…).
func (c *Catalog) readParquet(ctx context.Context, name, pathOrGlob string, opts parquetOptions) (Table, error) {
	paths, err := expandFormat(ctx, c.policy(), pathOrGlob, []string{"*.parquet"}, opts.HivePartitioning)
	if err != nil {
		return nil, err
	}
	t, err := openParquet(name, paths)
	if err != nil || !opts.HivePartitioning {
		return t, err
	}
	if t.extra, err = hivePartitions(paths); err != nil {
		return nil, err
	}
	t.schema, err = withPartitions(t.schema, t.extra)
	return t, err
}

// expandFormat lists the files name stands for, as expandFiles, except
// that a directory (written with or without a trailing /) stands for its
// files matching pats, and with hive partitioning for those below it
// down to four levels of key=value folders.
func expandFormat(ctx context.Context, a *access, name string, pats []string, hive bool) ([]string, error) {
	if !hasMeta(name) {
		dir := strings.TrimRight(name, "/")
		if dir == "" {
			dir = "/"
		}
		levels := 1
		if hive {
			levels = 5
		}
		var all []string
		failed := false
	levels:
		for l := 0; l < levels && len(all) == 0; l++ {
			for _, p := range pats {
				ps, err := expandFiles(ctx, a, strings.TrimSuffix(dir, "/")+strings.Repeat("/*", l)+"/"+p, maxGlob)
				if err == nil {
					all = append(all, ps...)
				} else if !strings.Contains(err.Error(), "no files match") {
					// A refusal (or any failure) is reported for the
					// name as written below, not for the glob made
					// from it.
					failed = true
					break levels
				}
			}
		}
		if len(all) > 0 && !failed {
			sort.Strings(all)
			return all, nil
		}
	}
	return expandFiles(ctx, a, name, maxGlob)
}

// FuncArg is one argument of a table function in FROM: positional (Name
// "") or named (name = value, name => value). Values are constants: a
// string, an int64, a float64, a bool, or for a struct literal such as
// columns = {'a': 'BIGINT'} an ordered []FuncArg of its fields.
type FuncArg struct {
	Name  string
	Value any
}

// TableFunction opens what read_csv(…), read_parquet(…) (and their
// aliases read_csv_auto, parquet_scan) name, with DuckDB's arguments: the
// first, positional, a path or glob; then read_csv's delim (sep), header,
// columns, types, all_varchar, hive_partitioning, and read_parquet's
// hive_partitioning. name is the table's name in the query. It reports
// false when fn is no table function gq knows.
func (c *Catalog) TableFunction(ctx context.Context, fn, name string, args []FuncArg) (Table, bool, error) {
	fn = strings.ToLower(fn)
	switch fn {
	case "read_csv", "read_csv_auto", "read_parquet", "parquet_scan":
	default:
		return nil, false, nil
	}
	if len(args) == 0 || args[0].Name != "" {
		return nil, true, errs.NewNear(errs.Binding, fn, "%s needs a file path or glob as its first argument", fn)
	}
	path, ok := args[0].Value.(string)
	if !ok {
		return nil, true, errs.NewNear(errs.Binding, fn, "%s: the path must be a string", fn)
	}
	var csv csvOptions
	var pq parquetOptions
	for _, a := range args[1:] {
		if a.Name == "" {
			return nil, true, errs.NewNear(errs.Binding, fn, "%s takes one positional argument, the path", fn)
		}
		if err := setOption(fn, strings.ToLower(a.Name), a.Value, &csv, &pq); err != nil {
			return nil, true, err
		}
	}
	if fn == "read_parquet" || fn == "parquet_scan" {
		t, err := c.readParquet(ctx, name, path, pq)
		return t, true, err
	}
	t, err := c.readCSV(ctx, name, path, csv)
	return t, true, err
}

func setOption(fn, opt string, v any, csv *csvOptions, pq *parquetOptions) error {
	bad := func(want string) error {
		return errs.NewNear(errs.Binding, opt, "%s: %s must be %s, not %v", fn, opt, want, v)
	}
	boolean := func() (bool, error) {
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return b, nil
			}
		}
		return false, bad("true or false")
	}
	isCSV := strings.HasPrefix(fn, "read_csv")
	var err error
	switch {
	case opt == "hive_partitioning":
		var b bool
		b, err = boolean()
		csv.HivePartitioning, pq.HivePartitioning = b, b
	case isCSV && (opt == "delim" || opt == "sep" || opt == "delimiter"):
		s, ok := v.(string)
		if s == `\t` {
			s = "\t"
		}
		if !ok || len(s) != 1 {
			return bad("one character")
		}
		csv.Delim = s[0]
	case isCSV && opt == "header":
		var b bool
		if b, err = boolean(); b {
			csv.Header = headerYes
		} else {
			csv.Header = headerNo
		}
	case isCSV && opt == "all_varchar":
		csv.AllVarchar, err = boolean()
	case isCSV && (opt == "columns" || opt == "types" || opt == "dtypes"):
		fields, ok := v.([]FuncArg)
		if !ok {
			return bad("a struct of column names and types, as {'a': 'BIGINT'}")
		}
		for _, f := range fields {
			ts, ok := f.Value.(string)
			if !ok {
				return bad("a struct of column names and types, as {'a': 'BIGINT'}")
			}
			t, err := csvType(ts)
			if err != nil {
				return errs.NewNear(errs.Binding, ts, "%s: column %s: %v", fn, f.Name, err)
			}
			if opt == "columns" {
				csv.Columns = append(csv.Columns, arrow.Field{Name: f.Name, Type: t, Nullable: true})
			} else {
				if csv.Types == nil {
					csv.Types = map[string]arrow.DataType{}
				}
				csv.Types[f.Name] = t
			}
		}
	default:
		return errs.NewNear(errs.Binding, opt, "%s has no option %s", fn, opt)
	}
	return err
}

// csvType is the gq type a CSV column can be read as, by its SQL name.
func csvType(name string) (arrow.DataType, error) {
	u := strings.ToUpper(strings.TrimSpace(name))
	if t, ok, err := csvDecimalType(u); ok {
		return t, err
	}
	switch u {
	case "BIGINT", "INT", "INTEGER", "INT8", "INT4", "SMALLINT", "TINYINT", "LONG":
		return expr.Int64, nil
	case "DOUBLE", "FLOAT", "REAL", "FLOAT8", "FLOAT4":
		return expr.Float64, nil
	case "VARCHAR", "TEXT", "STRING", "CHAR":
		return expr.String, nil
	case "DATE":
		return expr.Date, nil
	case "BOOLEAN", "BOOL":
		return expr.Boolean, nil
	case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE":
		return expr.Timestamp, nil
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return expr.TimestampTZ, nil
	case "TIME":
		return expr.Time, nil
	}
	return nil, fmt.Errorf("type %s cannot be read from CSV (BIGINT, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIMESTAMP, TIMESTAMPTZ, TIME or BOOLEAN)", name)
}

// csvDecimalType reads DECIMAL, DECIMAL(p) and DECIMAL(p,s) (or NUMERIC),
// p from 1 to 38 and s from 0 to p; ok says u names a decimal at all.
// A bare DECIMAL is DuckDB's DECIMAL(18,3).
func csvDecimalType(u string) (t arrow.DataType, ok bool, err error) {
	rest, found := strings.CutPrefix(u, "DECIMAL")
	if !found {
		if rest, found = strings.CutPrefix(u, "NUMERIC"); !found {
			return nil, false, nil
		}
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return expr.Decimal(18, 3), true, nil
	}
	bad := fmt.Errorf("type %s: a decimal's precision is 1 to 38 and its scale 0 to the precision, as DECIMAL(38,2)", u)
	inner, found := strings.CutPrefix(rest, "(")
	if inner, found = strings.CutSuffix(inner, ")"); !found {
		return nil, true, bad
	}
	ps, ss, two := strings.Cut(inner, ",")
	p, err := strconv.Atoi(strings.TrimSpace(ps))
	s := 0
	if err == nil && two {
		s, err = strconv.Atoi(strings.TrimSpace(ss))
	}
	if err != nil || p < 1 || p > expr.MaxWidePrecision || s < 0 || s > p {
		return nil, true, bad
	}
	return expr.Decimal(int32(p), int32(s)), true, nil
}
