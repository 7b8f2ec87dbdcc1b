package expr

import (
	"bytes"
	"encoding/json"
	"strconv"

	"gq/errs"
)

// json_extract(doc, path, …) (MySQL's, on VARCHAR): the value at a JSON
// path of doc as JSON text — a string keeps its quotes — NULL where the
// path leads nowhere; several paths give a JSON array of the values found.
// Paths are MySQL's: $ then .key, ."quoted key" and [index] steps; the
// wildcards (*, **) and [last] are refused by name. The text is compact
// (no spaces, keys in the document's order: DuckDB's form; MySQL writes
// "{"a": 1}" with spaces and its own key order). A doc that is not JSON
// is an error, as in both.
func init() {
	Register(&Function{Name: "json_extract", SQL: []string{"json_extract"}, MinArgs: 2, MaxArgs: Variadic,
		Bind: func(b Binder, name string, args []Operand) (Operand, error) {
			for _, a := range args[1:] {
				if v, ok := b.Constant(a); ok {
					if p, isStr := v.(string); isStr {
						if _, err := parseJSONPath(p); err != nil {
							return nil, err
						}
					}
				}
			}
			return bindSig("json_extract", "s", String)(b, name, args)
		},
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			doc := a[0].str(i)
			if !json.Valid(doc) {
				return dst, false, errs.New(errs.Execution, "json_extract: invalid JSON text %q", truncateText(doc))
			}
			var found [][]byte
			for k := 1; k < len(a); k++ {
				path, err := parseJSONPath(bstr(a[k].str(i)))
				if err != nil {
					return dst, false, err
				}
				if v, ok := jsonAt(doc, path); ok {
					found = append(found, v)
				}
			}
			switch {
			case len(found) == 0:
				return dst, false, nil
			case len(a) == 2:
				return appendCompactJSON(dst, found[0]), true, nil
			}
			dst = append(dst, '[')
			for k, v := range found {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = appendCompactJSON(dst, v)
			}
			return append(dst, ']'), true, nil
		}),
		NullPropagating: true,
		Doc:             "json_extract(doc VARCHAR, path VARCHAR, …) → VARCHAR: the JSON text at a MySQL path ($.a.b[0]); NULL if absent"})
}

// jsonStep is one step of a path: an object key, or an array index
// (key unset).
type jsonStep struct {
	key   string
	isKey bool
	index int
}

// parseJSONPath parses a MySQL JSON path.
func parseJSONPath(p string) ([]jsonStep, error) {
	bad := func(why string) ([]jsonStep, error) {
		return nil, errs.New(errs.Binding, "json_extract: invalid JSON path %q: %s", p, why)
	}
	s := bytes.TrimSpace([]byte(p))
	if len(s) == 0 || s[0] != '$' {
		return bad("it must start with $")
	}
	var steps []jsonStep
	for k := 1; k < len(s); {
		switch s[k] {
		case '.':
			k++
			if k < len(s) && s[k] == '"' {
				end := k + 1
				for end < len(s) && s[end] != '"' {
					if s[end] == '\\' {
						end++
					}
					end++
				}
				if end >= len(s) {
					return bad("an unterminated quoted key")
				}
				key, err := strconv.Unquote(string(s[k : end+1]))
				if err != nil {
					return bad("a bad quoted key")
				}
				steps = append(steps, jsonStep{key: key, isKey: true})
				k = end + 1
				continue
			}
			start := k
			for k < len(s) && s[k] != '.' && s[k] != '[' {
				k++
			}
			key := string(s[start:k])
			switch {
			case key == "":
				return bad("an empty key")
			case key == "*" || bytes.Contains([]byte(key), []byte("*")):
				return nil, errs.New(errs.Unsupported, "json_extract: the wildcard in path %q is not supported", p)
			}
			steps = append(steps, jsonStep{key: key, isKey: true})
		case '[':
			end := bytes.IndexByte(s[k:], ']')
			if end < 0 {
				return bad("an unterminated [")
			}
			in := string(bytes.TrimSpace(s[k+1 : k+end]))
			n, err := strconv.Atoi(in)
			switch {
			case in == "*" || in == "last" || bytes.HasPrefix([]byte(in), []byte("last")) || bytes.Contains([]byte(in), []byte(" to ")):
				return nil, errs.New(errs.Unsupported, "json_extract: [%s] in path %q is not supported", in, p)
			case err != nil || n < 0:
				return bad("an index must be a number ≥ 0")
			}
			steps = append(steps, jsonStep{index: n})
			k += end + 1
		case '*':
			return nil, errs.New(errs.Unsupported, "json_extract: the wildcard ** in path %q is not supported", p)
		default:
			return bad("a step must start with . or [")
		}
	}
	return steps, nil
}

// jsonAt is the raw JSON text at path in doc (valid JSON).
func jsonAt(doc []byte, path []jsonStep) ([]byte, bool) {
	cur := json.RawMessage(doc)
	for _, st := range path {
		if st.isKey {
			var obj map[string]json.RawMessage
			if json.Unmarshal(cur, &obj) != nil {
				return nil, false
			}
			v, ok := obj[st.key]
			if !ok {
				return nil, false
			}
			cur = v
			continue
		}
		var arr []json.RawMessage
		if json.Unmarshal(cur, &arr) != nil {
			// MySQL: [0] of a value that is not an array is the value.
			if st.index == 0 {
				continue
			}
			return nil, false
		}
		if st.index >= len(arr) {
			return nil, false
		}
		cur = arr[st.index]
	}
	return cur, true
}

func appendCompactJSON(dst, v []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return append(dst, bytes.TrimSpace(v)...)
	}
	return append(dst, b.Bytes()...)
}

// truncateText is s cut to a length fit for an error message.
func truncateText(s []byte) string {
	if len(s) > 40 {
		return string(s[:40]) + "…"
	}
	return string(s)
}
