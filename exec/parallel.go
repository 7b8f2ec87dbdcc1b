package exec

import (
	"runtime/debug"
	"sync"

	"gq/errs"
)

// parallel runs f(0) … f(n-1) in n goroutines and waits for all of them. A
// panic in one becomes an Internal error returned here (the first one wins)
// instead of taking the process down: helper goroutines inside an operator
// are outside Context.Go's recover.
func parallel(n int, f func(i int)) error {
	var wg sync.WaitGroup
	var once sync.Once
	var perr error
	for i := range n {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() {
						perr = errs.New(errs.Internal, "operator worker panicked: %v\n%s", r, debug.Stack())
					})
				}
			}()
			f(i)
		})
	}
	wg.Wait()
	return perr
}
