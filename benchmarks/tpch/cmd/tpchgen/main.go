// Command tpchgen writes the TPC-H tables as Parquet:
//
//	tpchgen --sf 0.1 --out data/tpch-sf0.1
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"gq/benchmarks/tpch"
)

func main() {
	sf := flag.Float64("sf", 0.1, "scale factor (a fraction below 1 or a whole number)")
	out := flag.String("out", "", "output directory")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "tpchgen: --out is required")
		os.Exit(2)
	}
	start := time.Now()
	if err := tpch.Generate(*sf, *out); err != nil {
		fmt.Fprintln(os.Stderr, "tpchgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "tpchgen: SF %v in %s\n", *sf, time.Since(start).Round(time.Millisecond))
}
