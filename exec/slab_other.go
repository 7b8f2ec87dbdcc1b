//go:build !linux

package exec

func prefault[T any](s []T) {}
