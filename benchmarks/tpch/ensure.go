package tpch

import (
	"os"
	"path/filepath"

	"gq/errs"
)

// EnsureGenerated makes dir hold the TPC-H tables at scale factor sf unless
// it already exists. The tables are generated into a temporary directory
// beside dir, unique to this call, and renamed into place, so an interrupted
// run never leaves half a data set that later runs would trust, and several
// processes (go test runs packages in parallel) may race to make the same
// directory: the first rename wins and the others discard their copy.
func EnsureGenerated(sf float64, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return errs.Wrap(errs.IO, err, "tpch: create %s", parent)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return errs.Wrap(errs.IO, err, "tpch: temporary directory beside %s", dir)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := Generate(sf, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr == nil {
			return nil // another process made it first
		}
		return errs.Wrap(errs.IO, err, "tpch: rename %s to %s", tmp, dir)
	}
	return nil
}
