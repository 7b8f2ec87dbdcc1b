package catalog

// The file-source surface (implemented in parquet.go, csv.go, dir.go, mem.go):
//
//	// RegisterDir registers every DIR/NAME.parquet, DIR/NAME/*.parquet (one
//	// table over many files) and DIR/NAME.csv as table NAME.
//	func (c *Catalog) RegisterDir(dir string) error
//
//	// OpenFile opens a Parquet or CSV file, or a glob of them (one table), as
//	// a table named name — what a backtick-quoted path in FROM resolves to.
//	func OpenFile(name, pathOrGlob string) (Table, error)
//
//	// NewMemTable is a table over batches already in memory (CREATE TABLE AS).
//	func NewMemTable(name string, schema *arrow.Schema, batches []arrow.RecordBatch) Table
