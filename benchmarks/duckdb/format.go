package duckdb

import (
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	duckdbgo "github.com/duckdb/duckdb-go/v2"

	"gq/expr"
)

// WriteCSV writes rows in gq's canonical CSV format: a header line, RFC
// 4180 quoting, NULL as an empty field, DATE as YYYY-MM-DD, DECIMAL as
// plain text with its scale, floats as strconv 'g' -1, booleans as
// true/false.
func WriteCSV(w io.Writer, rows *sql.Rows) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(cols); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	rec := make([]string, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			s, err := formatValue(v, types[i].DatabaseTypeName())
			if err != nil {
				return fmt.Errorf("column %s: %w", cols[i], err)
			}
			rec[i] = s
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

func formatValue(v any, dbType string) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case []byte:
		if len(x) == 16 && strings.EqualFold(dbType, "UUID") {
			return uuidText(x), nil
		}
		return string(x), nil
	case *duckdbgo.UUID:
		return uuidText(x[:]), nil
	case duckdbgo.UUID:
		return uuidText(x[:]), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint:
		return fmt.Sprint(x), nil
	case float32:
		// gq reads FLOAT as DOUBLE: compare the exact value, not
		// DuckDB's shortest 32-bit spelling of it.
		return strconv.FormatFloat(float64(x), 'g', -1, 64), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case *big.Int:
		return x.String(), nil
	case duckdbgo.Decimal:
		return formatDecimal(x.Value, int(x.Scale)), nil
	case []any, map[string]any, duckdbgo.OrderedMap:
		return canonGo(x)
	case time.Time:
		if strings.EqualFold(dbType, "DATE") {
			return x.Format("2006-01-02"), nil
		}
		if strings.HasPrefix(strings.ToUpper(dbType), "TIME") && !strings.HasPrefix(strings.ToUpper(dbType), "TIMESTAMP") {
			return x.Format("15:04:05.999999"), nil
		}
		if strings.HasPrefix(strings.ToUpper(dbType), "TIMESTAMP WITH TIME ZONE") || strings.EqualFold(dbType, "TIMESTAMPTZ") {
			return x.UTC().Format("2006-01-02 15:04:05.999999") + "+00", nil // DuckDB's text in a UTC session
		}
		return x.Format("2006-01-02 15:04:05.999999"), nil
	case duckdbgo.Interval:
		// DuckDB's interval text ("1 year 2 months 3 days 04:05:06.5"),
		// written by gq's formatter of the same layout.
		return expr.FormatInterval(arrow.MonthDayNanoInterval{Months: x.Months, Days: x.Days, Nanoseconds: x.Micros * 1000}), nil
	}
	return "", fmt.Errorf("unsupported value %T (%s)", v, dbType)
}

// formatDecimal prints unscaled/10^scale in plain notation, keeping all
// scale digits ("0.05" at scale 2, "-1.50").
func formatDecimal(unscaled *big.Int, scale int) string {
	if unscaled == nil {
		return ""
	}
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// uuidText is DuckDB's text of a UUID: lowercase hex in 8-4-4-4-12 groups.
func uuidText(b []byte) string {
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
