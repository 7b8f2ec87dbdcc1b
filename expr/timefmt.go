package expr

import (
	"strconv"
	"strings"

	"gq/errs"
)

// Time format strings: DuckDB's strftime/strptime specifiers (C's, with
// %-d for no padding, %f µs, %g ms) and MySQL's DATE_FORMAT/STR_TO_DATE
// ones (%i minutes, %s seconds, %M month name, …) compile to the same
// fields, so that one formatter and one parser serve both.

// tfField is one piece of a compiled format.
type tfField struct {
	kind byte   // a field letter below, or 0 for literal text
	pad  bool   // zero-padded to the field's width
	lit  string // kind 0: the text
}

// Field letters (DuckDB's names): Y year, y 2-digit year, m month, B month
// name, b abbreviated month, d day, j day of year, H hour, I 12-hour hour,
// p AM/PM, M minute, S second, f µs (6 digits), g ms (3 digits), A weekday
// name, a abbreviated weekday, w weekday (Sunday 0), u ISO weekday
// (Monday 1), V ISO week, z zone offset, Z zone name, D day with English
// suffix (MySQL's %D).

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// compileTimeFormat compiles format in DuckDB's (mysql false) or MySQL's
// specifiers; an unknown specifier is an error naming it and its place.
func compileTimeFormat(format string, mysql bool) ([]tfField, error) {
	var out []tfField
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, tfField{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		start := i
		i++
		if i >= len(format) {
			return nil, errs.New(errs.Execution, "format '%s': a lone %% at position %d", format, start+1)
		}
		pad := true
		if !mysql && format[i] == '-' && i+1 < len(format) {
			pad = false
			i++
		}
		spec := format[i]
		var kinds string
		if mysql {
			kinds = mysqlSpecs[spec]
		} else {
			kinds = duckSpecs[spec]
		}
		if spec == '%' {
			lit.WriteByte('%')
			continue
		}
		if kinds == "" {
			return nil, errs.New(errs.Execution, "format '%s': unknown specifier %%%c at position %d", format, spec, start+1)
		}
		flush()
		// A composite (%T, %c, …) expands to several fields and literals,
		// "|"-separated; a literal is written with a leading quote.
		for _, k := range strings.Split(kinds, "|") {
			switch {
			case len(k) == 1:
				out = append(out, tfField{kind: k[0], pad: pad})
			case k[0] == '_': // no padding
				out = append(out, tfField{kind: k[1]})
			default: // literal text in a composite, e.g. "'-"
				out = append(out, tfField{lit: k[1:]})
			}
		}
	}
	flush()
	return out, nil
}

var duckSpecs = map[byte]string{
	'Y': "Y", 'y': "y", 'm': "m", 'B': "B", 'b': "b", 'h': "b", 'd': "d", 'e': "_d", 'j': "j", 'H': "H", 'I': "I",
	'p': "p", 'M': "M", 'S': "S", 'f': "f", 'g': "g", 'A': "A", 'a': "a", 'w': "w", 'u': "u", 'V': "V",
	'z': "z", 'Z': "Z", 'F': "Y|'-|m|'-|d", 'T': "H|':|M|':|S", 'R': "H|':|M", 'D': "m|'/|d|'/|y",
	'x': "Y|'-|m|'-|d", 'X': "H|':|M|':|S", 'c': "Y|'-|m|'-|d|' |H|':|M|':|S",
}

var mysqlSpecs = map[byte]string{
	'Y': "Y", 'y': "y", 'm': "m", 'c': "_m", 'M': "B", 'b': "b", 'd': "d", 'e': "_d", 'D': "D", 'j': "j",
	'H': "H", 'k': "_H", 'h': "I", 'I': "I", 'l': "_I", 'p': "p", 'i': "M", 'S': "S", 's': "S", 'f': "f",
	'W': "A", 'a': "a", 'w': "w", 'u': "V", 'v': "V", 'T': "H|':|M|':|S", 'r': "I|':|M|':|S|' |p",
}

// timeFields are the parts of one timestamp a format reads.
type timeFields struct {
	days         int32
	y, mo, d     int32
	h, mi, s, us int64
	tz           bool
}

func splitFields(us int64, tz bool) timeFields {
	days, tod := SplitTimestamp(us)
	y, m, d := civilFromDays(days)
	return timeFields{days: days, y: y, mo: m, d: d, h: tod / usPerHour, mi: tod / usPerMinute % 60,
		s: tod / usPerSecond % 60, us: tod % usPerSecond, tz: tz}
}

func appendNum(dst []byte, v int64, width int, pad bool) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	if pad {
		for w := width - 1; w > 0 && v < pow10[w]; w-- {
			dst = append(dst, '0')
		}
	}
	return strconv.AppendInt(dst, v, 10)
}

