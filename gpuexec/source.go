package gpuexec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"gq/catalog"
	"gq/exec"
)

// A GPU scan of rows that are not a table's (GPUScan.Source): under ranks,
// the rows a hash exchange brought this rank, a join's probe side. The
// Source is a SharedSource: its rows are gathered once per query, so a
// fallback's CPU twin reads the same rows instead of running the exchange
// again (which would wait for messages its peers sent once). The device
// reads them as a table of this query's, put in the device table cache
// like any other and dropped from it when the query ends; a join pipeline
// over the scan then runs on the device as it does over a stored table.

// acquire pins the columns s reads in the device table cache
// (releaseView) and returns them and the bytes uploaded to load them. The
// table is its CPU scan's, or for a scan of a Source the query's table of
// the Source's rows (once they are all in). With stream, columns over the
// device's budget for resident tables come as a streamed view (the
// caller reads it through each); without, they are loaded or the error
// says why not.
func (s *GPUScan) acquire(c *exec.Context, stream bool) (*tableView, int64, error) {
	t := s.CPU.Table
	if s.Source != nil {
		var err error
		t, err = c.SharedTable(s.Source, func(batches []arrow.RecordBatch) catalog.Table {
			return catalog.NewMemTable(s.CPU.Table.Name(), s.CPU.Table.Schema(), batches)
		}, func(t catalog.Table) {
			s.GPU.cache.drop(t)
			catalog.ReleaseMemTable(t)
		})
		if err != nil {
			return nil, 0, err
		}
	}
	v, loaded, err := s.GPU.cache.acquire(c, t, s.CPU.Columns, stream)
	if err != nil {
		return nil, 0, err
	}
	st := s.state(c)
	if v.load != nil {
		st.load.Store(v.load)
	}
	v.ctr = &st.chunks
	return v, loaded, nil
}

// cpu is what runs in place of s on the CPU: its Scan, or a read of its
// Source's rows.
func (s *GPUScan) cpu() exec.Node {
	if s.Source != nil {
		return &exec.SharedRead{Src: s.Source}
	}
	return s.CPU
}
