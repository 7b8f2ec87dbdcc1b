//go:build linux

package cuda

import "github.com/ebitengine/purego"

func dlopen(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

// bind sets each function variable in fns (name → pointer to a func
// variable) to the C symbol of that name, or fails naming the first
// missing symbol.
func bind(h uintptr, fns map[string]any) error {
	for name, fp := range fns {
		sym, err := purego.Dlsym(h, name)
		if err != nil {
			return &missingSymbol{name: name, err: err}
		}
		purego.RegisterFunc(fp, sym)
	}
	return nil
}
