package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"gq/errs"
	"gq/format"
)

// dotCommands are the REPL's commands with their arguments and help, in
// the order .help lists them; completion offers the names.
var dotCommands = []struct{ name, args, help string }{
	{".help", "", "show this list"},
	{".tables", "", "list tables and views"},
	{".schema", "[TABLE]", "show CREATE statements of all tables or of TABLE"},
	{".mode", strings.Join(format.Modes, "|"), "set the output format"},
	{".timer", "on|off", "print each statement's run time"},
	{".maxrows", "N", "show at most N rows of a table result, head and tail (0: all)"},
	{".output", "[FILE]", "send results to FILE (no FILE: back to the screen)"},
	{".once", "FILE", "send the next statement's results to FILE"},
	{".read", "FILE", "run the SQL in FILE"},
	{".open", "DIR", "attach the tables of data directory DIR"},
	{".device", "cpu|gpu|auto", "where operators run"},
	{".stats", "on|off", "print rows, batches, time and memory statistics after each statement"},
	{".quit", "", "exit (also .exit, Ctrl-D)"},
}

// dotCommand runs a REPL command; it returns true for .quit.
func (s *shell) dotCommand(line string) bool {
	f := strings.Fields(line)
	arg := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
	usage := func() {
		for _, c := range dotCommands {
			if c.name == f[0] {
				fmt.Fprintf(s.errOut, "Error: usage: %s %s\n", c.name, c.args)
			}
		}
	}
	onOff := func(set *bool) {
		if arg != "on" && arg != "off" {
			usage()
			return
		}
		*set = arg == "on"
	}
	switch f[0] {
	case ".quit", ".exit", ".q":
		return true
	case ".help":
		for _, c := range dotCommands {
			fmt.Fprintf(s.out, "%-28s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
		}
		fmt.Fprintln(s.out, "Statements end with ';' and may span lines. Ctrl-C cancels a running query; Tab completes.")
	case ".tables":
		names := s.eng.Catalog().Names()
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintln(s.out, n)
		}
	case ".schema":
		names := f[1:]
		if len(names) == 0 {
			names = s.eng.Catalog().Names()
		}
		for _, n := range names {
			s.printSchema(n)
		}
	case ".mode":
		if len(f) != 2 || format.Writer(f[1]) == nil {
			usage()
		} else {
			s.mode = f[1]
		}
	case ".timer":
		onOff(&s.timer)
	case ".stats":
		onOff(&s.stats)
	case ".maxrows":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			usage()
		} else {
			s.maxRows = n
		}
	case ".output", ".once":
		s.closeRedirect()
		if arg == "" {
			if f[0] == ".once" {
				usage()
			}
			return false
		}
		file, err := os.Create(arg)
		if err != nil {
			fmt.Fprintf(s.errOut, "Error: %v\n", errs.Wrap(errs.IO, err, "%s", f[0]))
			return false
		}
		s.redirect, s.once = file, f[0] == ".once"
	case ".read":
		if arg == "" {
			usage()
			return false
		}
		b, err := os.ReadFile(arg)
		if err != nil {
			fmt.Fprintf(s.errOut, "Error: %v\n", errs.Wrap(errs.IO, err, ".read"))
			return false
		}
		s.runInterruptible(string(b))
	case ".open":
		if arg == "" {
			usage()
			return false
		}
		// Opening a directory again replaces its tables.
		n, err := s.eng.Catalog().AttachDir(arg)
		if err != nil {
			fmt.Fprintf(s.errOut, "Error: %v\n", err)
			return false
		}
		fmt.Fprintf(s.errOut, "attached %s: %d tables\n", arg, n)
	case ".device":
		if len(f) != 2 {
			usage()
			return false
		}
		if checkDevice(f[1], s.errOut) == 0 {
			if err := s.eng.SetDevice(f[1]); err != nil {
				fmt.Fprintf(s.errOut, "Error: %v\n", err)
				return false
			}
			s.device = f[1]
		}
	default:
		fmt.Fprintf(s.errOut, "Error: unknown command %s (try .help)\n", f[0])
	}
	return false
}

// printSchema prints a table's columns as CREATE TABLE text.
func (s *shell) printSchema(name string) {
	cat := s.eng.Catalog()
	if t, ok := cat.Table(name); ok {
		var cols []string
		for _, f := range t.Schema().Fields() {
			cols = append(cols, fmt.Sprintf("  %s %s", f.Name, format.TypeName(f.Type)))
		}
		fmt.Fprintf(s.out, "CREATE TABLE %s (\n%s\n);\n", t.Name(), strings.Join(cols, ",\n"))
		return
	}
	if v, ok := cat.View(name); ok {
		fmt.Fprintf(s.out, "CREATE VIEW %s AS %s;\n", v.Name, v.SQL)
		return
	}
	fmt.Fprintf(s.errOut, "Error: %v\n", errs.New(errs.Binding, "table %s does not exist", name))
}
