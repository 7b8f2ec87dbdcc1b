// Package sqlparser is gq's fork of vitess's MySQL parser
// (vitess.io/vitess/go/vt/sqlparser), kept so that gq owns its grammar and
// extends sql.y where MySQL's surface stops short of what users write.
// UPSTREAM.md names the upstream version, lists gq's changes (each marked
// "gq:" in the source) and says how to regenerate sql.go and rebase onto a
// newer vitess.
package sqlparser
