package parser

import (
	"gq/parser/sqlparser"

	"gq/errs"
)

// StringValue is the text of a string literal as the AST keeps some of
// them (INTO OUTFILE's file name): quoted and escaped again. It is read
// back by the grammar's own tokenizer, so every escape MySQL knows means
// what it means in a literal.
func StringValue(quoted string) (string, error) {
	e, err := vparser.ParseExpr(quoted)
	if lit, ok := e.(*sqlparser.Literal); err == nil && ok && lit.Type == sqlparser.StrVal {
		return lit.Val, nil
	}
	return "", errs.New(errs.Syntax, "expected a string, got %s", quoted)
}
