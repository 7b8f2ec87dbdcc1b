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

// FrameExclude is a window frame's EXCLUDE clause: which rows around the
// current one leave its frame. The zero value, NO OTHERS, leaves none.
type FrameExclude uint8

const (
	ExcludeNoOthers   FrameExclude = iota
	ExcludeCurrentRow              // the current row
	ExcludeGroup                   // the current row and its peers
	ExcludeTies                    // the current row's peers, not itself
)

// Suffix is the clause as EXPLAIN adds it to a frame, with a leading
// space; empty for NO OTHERS.
func (e FrameExclude) Suffix() string {
	switch e {
	case ExcludeCurrentRow:
		return " exclude current row"
	case ExcludeGroup:
		return " exclude group"
	case ExcludeTies:
		return " exclude ties"
	}
	return ""
}
