package expr

import "encoding/binary"

// packedStrs holds an IN list of short strings (≤ 8 bytes each) as
// integers, so a probe is a length check and one 8-byte compare per entry
// instead of a byte comparison (TPC-H lists are mode and container names).
type packedStrs struct {
	keys []uint64
	lens []int32
}

func packStrs(strs []string) *packedStrs {
	p := &packedStrs{}
	for _, s := range strs {
		if len(s) > 8 {
			return nil
		}
		p.keys = append(p.keys, load8([]byte(s), 0, len(s)))
		p.lens = append(p.lens, int32(len(s)))
	}
	return p
}

// load8 reads the l ≤ 8 bytes at data[st:] as a little-endian integer.
func load8(data []byte, st, l int) uint64 {
	if st+8 <= len(data) {
		v := binary.LittleEndian.Uint64(data[st:])
		if l < 8 {
			v &= 1<<(8*uint(l)) - 1
		}
		return v
	}
	var v uint64
	for k := 0; k < l; k++ {
		v |= uint64(data[st+k]) << (8 * uint(k))
	}
	return v
}

// selPacked appends the rows (all of them, validity ignored) whose value
// is (want) or is not (!want) in the list.
func (p *packedStrs) sel(offs []int32, data []byte, want bool, dst []int32) []int32 {
	n := len(offs) - 1
	for i := 0; i < n; i++ {
		st, l := offs[i], offs[i+1]-offs[i]
		hit := false
		if l <= 8 {
			k := load8(data, int(st), int(l))
			for j, key := range p.keys {
				if key == k && p.lens[j] == l {
					hit = true
					break
				}
			}
		}
		if hit == want {
			dst = append(dst, int32(i))
		}
	}
	return dst
}
