package flight

import (
	"context"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Catalog metadata. gq has one flat namespace of tables and views and its
// SQL takes no database or schema qualifiers, so it reports no catalogs
// and no schemas, and every table with null catalog and schema names:
// a client that qualified names from them would write SQL gq refuses.

// metaInfo is the FlightInfo of a metadata command: the ticket is the
// command itself, answered by the matching DoGet.
func metaInfo(desc *flight.FlightDescriptor, schema *arrow.Schema) *flight.FlightInfo {
	return &flight.FlightInfo{
		Endpoint:         []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: desc.Cmd}}},
		FlightDescriptor: desc,
		Schema:           flight.SerializeSchema(schema, memory.DefaultAllocator),
		TotalRecords:     -1,
		TotalBytes:       -1,
	}
}

// oneBatch streams a single batch (released once sent).
func oneBatch(schema *arrow.Schema, rec arrow.RecordBatch) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	ch := make(chan flight.StreamChunk, 1)
	ch <- flight.StreamChunk{Data: rec}
	close(ch)
	return schema, ch, nil
}

// empty streams no rows of schema.
func empty(schema *arrow.Schema) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	ch := make(chan flight.StreamChunk)
	close(ch)
	return schema, ch, nil
}

func (s *Server) GetFlightInfoCatalogs(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.Catalogs), nil
}

func (s *Server) DoGetCatalogs(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.Catalogs)
}

func (s *Server) GetFlightInfoSchemas(_ context.Context, _ flightsql.GetDBSchemas, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.DBSchemas), nil
}

func (s *Server) DoGetDBSchemas(context.Context, flightsql.GetDBSchemas) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.DBSchemas)
}

func (s *Server) GetFlightInfoTableTypes(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.TableTypes), nil
}

func (s *Server) DoGetTableTypes(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema_ref.TableTypes)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"TABLE", "VIEW"}, nil)
	return oneBatch(schema_ref.TableTypes, b.NewRecordBatch())
}

func tablesSchema(cmd flightsql.GetTables) *arrow.Schema {
	if cmd.GetIncludeSchema() {
		return schema_ref.TablesWithIncludedSchema
	}
	return schema_ref.Tables
}

func (s *Server) GetFlightInfoTables(_ context.Context, cmd flightsql.GetTables, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, tablesSchema(cmd)), nil
}

// DoGetTables lists tables and views matching the command's name pattern
// and types; with include_schema, each with its Arrow schema (a view's by
// planning it).
func (s *Server) DoGetTables(ctx context.Context, cmd flightsql.GetTables) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	schema := tablesSchema(cmd)
	if c := cmd.GetCatalog(); c != nil && *c != "" {
		return empty(schema) // no catalog has tables
	}
	if p := cmd.GetDBSchemaFilterPattern(); p != nil && !likeMatch(*p, "") {
		return empty(schema)
	}
	types := map[string]bool{}
	for _, t := range cmd.GetTableTypes() {
		types[strings.ToUpper(t)] = true
	}
	sess, done, err := s.session(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	ctx, cancel := s.bounded(ctx, true)
	defer cancel()
	cat := s.sessionCatalog(sess)
	if cat == nil {
		cat = s.eng.Catalog()
	}
	ctx = s.catalogCtx(ctx, sess)
	dec64 := s.wireDecimal64(sess)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, name := range cat.Names() {
		if p := cmd.GetTableNameFilterPattern(); p != nil && !likeMatch(*p, name) {
			continue
		}
		kind := "VIEW"
		var ts *arrow.Schema
		if t, ok := cat.Table(name); ok {
			kind, ts = "TABLE", t.Schema()
		}
		if len(types) > 0 && !types[kind] {
			continue
		}
		if cmd.GetIncludeSchema() && ts == nil {
			var err error
			if ts, err = s.eng.Schema(ctx, "select * from `"+strings.ReplaceAll(name, "`", "``")+"`"); err != nil {
				// A view whose tables were dropped: list it without columns.
				ts = arrow.NewSchema(nil, nil)
			}
		}
		b.Field(0).AppendNull()
		b.Field(1).AppendNull()
		b.Field(2).(*array.StringBuilder).Append(name)
		b.Field(3).(*array.StringBuilder).Append(kind)
		if cmd.GetIncludeSchema() {
			b.Field(4).(*array.BinaryBuilder).Append(serializeSchema(ts, dec64))
		}
	}
	return oneBatch(schema, b.NewRecordBatch())
}

// likeMatch matches s against a SQL LIKE pattern (% and _, \ escapes),
// as Flight SQL's filter patterns are; case-insensitive like gq's names.
func likeMatch(pattern, s string) bool {
	var re strings.Builder
	re.WriteString("(?is)^")
	esc := false
	for _, r := range pattern {
		switch {
		case esc:
			re.WriteString(regexp.QuoteMeta(string(r)))
			esc = false
		case r == '\\':
			esc = true
		case r == '%':
			re.WriteString(".*")
		case r == '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re.WriteString("$")
	ok, err := regexp.MatchString(re.String(), s)
	return err == nil && ok
}

// Keys: gq has no constraints, so every key listing is empty (but well
// formed, which JDBC's metadata calls need).

func (s *Server) GetFlightInfoPrimaryKeys(_ context.Context, _ flightsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.PrimaryKeys), nil
}

func (s *Server) DoGetPrimaryKeys(context.Context, flightsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.PrimaryKeys)
}

func (s *Server) GetFlightInfoExportedKeys(_ context.Context, _ flightsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.ExportedKeys), nil
}

func (s *Server) DoGetExportedKeys(context.Context, flightsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.ExportedKeys)
}

func (s *Server) GetFlightInfoImportedKeys(_ context.Context, _ flightsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.ImportedKeys), nil
}

func (s *Server) DoGetImportedKeys(context.Context, flightsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.ImportedKeys)
}

func (s *Server) GetFlightInfoCrossReference(_ context.Context, _ flightsql.CrossTableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.CrossReference), nil
}

func (s *Server) DoGetCrossReference(context.Context, flightsql.CrossTableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return empty(schema_ref.CrossReference)
}

func (s *Server) GetFlightInfoXdbcTypeInfo(_ context.Context, _ flightsql.GetXdbcTypeInfo, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return metaInfo(desc, schema_ref.XdbcTypeInfo), nil
}

// DoGetXdbcTypeInfo lists gq's SQL types (those format.TypeName names),
// optionally only the one with the asked JDBC/ODBC type code.
func (s *Server) DoGetXdbcTypeInfo(_ context.Context, cmd flightsql.GetXdbcTypeInfo) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema_ref.XdbcTypeInfo)
	defer b.Release()
	for _, t := range xdbcTypes {
		if want := cmd.GetDataType(); want != nil && *want != t.code {
			continue
		}
		t.append(b)
	}
	rec := b.NewRecordBatch()
	if rec.NumRows() == 0 && cmd.GetDataType() != nil {
		rec.Release()
		return nil, nil, status.Errorf(codes.NotFound, "no type with data type %d", *cmd.GetDataType())
	}
	return oneBatch(schema_ref.XdbcTypeInfo, rec)
}
