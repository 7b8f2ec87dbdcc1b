package exec

import (
	"sync/atomic"

	"gq/shuffle"
)

// exchangeRun is an exchange's figures in one run (RunState): the chunk
// payload bytes this rank inserted into and took out of its shuffle, and
// the batches the device had partitioned.
type exchangeRun struct {
	sent, received, devParted atomic.Int64
}

// insertChunk inserts one encoded chunk for partition pid, counting its
// bytes as sent by this exchange (the shuffle's own Statistics, shared by
// all exchanges of a query, count the same bytes as shuffle-payload-send).
func (st *exchangeRun) insertChunk(sh *shuffle.Shuffler, pid int, data []byte) error {
	st.sent.Add(int64(len(data)))
	return sh.Insert(pid, data)
}

// ShuffleBytes are the chunk payload bytes (Arrow IPC) this rank sent into
// and received from this exchange's shuffle in the run of c, chunks to
// itself included; zero for keep-root exchanges, which move nothing. Read
// after the run.
func (e *Exchange) ShuffleBytes(c *Context) (sent, received int64) {
	st := RunState[exchangeRun](c, e)
	return st.sent.Load(), st.received.Load()
}

// RunStats shows the shuffle bytes as EXPLAIN ANALYZE columns, and how
// many batches came partitioned by the device where any did.
func (e *Exchange) RunStats(c *Context) []Stat {
	st := RunState[exchangeRun](c, e)
	stats := []Stat{
		{Name: "sent", Unit: "bytes", Value: st.sent.Load()},
		{Name: "received", Unit: "bytes", Value: st.received.Load()},
	}
	if n := st.devParted.Load(); n > 0 {
		stats = append(stats, Stat{Name: "device-partitioned batches", Value: n})
	}
	return stats
}
