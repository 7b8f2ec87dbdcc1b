package tpch

import (
	_ "unsafe" // for go:linkname

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// go-tpc's dbgen only takes an integer scale factor (InitDbGen(int64)).
// The spec's dbgen handles SF < 1 by keeping scale = 1 and multiplying each
// table's base row count by int(1000*SF)/1000 (driver.c); the key ranges
// (customer keys in orders, part keys in lineitem, the part/supplier
// bridge) derive from those bases. go-tpc keeps the bases in the unexported
// tDefs table and caches two key maxima at init, so we reach them with
// go:linkname instead of copying the package. tDef mirrors dbgen.tDef of
// go-tpc v1.0.9 field for field (go.mod pins that version).

type tDef struct {
	name    string
	comment string
	base    int64
	loader  dbgen.Loader
	genSeed func(dbgen.Table, int64)
	child   dbgen.Table
	vTotal  int64
}

//go:linkname dbgenTDefs github.com/pingcap/go-tpc/tpch/dbgen.tDefs
var dbgenTDefs []tDef

//go:linkname dbgenOCKeyMax github.com/pingcap/go-tpc/tpch/dbgen.ockeyMax
var dbgenOCKeyMax int64

// dbgenGenTbl generates rows [start, start+count) of table t into
// dbgenTDefs[t].loader (DbGen does the same, but prints progress to stdout).
//
//go:linkname dbgenGenTbl github.com/pingcap/go-tpc/tpch/dbgen.genTbl
func dbgenGenTbl(t dbgen.Table, start, count int64) error
