package engine

import (
	"strings"

	"gq/errs"
	"gq/parser/sqlparser"
)

// set runs SET. gq has one session setting a client may set, DuckDB's
// TimeZone, and only to UTC: TIMESTAMP WITH TIME ZONE values are shown
// and read in UTC, so SET TimeZone = 'UTC' (or another name for it) is
// accepted and changes nothing, and any other zone is an error naming
// it, never a silently ignored setting.
func (e *Engine) set(s *sqlparser.Set) (*Result, error) {
	for _, x := range s.Exprs {
		name := x.Var.Name.String()
		switch strings.ToLower(name) {
		case "timezone", "time_zone":
			zone, ok := setValue(x.Expr)
			if !ok {
				return nil, errs.New(errs.Binding, "SET %s needs a time zone name in quotes, e.g. 'UTC'", name)
			}
			if !utcZone(zone) {
				return nil, errs.New(errs.Unsupported, "SET %s = '%s': gq shows and reads TIMESTAMP WITH TIME ZONE in UTC only; session time zones other than UTC are not supported", name, zone)
			}
		default:
			return nil, errs.New(errs.Unsupported, "SET %s is not supported (gq's only session setting is TimeZone, and only 'UTC')", sqlparser.String(x.Var))
		}
	}
	return &Result{}, nil
}

// setValue is a SET's value: a string, or a bare name.
func setValue(e sqlparser.Expr) (string, bool) {
	switch v := e.(type) {
	case *sqlparser.Literal:
		if v.Type == sqlparser.StrVal {
			return v.Val, true
		}
	case *sqlparser.ColName:
		if v.Qualifier.IsEmpty() {
			return v.Name.String(), true
		}
	}
	return "", false
}

// utcZone reports whether zone names UTC.
func utcZone(zone string) bool {
	switch strings.ToLower(strings.TrimSpace(zone)) {
	case "utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "universal", "etc/universal", "+00", "+00:00", "-00:00", "+0", "0":
		return true
	}
	return false
}
