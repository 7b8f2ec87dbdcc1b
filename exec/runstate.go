package exec

// Per-run operator state. A plan is a description: the same nodes may be
// opened again (a prepared statement, a plan cache) or under two Contexts
// at once, so what an operator counts or builds while it runs lives in
// the run, not on its node. Most operators keep such state in the
// closures Open starts; what must outlive Open — figures EXPLAIN ANALYZE
// reads after the run — is kept in the Context's run, by node.

// RunState returns n's state of type T in c's run, made zero on first
// use. Every Context derived from one NewContext (an operator's
// accounting, a spilled partition's) shares the run. A node opened twice
// in one run (a device operator's CPU fallback re-running a build side)
// gets the same state both times.
func RunState[T any](c *Context, n Node) *T {
	s := c.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	v, _ := lookupOrMake(&s.states, n, func() any { return new(T) })
	return v.(*T)
}

// RunStatsReporter is the hook for figures only an operator knows (shuffle
// bytes sent and received, a device operator's rows and transfers), kept
// in its run (RunState). EXPLAIN ANALYZE asks with the Context the
// operator ran under, after the query finished, and shows each Stat name
// as a column (blank for operators that lack it).
type RunStatsReporter interface {
	RunStats(c *Context) []Stat
}

// RunDeviceReporter says where an operator ran in the run of the Context
// it is given ("GPU", "CPU (fallback)"); operators without it ran on the
// CPU.
type RunDeviceReporter interface {
	RunDevice(c *Context) string
}
