package tpch

import (
	"math"
	"os"
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

	passes := []struct {
		table   dbgen.Table
		rows    int64
		newLoad func() (*loader, error)
	}{
		{dbgen.TRegion, 5, func() (*loader, error) { return newLoader(outDir, regionLoad, "region", regionSchema) }},
		{dbgen.TNation, 25, func() (*loader, error) { return newLoader(outDir, nationLoad, "nation", nationSchema) }},
		{dbgen.TSupp, rows(dbgen.TSupp), func() (*loader, error) {
			return newLoader(outDir, supplierLoad, "supplier", supplierSchema)
		}},
		{dbgen.TCust, rows(dbgen.TCust), func() (*loader, error) {
			return newLoader(outDir, customerLoad, "customer", customerSchema)
		}},
		{dbgen.TPartPsupp, rows(dbgen.TPart), func() (*loader, error) {
			return newLoader(outDir, partLoad, "part", partSchema, "partsupp", partsuppSchema)
		}},
		{dbgen.TOrderLine, rows(dbgen.TOrder), func() (*loader, error) {
			return newLoader(outDir, orderLoad, "orders", ordersSchema, "lineitem", lineitemSchema)
		}},
	}
	for _, p := range passes {
		l, err := p.newLoad()
		if err != nil {
			return err
		}
		dbgenTDefs[p.table].loader = l
		err = dbgenGenTbl(p.table, 1, p.rows)
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
