package main

import (
	"flag"
	"strings"
)

// pathList is a repeatable flag's values.
type pathList []string

func (p *pathList) String() string { return strings.Join(*p, ",") }

func (p *pathList) Set(s string) error {
	*p = append(*p, s)
	return nil
}

// allowPathFlag adds gq serve's --allow-path: a server's queries read the
// --data tables by name and, by path, only files under these prefixes.
func allowPathFlag(fs *flag.FlagSet) *pathList {
	var p pathList
	fs.Var(&p, "allow-path", "let queries read files by path under `PREFIX` (repeatable; symbolic links resolved, never /proc, /sys or /dev). By default a client reads only the --data tables")
	return &p
}
