// Package parser wraps vitess's MySQL parser for gq: it splits a script into
// statements (tracking each statement's line and column in the script),
// parses each one, and turns vitess's byte offsets into line:column syntax
// errors. It does not bind names or know about tables.
package parser
