package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
)

// Prompts: the first line of a statement, and its continuation lines.
const (
	prompt     = "gq> "
	contPrompt = "..> "
)

// historyPath is GQ_HISTORY, else ~/.gq_history ("" without a home).
func historyPath() string {
	if p := getenv("GQ_HISTORY"); p != "" {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".gq_history")
	}
	return ""
}

// repl reads statements interactively until .quit, Ctrl-D, or Ctrl-C
// twice at an empty prompt. A statement may span lines and ends at a ';'
// outside quotes and comments; it is kept in the history as one entry.
// Ctrl-C while a query runs cancels the query, not the shell.
func (s *shell) repl() int {
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 prompt,
		HistoryFile:            historyPath(),
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           &completer{sh: s},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
	})
	if err != nil {
		fmt.Fprintf(s.errOut, "Error: %v\n", err)
		return exitQuery
	}
	defer rl.Close()
	fmt.Fprintf(s.out, "%s — end statements with ';', .help for commands, Ctrl-D to exit\n", version)
	var buf []string
	interrupted := false // the last input was Ctrl-C at an empty prompt
	for {
		if len(buf) == 0 {
			rl.SetPrompt(prompt)
		} else {
			rl.SetPrompt(contPrompt)
		}
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			if len(buf) == 0 && line == "" {
				if interrupted {
					return 0
				}
				interrupted = true
				fmt.Fprintln(s.errOut, "(Ctrl-C again or Ctrl-D to exit)")
			}
			buf = nil // Ctrl-C drops the statement being typed
			continue
		}
		interrupted = false
		if err == io.EOF {
			return 0
		}
		if err != nil {
			fmt.Fprintf(s.errOut, "Error: %v\n", err)
			return exitQuery
		}
		trimmed := strings.TrimSpace(line)
		if len(buf) == 0 && strings.HasPrefix(trimmed, ".") {
			rl.SaveHistory(trimmed)
			if s.dotCommand(trimmed) {
				return 0
			}
			continue
		}
		if trimmed == "" && len(buf) == 0 {
			continue
		}
		buf = append(buf, line)
		sql := strings.Join(buf, "\n")
		if !statementComplete(sql) {
			continue
		}
		buf = nil
		rl.SaveHistory(historyEntry(sql))
		s.runInterruptible(sql)
	}
}

// historyEntry is a statement as one history line: readline's history
// file holds one entry a line. Line comments are dropped, or joining the
// lines would comment out the rest of the statement.
func historyEntry(sql string) string {
	var parts []string
	for _, l := range strings.Split(sql, "\n") {
		if l = strings.TrimSpace(cutLineComment(l)); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// cutLineComment removes a "--" comment that is outside quotes from line.
func cutLineComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '-' && strings.HasPrefix(line[i:], "--"):
			return line[:i]
		}
	}
	return line
}

// runInterruptible runs sql with Ctrl-C cancelling it, not the REPL.
func (s *shell) runInterruptible(sql string) bool {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()
	return s.exec(ctx, sql)
}

// statementComplete reports whether sql ends with a ';' that is outside
// string literals, quoted names and comments, with only blanks and
// comments after it.
func statementComplete(sql string) bool {
	complete := false
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for ; j < len(sql); j++ {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled quote
						j++
						continue
					}
					break
				}
				if sql[j] == '\\' && c != '`' {
					j++
				}
			}
			if j >= len(sql) {
				return false // unterminated quote: the statement goes on
			}
			i = j
			complete = false
		case c == '-' && strings.HasPrefix(sql[i:], "--"), c == '#':
			nl := strings.IndexByte(sql[i:], '\n')
			if nl < 0 {
				return complete
			}
			i += nl
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return false
			}
			i += end + 3
		case c == ';':
			complete = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			complete = false
		}
	}
	return complete
}
