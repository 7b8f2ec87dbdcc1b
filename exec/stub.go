package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// notImplemented is the Open of a node whose operator is not written yet:
// the query fails with an Unsupported error naming it.
func notImplemented(c *Context, name string) <-chan arrow.RecordBatch {
	ch := make(chan arrow.RecordBatch)
	c.Go(func() error {
		defer close(ch)
		return errs.New(errs.Unsupported, "operator %s is not implemented yet", name)
	})
	return ch
}