// appendFormatted appends the timestamp us formatted by fs.
func appendFormatted(dst []byte, fs []tfField, us int64, tz bool) []byte {
	t := splitFields(us, tz)
	for _, f := range fs {
		switch f.kind {
		case 0:
			dst = append(dst, f.lit...)
		case 'Y':
			dst = appendNum(dst, int64(t.y), 4, f.pad)
		case 'y':
			dst = appendNum(dst, int64(t.y%100), 2, f.pad)
		case 'm':
			dst = appendNum(dst, int64(t.mo), 2, f.pad)
		case 'B':
			dst = append(dst, monthNames[t.mo-1]...)
		case 'b':
			dst = append(dst, monthNames[t.mo-1][:3]...)
		case 'd':
			dst = appendNum(dst, int64(t.d), 2, f.pad)
		case 'D':
			dst = strconv.AppendInt(dst, int64(t.d), 10)
			switch {
			case t.d/10 == 1:
				dst = append(dst, "th"...)
			case t.d%10 == 1:
				dst = append(dst, "st"...)
			case t.d%10 == 2:
				dst = append(dst, "nd"...)
			case t.d%10 == 3:
				dst = append(dst, "rd"...)
			default:
				dst = append(dst, "th"...)
			}
		case 'j':
			dst = appendNum(dst, int64(t.days-DaysFromCivil(t.y, 1, 1))+1, 3, f.pad)
		case 'H':
			dst = appendNum(dst, t.h, 2, f.pad)
		case 'I':
			dst = appendNum(dst, (t.h+11)%12+1, 2, f.pad)
		case 'p':
			if t.h < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
		case 'M':
			dst = appendNum(dst, t.mi, 2, f.pad)
		case 'S':
			dst = appendNum(dst, t.s, 2, f.pad)
		case 'f':
			dst = appendNum(dst, t.us, 6, true)
		case 'g':
			dst = appendNum(dst, t.us/1000, 3, true)
		case 'A':
			dst = append(dst, dayNames[timestampPart("dow", us)]...)
		case 'a':
			dst = append(dst, dayNames[timestampPart("dow", us)][:3]...)
		case 'w':
			dst = strconv.AppendInt(dst, timestampPart("dow", us), 10)
		case 'u':
			dst = strconv.AppendInt(dst, timestampPart("isodow", us), 10)
		case 'V':
			dst = appendNum(dst, timestampPart("week", us), 2, f.pad)
		case 'z':
			if t.tz {
				dst = append(dst, "+00"...)
			}
		case 'Z':
			if t.tz {
				dst = append(dst, "UTC"...)
			}
		}
	}
	return dst
}

// parseFormatted reads text as fs describes (a timestamp: µs since the
// epoch; missing date parts are 1900-01-01, DuckDB's, missing time parts
// zero). The error names the text, the format and the position.
func parseFormatted(text string, fs []tfField, format string) (int64, error) {
	y, mo, d := int64(1900), int64(1), int64(1)
	var h, mi, s, us, off int64
	pm, twelve := false, false
	pos := 0
	fail := func(what string) (int64, error) {
		return 0, errs.New(errs.Execution, "cannot parse '%s' with format '%s': %s at position %d", text, format, what, pos+1)
	}
	num := func(max int) (int64, bool) {
		start := pos
		neg := false
		if pos < len(text) && (text[pos] == '-' || text[pos] == '+') && max >= 4 {
			neg = text[pos] == '-'
			pos++
		}
		var v int64
		for pos < len(text) && pos-start < max && text[pos] >= '0' && text[pos] <= '9' {
			v = v*10 + int64(text[pos]-'0')
			pos++
		}
		if neg {
			v = -v
		}
		return v, pos > start
	}
	name := func(names []string, abbr bool) (int64, bool) {
		for i, n := range names {
			if abbr {
				n = n[:3]
			}
			if len(text)-pos >= len(n) && strings.EqualFold(text[pos:pos+len(n)], n) {
				pos += len(n)
				return int64(i), true
			}
		}
		return 0, false
	}
	for _, f := range fs {
		var ok bool
		switch f.kind {
		case 0:
			if !strings.HasPrefix(text[pos:], f.lit) {
				return fail("expected '" + f.lit + "'")
			}
			pos += len(f.lit)
			continue
		case 'Y':
			y, ok = num(6)
		case 'y':
			if y, ok = num(2); ok {
				y += 1900
				if y < 1970 {
					y += 100
				}
			}
		case 'm':
			mo, ok = num(2)
		case 'B', 'b':
			if mo, ok = name(monthNames, f.kind == 'b'); ok {
				mo++
			}
		case 'd', 'D':
			if d, ok = num(2); ok && f.kind == 'D' && len(text)-pos >= 2 {
				pos += 2
			}
		case 'H':
			h, ok = num(2)
		case 'I':
			h, ok = num(2)
			twelve = true
		case 'p':
			switch {
			case len(text)-pos >= 2 && strings.EqualFold(text[pos:pos+2], "AM"):
				ok = true
			case len(text)-pos >= 2 && strings.EqualFold(text[pos:pos+2], "PM"):
				ok, pm = true, true
			}
			pos += 2
		case 'M':
			mi, ok = num(2)
		case 'S':
			s, ok = num(2)
		case 'f', 'g':
			start := pos
			var v int64
			if v, ok = num(9); ok {
				for n := pos - start; n < 6; n++ {
					v *= 10
				}
				for n := pos - start; n > 6; n-- {
					v /= 10
				}
				us = v
			}
		case 'A', 'a':
			_, ok = name(dayNames, f.kind == 'a')
		case 'w', 'u':
			_, ok = num(1)
		case 'j', 'V':
			_, ok = num(3)
		case 'z':
			p := textScanner{s: text, pos: pos}
			if off, ok = p.zoneOffset(); ok {
				pos = p.pos
			}
		case 'Z':
			for pos < len(text) && text[pos] != ' ' {
				pos++
			}
			ok = true
		}
		if !ok {
			return fail("expected %" + string(f.kind))
		}
	}
	if pos != len(text) {
		return fail("unexpected '" + text[pos:] + "'")
	}
	if twelve {
		h %= 12
		if pm {
			h += 12
		}
	}
	if mo < 1 || mo > 12 || d < 1 || d > int64(DaysInMonth(int32(y), int32(mo))) || h > 23 || mi > 59 || s > 59 {
		pos = 0
		return fail("no such date or time")
	}
	days := int64(DaysFromCivil(int32(y), int32(mo), int32(d)))
	return days*usPerDay + h*usPerHour + mi*usPerMinute + s*usPerSecond + us - off, nil
}
