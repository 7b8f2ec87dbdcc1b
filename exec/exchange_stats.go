package exec

import "gq/shuffle"

// insertChunk inserts one encoded chunk for partition pid, counting its
// bytes as sent by this exchange (the shuffle's own Statistics, shared by
// all exchanges of a query, count the same bytes as shuffle-payload-send).
func (e *Exchange) insertChunk(sh *shuffle.Shuffler, pid int, data []byte) error {
	e.sent.Add(int64(len(data)))
	return sh.Insert(pid, data)
}

// ShuffleBytes are the chunk payload bytes (Arrow IPC) this rank sent into
// and received from this exchange's shuffle, chunks to itself included;
// zero for keep-root exchanges, which move nothing. Read after the run.
func (e *Exchange) ShuffleBytes() (sent, received int64) {
	return e.sent.Load(), e.received.Load()
}

// AnalyzeStats shows the shuffle bytes as EXPLAIN ANALYZE columns, and
// how many batches came partitioned by the device where any did.
func (e *Exchange) AnalyzeStats() []Stat {
	sent, received := e.ShuffleBytes()
	stats := []Stat{
		{Name: "sent", Unit: "bytes", Value: sent},
		{Name: "received", Unit: "bytes", Value: received},
	}
	if n := e.devParted.Load(); n > 0 {
		stats = append(stats, Stat{Name: "device-partitioned batches", Value: n})
	}
	return stats
}
