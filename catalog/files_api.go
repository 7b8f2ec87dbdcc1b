package catalog

// The file-source surface (implemented in parquet.go, csv.go, dir.go, mem.go):
//
//	// RegisterDir registers every DIR/NAME.parquet, DIR/NAME/*.parquet (one
//	// table over many files) and DIR/NAME.csv as table NAME; the tables
//	// follow their files. AttachDir also says how many; attaching a
//	// directory again replaces its tables.
//	func (c *Catalog) RegisterDir(dir string) error
//	func (c *Catalog) AttachDir(dir string) (int, error)
//
//	// Confine limits the files a query may open by path to allow's
//	// prefixes (a server's catalog); warn hears of skipped links.
//	func (c *Catalog) Confine(allow []string, warn func(string)) error
//
//	// OpenFile opens a Parquet or CSV file, a directory's Parquet files,
//	// or a glob of them (one table), as a table named name — what a
//	// backtick-quoted path in FROM resolves to — under c's policy and ctx.
//	func (c *Catalog) OpenFile(ctx context.Context, name, pathOrGlob string) (Table, error)
//	// OpenFile is the same with no policy and no context (tools, tests).
//	func OpenFile(name, pathOrGlob string) (Table, error)
//
//	// NewMemTable is a table over batches already in memory (CREATE TABLE AS).
//	func NewMemTable(name string, schema *arrow.Schema, batches []arrow.RecordBatch) Table
