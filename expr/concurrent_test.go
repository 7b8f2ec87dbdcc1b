package expr

import (
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// One Evaluator serves many workers at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := mkArr(mem, String, "a green x", "blue", nil, "green")
	p := mkArr(mem, dec152, 100, 200, 300, nil)
	b := mkBatch(mem, a, p)
	a.Release()
	p.Release()
	defer b.Release()
	e := call("and", Boolean, call("like", Boolean, col(0, String), lit("%green%", String)),
		call("gt", Boolean, call("mul", Decimal(18, 4), col(1, dec152), col(1, dec152)), lit(int64(0), Decimal(18, 4))))
	ev, err := Compile(e)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				sel, err := ev.EvalFilter(mem, b, nil)
				if err != nil || len(sel) != 1 || sel[0] != 0 {
					t.Errorf("sel %v err %v", sel, err)
					return
				}
				r, err := ev.Eval(mem, b)
				if err != nil {
					t.Error(err)
					return
				}
				if got := render(r); got != "[true false NULL NULL]" {
					t.Errorf("got %s", got)
				}
				r.Release()
			}
		}()
	}
	wg.Wait()
}
