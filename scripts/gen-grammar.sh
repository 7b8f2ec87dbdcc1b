#!/usr/bin/env bash
# gen-grammar.sh regenerates parser/sqlparser's generated Go from its sources:
#   sql.y   -> sql.go            (vitess's goyacc, then goimports, as upstream does)
#   ast.go  -> ast_clone.go, ast_equals.go, ast_visit.go, ast_rewrite.go,
#              ast_copy_on_rewrite.go, ast_path.go   (vitess's asthelpergen)
#   ast_format.go -> ast_format_fast.go              (vitess's astfmtgen)
# The generators are the ones upstream's generate.go runs, taken from the
# vitess module at the version in go.mod, so a rebase onto a newer vitess
# brings its generators with it. goyacc is vitess's fork (it has -f, the
# fast-append mode sql.go is built with), not golang.org/x/tools/cmd/goyacc.
#
# Usage: scripts/gen-grammar.sh [--parser-only]
#   --parser-only  regenerate sql.go only (after an edit to sql.y alone)
# TestGeneratedParserIsCurrent in parser/sqlparser checks sql.go.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS=-mod=mod GONOSUMDB='*' GOSUMDB=off

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
# asthelpergen and astfmtgen call goimports by name.
GOBIN=$tools go install golang.org/x/tools/cmd/goimports
export PATH=$tools:$PATH

(
	cd parser/sqlparser
	# The exact arguments upstream uses: goyacc writes them into sql.go's
	# first line.
	go run vitess.io/vitess/go/vt/sqlparser/goyacc -fo sql.go sql.y
	rm -f y.output
	goimports -w sql.go
	if [ "${1:-}" != --parser-only ]; then
		go run vitess.io/vitess/go/tools/asthelpergen/main --in . \
			--iface gq/parser/sqlparser.SQLNode \
			--clone_exclude '*ColName' --equals_custom '*ColName'
	fi
)
if [ "${1:-}" != --parser-only ]; then
	go run vitess.io/vitess/go/tools/astfmtgen gq/parser/sqlparser/...
fi
