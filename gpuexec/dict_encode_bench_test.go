package gpuexec

import (
	"fmt"
	"testing"

	"gq/exec"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkDictEncode100K encodes 100,000 distinct strings, the SF10
// supplier names a build side of TPC-H q21 groups by.
func BenchmarkDictEncode100K(b *testing.B) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 100_000 {
		sb.Append(fmt.Sprintf("Supplier#%09d", i))
	}
	arr := sb.NewArray()
	defer arr.Release()
	c := exec.NewContext(b.Context(), exec.Options{})
	b.ResetTimer()
	for range b.N {
		d, codes, err := dictEncode(c, []arrow.Array{arr})
		if err != nil {
			b.Fatal(err)
		}
		d.values.Release()
		codes.Release()
	}
}
