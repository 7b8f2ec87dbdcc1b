// Command exported-use counts, per package of the module, the exported
// identifiers that no other package references (issue 29): top-level
// funcs, types, vars and consts by qualified reference (pkg.Name), and
// methods on exported types by selector name (.Method) anywhere outside
// the package, which over-counts uses and so under-reports unused methods.
// A package's own _test.go files count as the package itself.
//
// Usage: go run ./scripts/exported-use [-v] [dir ...]
// With -v it lists the unused names; with dirs it reports only those.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type pkg struct {
	dir      string
	exported map[string]bool // "Name" or "Type.Method"
}

func main() {
	verbose := flag.Bool("v", false, "list the unused names")
	flag.Parse()
	module := "gq"
	fset := token.NewFileSet()
	pkgs := map[string]*pkg{}         // import path -> package
	files := map[string][]*ast.File{} // dir -> files
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != "." && (strings.HasPrefix(n, ".") || n == "data" || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[filepath.Dir(path)] = append(files[filepath.Dir(path)], f)
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	importPath := func(dir string) string {
		if dir == "." {
			return module
		}
		return module + "/" + filepath.ToSlash(dir)
	}
	for dir, fs := range files {
		p := &pkg{dir: dir, exported: map[string]bool{}}
		for _, f := range fs {
			if f.Name.Name == "main" || strings.HasSuffix(fset.File(f.Pos()).Name(), "_test.go") {
				continue
			}
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						p.exported[d.Name.Name] = true
					} else if t := recvType(d.Recv.List[0].Type); ast.IsExported(t) {
						p.exported[t+"."+d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								p.exported[s.Name.Name] = true
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									p.exported[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
		pkgs[importPath(dir)] = p
	}
	used := map[string]map[string]bool{}      // import path -> names used from outside
	selectors := map[string]map[string]bool{} // selector name -> dirs using it
	for dir, fs := range files {
		for _, f := range fs {
			names := map[string]string{} // local name -> import path
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if _, ok := pkgs[path]; !ok {
					continue
				}
				local := filepath.Base(path)
				if im.Name != nil {
					local = im.Name.Name
				}
				names[local] = path
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok {
					if path, ok := names[id.Name]; ok && path != importPath(dir) {
						if used[path] == nil {
							used[path] = map[string]bool{}
						}
						used[path][sel.Sel.Name] = true
					}
				}
				if selectors[sel.Sel.Name] == nil {
					selectors[sel.Sel.Name] = map[string]bool{}
				}
				selectors[sel.Sel.Name][dir] = true
				return true
			})
		}
	}
	want := map[string]bool{}
	for _, d := range flag.Args() {
		want[filepath.Clean(d)] = true
	}
	var paths []string
	for path := range pkgs {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		p := pkgs[path]
		if len(want) > 0 && !want[p.dir] || len(p.exported) == 0 {
			continue
		}
		var unused []string
		for name := range p.exported {
			if typ, m, ok := strings.Cut(name, "."); ok {
				if !p.exported[typ] || otherDir(selectors[m], p.dir) {
					continue
				}
			} else if used[path][name] {
				continue
			}
			unused = append(unused, name)
		}
		sort.Strings(unused)
		fmt.Printf("%-40s %3d of %3d exported unused outside\n", path, len(unused), len(p.exported))
		if *verbose {
			for _, n := range unused {
				fmt.Printf("\t%s\n", n)
			}
		}
	}
}

// otherDir reports whether dirs holds a directory other than dir.
func otherDir(dirs map[string]bool, dir string) bool {
	for d := range dirs {
		if d != dir {
			return true
		}
	}
	return false
}

// recvType is the name of a method receiver's type.
func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}
