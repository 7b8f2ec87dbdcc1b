package tpch

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/pingcap/go-tpc/tpch/dbgen"

	"gq/errs"
)

// genMu serialises Generate: dbgen keeps all its state in package globals.
var genMu sync.Mutex

// Generate writes the eight TPC-H tables at scale factor sf as
// outDir/NAME.parquet (see Tables). Rows are those of the official dbgen.
// sf is either below 1 (the spec's fractional scaling: each base row count
// times int(1000*sf)/1000, e.g. 0.01 or 0.1) or a whole number.
func Generate(sf float64, outDir string) error {
	return generate(sf, outDir, 0, 1)
}

// GeneratePart writes part (0-based) of parts of the six tables whose size
// grows with sf as outDir/NAME/part-PPP.parquet, and with part 0 also
// region and nation as outDir/NAME.parquet. Parts are contiguous row
// ranges: each skips dbgen's random streams to its first row, as dbgen's
// own -C/-S parallel mode does, so the parts together hold exactly
// Generate's rows. dbgen keeps its state in package globals, so parts run
// in parallel only in separate processes (gq gen tpch --jobs).
func GeneratePart(sf float64, outDir string, part, parts int) error {
	if parts < 1 || part < 0 || part >= parts {
		return errs.New(errs.Internal, "tpch: part %d of %d", part, parts)
	}
	return generate(sf, outDir, part, parts)
}

func generate(sf float64, outDir string, part, parts int) error {
	if !(sf > 0) || (sf >= 1 && sf != math.Trunc(sf)) || sf > 100000 {
		return errs.New(errs.Unsupported, "tpch: scale factor %v: want a whole number or a fraction below 1", sf)
	}
	intScale := int64(1000 * sf) // thousandths, for sf < 1
	if sf < 1 && intScale < 1 {
		return errs.New(errs.Unsupported, "tpch: scale factor %v is below 0.001", sf)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return errs.Wrap(errs.IO, err, "tpch: create %s", outDir)
	}

	genMu.Lock()
	defer genMu.Unlock()
	resetDists()
	if sf < 1 {
		dbgen.InitDbGen(1)
		for t := dbgen.TPart; t <= dbgen.TPartPsupp; t++ {
			dbgenTDefs[t].base = max(dbgenTDefs[t].base*intScale/1000, 1)
		}
		// InitDbGen cached these from the unscaled bases.
		dbgenOCKeyMax = dbgenTDefs[dbgen.TCust].base
		reflect.ValueOf(&dbgen.LPkeyMax).Elem().SetInt(dbgenTDefs[dbgen.TPart].base)
	} else {
		dbgen.InitDbGen(int64(sf))
	}
	rows := func(t dbgen.Table) int64 {
		if sf < 1 {
			return dbgenTDefs[t].base
		}
		return dbgenTDefs[t].base * int64(sf)
	}

	// A whole table is NAME.parquet, a split one's part NAME/part-PPP.parquet.
	whole := func(name string) (string, string) { return outDir, name }
	split := whole
	if parts > 1 {
		split = func(name string) (string, string) {
			return filepath.Join(outDir, name), fmt.Sprintf("part-%03d", part)
		}
	}
	passes := []struct {
		table   dbgen.Table
		rows    int64
		newLoad func() (*loader, error)
	}{
		{dbgen.TRegion, 5, func() (*loader, error) { return newLoader(whole, regionLoad, "region", regionSchema) }},
		{dbgen.TNation, 25, func() (*loader, error) { return newLoader(whole, nationLoad, "nation", nationSchema) }},
		{dbgen.TSupp, rows(dbgen.TSupp), func() (*loader, error) {
			return newLoader(split, supplierLoad, "supplier", supplierSchema)
		}},
		{dbgen.TCust, rows(dbgen.TCust), func() (*loader, error) {
			return newLoader(split, customerLoad, "customer", customerSchema)
		}},
		{dbgen.TPartPsupp, rows(dbgen.TPart), func() (*loader, error) {
			return newLoader(split, partLoad, "part", partSchema, "partsupp", partsuppSchema)
		}},
		{dbgen.TOrderLine, rows(dbgen.TOrder), func() (*loader, error) {
			return newLoader(split, orderLoad, "orders", ordersSchema, "lineitem", lineitemSchema)
		}},
	}
	for _, p := range passes {
		start, count := int64(1), p.rows
		if p.table == dbgen.TRegion || p.table == dbgen.TNation {
			if part != 0 {
				continue
			}
		} else if parts > 1 {
			lo, hi := p.rows*int64(part)/int64(parts), p.rows*int64(part+1)/int64(parts)
			if hi == lo {
				continue
			}
			start, count = lo+1, hi-lo
			// dbgen's partial(): the parent's streams skip with child
			// flag 1, its child table's with 0.
			d := dbgenTDefs[p.table]
			d.genSeed(1, lo)
			if d.child != dbgen.TNone {
				dbgenTDefs[d.child].genSeed(0, lo)
			}
		}
		l, err := p.newLoad()
		if err != nil {
			return err
		}
		dbgenTDefs[p.table].loader = l
		err = dbgenGenTbl(p.table, start, count)
		dbgenTDefs[p.table].loader = nil
		if cerr := l.close(err == nil); err == nil {
			err = cerr
		}
		if err != nil {
			return errs.Wrap(errs.Internal, err, "tpch: generate %s", l.ws[0].path)
		}
	}
	return nil
}
