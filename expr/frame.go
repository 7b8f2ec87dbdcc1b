package expr

// FrameKind is the kind of one end of a window frame. The planner's window
// frames and the executor's are both of these, so lowering one to the
// other carries the kind as it is.
type FrameKind uint8

const (
	UnboundedPreceding FrameKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)
