package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// envEdges are the module's non-test files that may read the environment
// (issue 29): a binary's edge, which passes what it reads down as values,
// or a library whose variables are not gq's settings. A file that reads it
// and is not here fails TestEnvReadAtTheEdge; so does one here that no
// longer reads it, so that the list stays the truth. README.md's table of
// environment variables says the same.
var envEdges = map[string]string{
	"cmd/gq/env.go":                  "gq's edge: every GQ_* variable is read here (getenv, lookupEnv) and passed down as flags' defaults and options",
	"cmd/rrun/main.go":               "rrun's edge: the ranks it starts inherit its environment, and it reads GQ_SPILL_DIR to give each rank its own",
	"benchmarks/slt/cmd/slt/main.go": "the slt binary's edge: its engines take the GQ_* memory variables through engine.Options.WithEnv",
	"arrowgpu/internal/cuda/loader.go": "LD_LIBRARY_PATH, CUDA_HOME and CUDA_PATH are the system's and the CUDA toolkit's " +
		"conventions for where NVRTC lives, not gq's settings: the search honours them for whoever embeds arrowgpu",
	"memory/runtime.go": "GOMEMLIMIT is the Go runtime's own variable: TieRuntimeLimit leaves the runtime's limit alone when the user set it",
	"memory/gcpacer.go": "GOGC is the Go runtime's own variable: PaceGC leaves the collector alone when the user set it",
}

// envFuncs are the functions that read the process environment.
var envFuncs = map[string]map[string]bool{
	"os":      {"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true},
	"syscall": {"Getenv": true, "Environ": true},
}

// envReads returns where src uses a function that reads the environment,
// called or passed as a value, whatever name the file imports its package
// under.
func envReads(fset *token.FileSet, name string, src any) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	local := map[string]string{} // local package name -> import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if envFuncs[path] == nil {
			continue
		}
		n := path
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = path
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if path, ok := local[pkg.Name]; ok && envFuncs[path][sel.Sel.Name] {
			out = append(out, fset.Position(sel.Pos()).String()+": "+path+"."+sel.Sel.Name)
		}
		return true
	})
	return out, nil
}

// TestEnvReadAtTheEdge: no non-test file of the module reads the
// environment outside envEdges; libraries take their settings as values.
func TestEnvReadAtTheEdge(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	var bad []string
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			base := d.Name()
			if strings.HasPrefix(base, ".") || base == "testdata" || base == "data" || base == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (benchmarks/duckdb)
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		files++
		reads, err := envReads(fset, path, nil)
		if err != nil {
			return err
		}
		if len(reads) == 0 {
			return nil
		}
		if _, ok := envEdges[rel]; ok {
			seen[rel] = true
			return nil
		}
		bad = append(bad, reads...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned %d files under %s: not the module", files, root)
	}
	for _, b := range bad {
		t.Errorf("%s: a library reads the environment; take the setting as a value and read it at the binary's edge (cmd/gq/env.go), or add the file to envEdges saying why", b)
	}
	var stale []string
	for f := range envEdges {
		if !seen[f] {
			stale = append(stale, f)
		}
	}
	sort.Strings(stale)
	for _, f := range stale {
		t.Errorf("%s is in envEdges but reads no environment: remove it", f)
	}
}

// TestEnvReadsFound: the scan finds a read however the package is named
// and whether the function is called or passed, and nothing else.
func TestEnvReadsFound(t *testing.T) {
	src := `package p
import (
	sys "os"
	"syscall"
	"strings"
)
var get = sys.LookupEnv
func f() string { syscall.Getenv("X"); return strings.ToLower(sys.Getenv("Y")) + sys.TempDir() }
func g(os struct{ Getenv func(string) string }) string { return os.Getenv("Z") }
`
	reads, err := envReads(token.NewFileSet(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"os.LookupEnv", "syscall.Getenv", "os.Getenv"}
	if len(reads) != len(want) {
		t.Fatalf("found %v, want %v", reads, want)
	}
	for i, w := range want {
		if !strings.HasSuffix(reads[i], ": "+w) {
			t.Errorf("read %d: %s, want %s", i, reads[i], w)
		}
	}
}
