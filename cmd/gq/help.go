package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// noEnv are the flags that have no GQ_* variable: what to run and
// one-shot actions are not settings, and opting out of a safety check
// (serve --insecure) must be said on the command line.
var noEnv = map[string]bool{"c": true, "f": true, "version": true, "help": true, "h": true, "cluster-info": true, "insecure": true}

// envName is the environment variable that sets a flag: GQ_ and the flag
// name in capitals with '-' as '_' (--batch-size: GQ_BATCH_SIZE).
func envName(flagName string) string {
	return "GQ_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// flagSetHook, when set (by tests), sees gq's flag set before parsing.
var flagSetHook func(*flag.FlagSet)

// parseFlags applies the GQ_* variables, then the arguments (which win).
// It returns ok, or the exit status: 0 after --help (the usage goes to
// stdout), 2 for a usage error (reported on stderr).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (int, bool) {
	if flagSetHook != nil {
		flagSetHook(fs)
	}
	fs.Usage = func() {} // parseFlags prints usage itself
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if noEnv[f.Name] || envErr != nil {
			return
		}
		if v, ok := lookupEnv(envName(f.Name)); ok && v != "" {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", envName(f.Name), v, err)
			}
		}
	})
	if envErr != nil {
		fmt.Fprintf(stderr, "Error: %v\n", envErr)
		return exitUsage, false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stdout)
			return 0, false
		}
		fmt.Fprintln(stderr, "Run 'gq --help' for usage.")
		return exitUsage, false
	}
	return 0, true
}

// envNote matches "(env GQ_X)" and "; env GQ_X" in a flag's own usage
// text, which the table's env column replaces.
var envNote = regexp.MustCompile(`\s*\(env GQ_[A-Z_]+(=[^)]*)?\)|;\s*env GQ_[A-Z_]+(=\S*)?`)

// usage writes gq --help: how to call gq, then every flag with its
// argument, its GQ_* variable and its description.
func usage(fs *flag.FlagSet, w io.Writer) {
	main := fs.Name() == "gq"
	if !main {
		fmt.Fprintf(w, "Usage: %s [flags]\n", fs.Name())
	} else {
		mainUsage(w)
	}
	fmt.Fprintln(w, "\nFlags (each also set by its environment variable; a flag given wins):")
	flagTable(fs, w)
	if main {
		fmt.Fprint(w, `
In the shell, .help lists the dot commands (.mode, .timer, .maxrows, .output,
.read, .open, .device, .stats, …). History is kept in ~/.gq_history
(GQ_HISTORY sets another file).
`)
	}
	fmt.Fprint(w, "\nExit status: 0 success, 1 a statement failed, 2 bad flags or arguments.\n")
}

func mainUsage(w io.Writer) {
	fmt.Fprintf(w, `%s — SQL over Parquet and CSV files on CPUs and GPUs

Usage:
  gq [flags]                  interactive shell on a terminal; else SQL read from stdin
  gq [flags] -c SQL           run SQL (statements end with ';')
  gq [flags] -f FILE          run a file of SQL
  gq gen tpch --sf SF --out DIR   generate TPC-H Parquet data
  gq serve [flags]            Arrow Flight SQL server (gq serve --help for its flags)
`, version)
}

// flagTable lists fs's flags: name and argument, variable, description.
func flagTable(fs *flag.FlagSet, w io.Writer) {
	type row struct{ flag, env, help string }
	var rows []row
	fs.VisitAll(func(f *flag.Flag) {
		name := "-" + f.Name
		if len(f.Name) > 1 {
			name = "-" + name
		}
		arg, help := flag.UnquoteUsage(f)
		if arg != "" {
			switch arg {
			case "string":
				arg = "VALUE"
			case "int":
				arg = "N"
			}
			name += " " + strings.ToUpper(arg)
		}
		env := ""
		if !noEnv[f.Name] {
			env = envName(f.Name)
		}
		help = envNote.ReplaceAllString(help, "")
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "false" && !strings.Contains(help, "default") {
			help += " (default " + f.DefValue + ")"
		}
		rows = append(rows, row{name, env, help})
	})
	fw, ew := 0, 0
	for _, r := range rows {
		fw, ew = max(fw, len(r.flag)), max(ew, len(r.env))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %-*s  %s\n", fw, r.flag, ew, r.env, r.help)
	}
}
