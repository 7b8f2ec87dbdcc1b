package catalog

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"gq/errs"
)

// partitionCol is a column whose value is constant per file: a hive
// partition key (key=value folder), one value per file of the table.
type partitionCol struct {
	name string
	typ  arrow.DataType
	vals []string // per file; "" is NULL
}

// array is the column's value for file, repeated n times.
func (p *partitionCol) array(file, n int, mem memory.Allocator) arrow.Array {
	v := p.vals[file]
	b := array.NewBuilder(mem, p.typ)
	defer b.Release()
	b.Reserve(n)
	for range n {
		if v == "" {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int64Builder:
			x, _ := parseInt([]byte(v))
			bb.Append(x)
		case *array.Float64Builder:
			x, _ := parseFloat([]byte(v))
			bb.Append(x)
		case *array.Date32Builder:
			x, _ := parseDate([]byte(v))
			bb.Append(arrow.Date32(x))
		case *array.BooleanBuilder:
			x, _ := parseBool([]byte(v))
			bb.Append(x)
		case *array.StringBuilder:
			bb.Append(v)
		}
	}
	return b.NewArray()
}

// hiveDefault is the value Hive and Spark write for a NULL partition key.
const hiveDefault = "__HIVE_DEFAULT_PARTITION__"

// hivePartitions finds the key=value folders of paths: the same keys, in
// the same order, must name every file's folders. Each key's type is
// sniffed from its values as a CSV column's is (BIGINT, DOUBLE, DATE,
// else VARCHAR).
func hivePartitions(paths []string) ([]partitionCol, error) {
	var cols []partitionCol
	for fi, p := range paths {
		var keys, vals []string
		for _, comp := range strings.Split(filepath.ToSlash(filepath.Dir(p)), "/") {
			k, v, ok := strings.Cut(comp, "=")
			if !ok || k == "" {
				continue
			}
			if u, err := url.PathUnescape(v); err == nil {
				v = u
			}
			if v == hiveDefault {
				v = ""
			}
			keys, vals = append(keys, k), append(vals, v)
		}
		if fi == 0 {
			for _, k := range keys {
				cols = append(cols, partitionCol{name: k, vals: make([]string, len(paths))})
			}
		}
		if len(keys) != len(cols) {
			return nil, errs.New(errs.IO, "hive partitioning: %s and %s have different key=value folders", paths[0], p)
		}
		for i, k := range keys {
			if !strings.EqualFold(k, cols[i].name) {
				return nil, errs.New(errs.IO, "hive partitioning: %s has key %s where %s has %s", p, k, paths[0], cols[i].name)
			}
			cols[i].vals[fi] = vals[i]
		}
	}
	for i := range cols {
		g := typeGuess{integer: true, float: true, date: true}
		for _, v := range cols[i].vals {
			g.see([]byte(v), false)
		}
		cols[i].typ = g.result()
	}
	return cols, nil
}

// withPartitions appends the partition columns to s, refusing a name the
// files' columns already have.
func withPartitions(s *arrow.Schema, cols []partitionCol) (*arrow.Schema, error) {
	fields := s.Fields()
	for _, c := range cols {
		if len(s.FieldIndices(c.name)) > 0 {
			return nil, errs.New(errs.IO, "hive partitioning: the files already have a column %s", c.name)
		}
		fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: true})
	}
	return arrow.NewSchema(fields, nil), nil
}
