// Package parser wraps gq's MySQL parser (parser/sqlparser, a fork of
// vitess's, whose grammar gq extends) for gq: it splits a script into
// statements (tracking each statement's line and column in the script),
// parses each one, and turns the parser's byte offsets into line:column
// syntax errors. It does not bind names or know about tables.
package parser
