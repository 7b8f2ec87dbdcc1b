package duckdb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteParquet has DuckDB rewrite each srcDir/NAME.parquet of tables as
// dstDir/NAME.parquet with its own writer's defaults (COPY … TO …
// (FORMAT parquet): dictionary and PLAIN pages, snappy, 122,880-row
// groups, every column optional), so gq can be measured and tested on the
// files another tool writes rather than on its own. The rows are the same.
// Files are written under a temporary name and renamed, so an interrupted
// run leaves no half-written table; an existing dstDir/NAME.parquet is
// kept.
func WriteParquet(srcDir, dstDir string, tables []string) error {
	return WriteParquetCodec(srcDir, dstDir, tables, "")
}

// WriteParquetCodec is WriteParquet with DuckDB's COMPRESSION option set
// to codec (uncompressed, snappy, gzip, zstd, lz4, brotli); "" keeps
// DuckDB's default.
func WriteParquetCodec(srcDir, dstDir string, tables []string, codec string) error {
	opts := "FORMAT parquet"
	if codec != "" {
		opts += ", COMPRESSION " + codec
	}
	if err := os.MkdirAll(dstDir, 0o755); err != nil {
		return err
	}
	db, err := Open(srcDir, 0)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, name := range tables {
		dst := filepath.Join(dstDir, name+".parquet")
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		tmp, err := filepath.Abs(dst + ".tmp")
		if err != nil {
			return err
		}
		q := fmt.Sprintf(`COPY (SELECT * FROM "%s") TO '%s' (%s)`,
			strings.ReplaceAll(name, `"`, `""`), strings.ReplaceAll(tmp, "'", "''"), opts)
		if _, err := db.Exec(q); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("duckdb write %s: %w", name, err)
		}
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
	}
	return nil
}
