//go:build !linux

package cuda

import "errors"

// gq drives CUDA only on Linux.
func dlopen(path string) (uintptr, error) {
	return 0, errors.New("CUDA is supported on Linux only")
}

func bind(h uintptr, fns map[string]any) error {
	return errors.New("CUDA is supported on Linux only")
}
