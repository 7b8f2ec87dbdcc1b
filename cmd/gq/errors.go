package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gq/errs"
)

// printError writes "Error: …" and, for an error with a position, the
// offending line with a caret under the column. The message carries any
// hint the binder found ("did you mean …").
func (s *shell) printError(sql string, err error) {
	if errors.Is(err, errs.Cancelled) && errors.Is(err, context.Canceled) {
		// Ctrl-C: the context's own words add nothing.
		fmt.Fprintln(s.errOut, "Error: query cancelled")
		return
	}
	if errors.Is(err, context.DeadlineExceeded) && s.timeout > 0 {
		fmt.Fprintf(s.errOut, "Error: query timed out after %s (--timeout)\n", s.timeout)
		return
	}
	fmt.Fprintf(s.errOut, "Error: %v\n", err)
	if caret := caretLines(sql, err); caret != "" {
		fmt.Fprint(s.errOut, caret)
	}
}

// caretLines returns the script line an error points at and a caret line
// under its column, or "" when the error has no position.
func caretLines(sql string, err error) string {
	var ge *errs.Error
	if !errors.As(err, &ge) || ge.Line <= 0 {
		return ""
	}
	lines := strings.Split(sql, "\n")
	if ge.Line > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[ge.Line-1], "\r")
	// Col counts bytes; the pad has one space per character before it,
	// and tabs keep their width, so the caret lines up.
	col := min(max(ge.Col, 1), len(line)+1)
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, line[:col-1])
	return fmt.Sprintf("  %s\n  %s^\n", line, pad)
}
