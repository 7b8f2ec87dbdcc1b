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

// go-tpc's initDists appends each distribution's members to what an earlier
// InitDbGen left (readDist never resets them), so a second generation in one
// process drew from doubled word lists: its comments, names and types were
// no longer dbgen's. resetDists empties them before each InitDbGen.
// distribution and setMember mirror go-tpc v1.0.9's field for field.

type setMember struct {
	weight int64
	text   string
}

type distribution struct {
	count   int
	max     int32
	members []setMember
	permute []int64
}

//go:linkname dbgenPCntrSet github.com/pingcap/go-tpc/tpch/dbgen.pCntrSet
var dbgenPCntrSet distribution

//go:linkname dbgenColors github.com/pingcap/go-tpc/tpch/dbgen.colors
var dbgenColors distribution

//go:linkname dbgenPTypesSet github.com/pingcap/go-tpc/tpch/dbgen.pTypesSet
var dbgenPTypesSet distribution

//go:linkname dbgenNations github.com/pingcap/go-tpc/tpch/dbgen.nations
var dbgenNations distribution

//go:linkname dbgenRegions github.com/pingcap/go-tpc/tpch/dbgen.regions
var dbgenRegions distribution

//go:linkname dbgenOPrioritySet github.com/pingcap/go-tpc/tpch/dbgen.oPrioritySet
var dbgenOPrioritySet distribution

//go:linkname dbgenLInstructSet github.com/pingcap/go-tpc/tpch/dbgen.lInstructSet
var dbgenLInstructSet distribution

//go:linkname dbgenLSmodeSet github.com/pingcap/go-tpc/tpch/dbgen.lSmodeSet
var dbgenLSmodeSet distribution

//go:linkname dbgenLCategorySet github.com/pingcap/go-tpc/tpch/dbgen.lCategorySet
var dbgenLCategorySet distribution

//go:linkname dbgenLRflagSet github.com/pingcap/go-tpc/tpch/dbgen.lRflagSet
var dbgenLRflagSet distribution

//go:linkname dbgenCMsegSet github.com/pingcap/go-tpc/tpch/dbgen.cMsegSet
var dbgenCMsegSet distribution

//go:linkname dbgenNouns github.com/pingcap/go-tpc/tpch/dbgen.nouns
var dbgenNouns distribution

//go:linkname dbgenVerbs github.com/pingcap/go-tpc/tpch/dbgen.verbs
var dbgenVerbs distribution

//go:linkname dbgenAdjectives github.com/pingcap/go-tpc/tpch/dbgen.adjectives
var dbgenAdjectives distribution

//go:linkname dbgenAdverbs github.com/pingcap/go-tpc/tpch/dbgen.adverbs
var dbgenAdverbs distribution

//go:linkname dbgenAuxillaries github.com/pingcap/go-tpc/tpch/dbgen.auxillaries
var dbgenAuxillaries distribution

//go:linkname dbgenTerminators github.com/pingcap/go-tpc/tpch/dbgen.terminators
var dbgenTerminators distribution

//go:linkname dbgenArticles github.com/pingcap/go-tpc/tpch/dbgen.articles
var dbgenArticles distribution

//go:linkname dbgenPrepositions github.com/pingcap/go-tpc/tpch/dbgen.prepositions
var dbgenPrepositions distribution

//go:linkname dbgenGrammar github.com/pingcap/go-tpc/tpch/dbgen.grammar
var dbgenGrammar distribution

//go:linkname dbgenNp github.com/pingcap/go-tpc/tpch/dbgen.np
var dbgenNp distribution

//go:linkname dbgenVp github.com/pingcap/go-tpc/tpch/dbgen.vp
var dbgenVp distribution

func resetDists() {
	for _, d := range []*distribution{
		&dbgenPCntrSet, &dbgenColors, &dbgenPTypesSet, &dbgenNations, &dbgenRegions,
		&dbgenOPrioritySet, &dbgenLInstructSet, &dbgenLSmodeSet, &dbgenLCategorySet,
		&dbgenLRflagSet, &dbgenCMsegSet, &dbgenNouns, &dbgenVerbs, &dbgenAdjectives,
		&dbgenAdverbs, &dbgenAuxillaries, &dbgenTerminators, &dbgenArticles,
		&dbgenPrepositions, &dbgenGrammar, &dbgenNp, &dbgenVp,
	} {
		*d = distribution{}
	}
}
