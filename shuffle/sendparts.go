package shuffle

// partsSender is implemented by communicators that can send a message
// given in pieces without first joining them (tcp: one writev), and that
// keep no reference to the pieces once the call returns.
type partsSender interface {
	SendParts(dst int, tag Tag, parts ...[]byte) error
}

// sendParts sends the concatenation of parts to dst under tag. The caller
// may reuse parts afterwards: backends that cannot write pieces directly
// get one joined copy, which they then own as Send requires.
func sendParts(c Communicator, dst int, tag Tag, parts ...[]byte) error {
	if ps, ok := c.(partsSender); ok {
		return ps.SendParts(dst, tag, parts...)
	}
	size := 0
	for _, b := range parts {
		size += len(b)
	}
	return c.Send(dst, tag, concat(parts, size))
}
