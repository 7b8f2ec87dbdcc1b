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

// RunStatsReporter is StatsReporter for an operator whose figures live in
// its run (RunState): EXPLAIN ANALYZE asks with the Context the operator
// ran under, after the query finished.
type RunStatsReporter interface {
	RunStats(c *Context) []Stat
}

// RunDeviceReporter is DeviceReporter for an operator that knows where it
// ran from its run (RunState).
type RunDeviceReporter interface {
	RunDevice(c *Context) string
}
