package expr

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash/crc32"
)

// The digests of a string's bytes as lower-case hex text: md5, sha1 (sha
// in MySQL), sha256 (DuckDB's) and sha2(s, bits) (MySQL's: bits 224, 256,
// 384 or 512, 0 meaning 256; another length is NULL); crc32(s) is the
// IEEE CRC-32 as a BIGINT (MySQL's).
func init() {
	digest := func(name string, aliases []string, sum func([]byte) []byte) {
		Register(&Function{Name: name, SQL: append([]string{name}, aliases...), MinArgs: 1, MaxArgs: 1,
			Bind: bindSig(name, "s", String),
			CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
				return hex.AppendEncode(dst, sum(a[0].str(i))), true, nil
			}),
			NullPropagating: true,
			Doc:             name + "(s VARCHAR) → VARCHAR: lower-case hex digest"})
	}
	digest("md5", nil, func(b []byte) []byte { s := md5.Sum(b); return s[:] })
	digest("sha1", []string{"sha"}, func(b []byte) []byte { s := sha1.Sum(b); return s[:] })
	digest("sha256", nil, func(b []byte) []byte { s := sha256.Sum256(b); return s[:] })
	Register(&Function{Name: "sha2", SQL: []string{"sha2"}, MinArgs: 2, MaxArgs: 2,
		Bind: bindSig("sha2", "si", String),
		CPU: strRows(func(dst []byte, a []strArg, i int) ([]byte, bool, error) {
			s := a[0].str(i)
			var sum []byte
			switch a[1].int(i) {
			case 0, 256:
				h := sha256.Sum256(s)
				sum = h[:]
			case 224:
				h := sha256.Sum224(s)
				sum = h[:]
			case 384:
				h := sha512.Sum384(s)
				sum = h[:]
			case 512:
				h := sha512.Sum512(s)
				sum = h[:]
			default:
				return dst, false, nil
			}
			return hex.AppendEncode(dst, sum), true, nil
		}),
		NullPropagating: true,
		Doc:             "sha2(s VARCHAR, bits BIGINT) → VARCHAR: SHA-224/256/384/512 hex (0 = 256); NULL for other bits (MySQL)"})
	Register(&Function{Name: "crc32", SQL: []string{"crc32"}, MinArgs: 1, MaxArgs: 1,
		Bind: bindSig("crc32", "s", Int64),
		CPU: intRows(func(a []strArg, i int) (int64, bool, error) {
			return int64(crc32.ChecksumIEEE(a[0].str(i))), true, nil
		}),
		NullPropagating: true,
		Doc:             "crc32(s VARCHAR) → BIGINT: the IEEE CRC-32 (MySQL's)"})
}
