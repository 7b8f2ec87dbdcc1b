package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"gq/errs"
)

// The function registry: every scalar SQL function is one Function entry,
// registered from its own file's init, holding all that the three layers
// above need to agree on — the names users call it by, its type rule (the
// planner's binding), its CPU kernel (Compile) and its device code generator
// (arrowgpu's fused kernels). The model is arrow-go's compute registry (a
// function by name with kernels per signature) and DataFusion's ScalarUDF
// (return type, coercion and simplification beside the implementation):
// one value per function, looked up by name, so that a new function is one
// file and the planner, the CPU and the GPU cannot disagree on it.
//
// Operators (arithmetic, comparisons, logic, IS NULL, LIKE, IN, CASE, CAST,
// key casts) are not in the registry: their type rules are the language's
// (implicit casts, decimal result types) and are shared by many syntaxes,
// their kernels are specialised per type pair, and each has its own device
// lowering; they stay in compile.go's and arrowgpu's operator switches.

// Variadic as a Function's MaxArgs: any number of arguments.
const Variadic = 1 << 20

// Function is one scalar SQL function.
type Function struct {
	// Name is the function's name in the IR (Call.Fn); "" for a function
	// that only rewrites into others at binding (nullif, if).
	Name string
	// SQL lists the names users call it by (aliases included); none for a
	// function only the planner emits (date_add_months, the bit operators).
	SQL []string
	// MinArgs and MaxArgs bound its number of arguments (Variadic: any).
	MinArgs, MaxArgs int
	// Bind is the type rule: given the bound arguments, it returns the
	// typed expression the call becomes, with the argument casts it needs
	// made explicit (b.Cast) — usually b.Call(Name, args, resultType), but
	// it may return an argument (round of an integer) or a rewrite into
	// other functions (nullif → case). name is the SQL name used.
	Bind func(b Binder, name string, args []Operand) (Operand, error)
	// CPU builds the vectorised kernel of a Call of this function over its
	// compiled arguments, whose types are those Bind chose.
	CPU func(call *Call, args []node) (node, error)
	// GPU generates the device code of a Call; nil where the device cannot
	// run it, and then placement leaves the expression to the CPU.
	GPU func(g DeviceGen, call *Call) (DevValue, error)
	// Fold, where set, computes a call over non-NULL constants at planning
	// time (ok false leaves it to run time, which reports any error).
	Fold func(call *Call, args []any) (v any, ok bool)
	// NullPropagating: any NULL argument makes the result NULL, so that
	// the planner folds such a call to NULL.
	NullPropagating bool
	// Volatile: every row gets a value of its own (rand, uuid), so that a
	// call is never folded to a constant, even one without arguments.
	Volatile bool
	// Doc is one line for the function catalogue: arguments → result.
	Doc string
}

var (
	byName = map[string]*Function{} // IR name → function
	bySQL  = map[string]*Function{} // SQL name → function
)

// Register adds f to the registry; a name registered twice panics at init,
// so that two files cannot silently define one function.
func Register(f *Function) {
	if f.Bind == nil && len(f.SQL) > 0 {
		panic("expr.Register: function " + f.label() + " has SQL names but no type rule")
	}
	if f.Name != "" {
		if _, dup := byName[f.Name]; dup || isOperator(f.Name) {
			panic("expr.Register: function " + f.Name + " registered twice")
		}
		if f.CPU == nil {
			panic("expr.Register: function " + f.Name + " has no CPU kernel")
		}
		byName[f.Name] = f
		Functions = append(Functions, f.Name)
	}
	for _, s := range f.SQL {
		if _, dup := bySQL[s]; dup {
			panic("expr.Register: SQL name " + s + " registered twice")
		}
		bySQL[s] = f
	}
}

func (f *Function) label() string {
	if f.Name != "" {
		return f.Name
	}
	return fmt.Sprint(f.SQL)
}

// Lookup is the function named name in the IR (Call.Fn), nil for an
// operator or an unknown name.
func Lookup(name string) *Function { return byName[name] }

// LookupSQL is the function a query calls by name (lower case).
func LookupSQL(name string) *Function { return bySQL[name] }

// CheckArity is the binding error for a call of f by name with n
// arguments, nil when n is within f's bounds.
func (f *Function) CheckArity(name string, n int) error {
	if n < f.MinArgs || n > f.MaxArgs {
		return errs.NewNear(errs.Binding, name, "function %s takes %d to %d arguments, got %d", name, f.MinArgs, f.MaxArgs, n)
	}
	return nil
}

// Operand is a bound argument as the planner holds it; the registry reads
// only its type and hands it back to the Binder.
type Operand interface {
	Type() arrow.DataType
}

// Binder is what a type rule builds with; the planner implements it over
// its logical expressions.
type Binder interface {
	// Cast converts o to t: o itself when the types are equal, a folded
	// constant where that is exact, else a cast call.
	Cast(o Operand, t arrow.DataType) (Operand, error)
	// Constant is o's value when o is a constant (nil value: NULL).
	Constant(o Operand) (v any, ok bool)
	// Literal is the constant v of type t.
	Literal(v any, t arrow.DataType) Operand
	// Call is the IR call fn(args) with result type t, taken as given.
	Call(fn string, args []Operand, t arrow.DataType) Operand
	// Op binds an operator by its own type rule: "eq" (and the other
	// comparisons), "add" (and the other arithmetic), "neg", "and" and
	// "or" (of BOOLEANs), "case" (cond, value, …, else), and
	// "date_add_days" (date arithmetic as INTERVAL n DAY does it).
	Op(name string, args ...Operand) (Operand, error)
	// Unify casts every operand to the type they meet in (as CASE
	// branches), what naming the construct in an error.
	Unify(what string, args []Operand) (arrow.DataType, []Operand, error)
	// Truth is o as a condition (MySQL: a number is true when non-zero),
	// clause naming the construct in an error.
	Truth(o Operand, clause string) (Operand, error)
}

// DevValue is a value in generated device code: C expressions (usually
// variable names) for the value and its NULL flag.
type DevValue struct {
	Val, Null string
	Type      arrow.DataType
	// Strings: Val points at the bytes and Len is their count (a column's
	// row); a constant string has Lit instead.
	Len string
	Lit []byte
}

// DeviceGen is what a device code generator writes with; arrowgpu's fused
// kernel generator implements it. Generated code follows the CPU kernel's
// semantics exactly; an operation that can fail sets *err to its Site
// number only for rows that are present and not NULL.
type DeviceGen interface {
	// Args generates every argument of call, in order.
	Args(call *Call) ([]DevValue, error)
	// Value generates one expression (for arguments evaluated lazily,
	// inside a branch).
	Value(e Expr) (DevValue, error)
	// Convert casts v to t as the CPU's cast does; e names it in errors.
	Convert(e Expr, v DevValue, t arrow.DataType) (DevValue, error)
	// AsDouble is v (Int64, Decimal or Float64) as a C double, converted
	// as the CPU converts.
	AsDouble(v DevValue) (string, error)
	// Tmp declares a fresh variable (value and NULL flag) of type t.
	Tmp(t arrow.DataType) (DevValue, error)
	// Fresh is a fresh variable name for code that declares its own.
	Fresh() string
	// Line writes one line of code at the current indentation.
	Line(format string, args ...any)
	// Indent changes the indentation by delta levels.
	Indent(delta int)
	// Site registers e as an operation that can fail; its number is what
	// the code writes to *err.
	Site(e Expr) int
	// Unsupported is the error that leaves the expression to the CPU.
	Unsupported(what string) error
}

// Helpers of the type rules.

func isType(t arrow.DataType, id arrow.Type) bool { return t.ID() == id }

func isIntType(t arrow.DataType) bool  { return t.ID() == arrow.INT64 }
func isNullType(t arrow.DataType) bool { return t.ID() == arrow.NULL }

// isNumberType: Int64, Decimal or Float64 (not the NULL type).
func isNumberType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT64, arrow.FLOAT64, arrow.DECIMAL64, arrow.DECIMAL128:
		return true
	}
	return false
}

// DecimalPS is a decimal type's precision and scale; Int64 counts as
// DECIMAL(19,0), the digits of its range.
func DecimalPS(t arrow.DataType) (p, s int32) {
	switch d := t.(type) {
	case *arrow.Decimal64Type:
		return d.Precision, d.Scale
	case *arrow.Decimal128Type:
		return d.Precision, d.Scale
	}
	return 19, 0
}

// TypeName is t as SQL users know it, for error messages.
func TypeName(t arrow.DataType) string {
	if IsNested(t) {
		return nestedTypeName(t)
	}
	switch t.ID() {
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.INT64:
		return "BIGINT"
	case arrow.FLOAT64:
		return "DOUBLE"
	case arrow.DECIMAL64, arrow.DECIMAL128:
		p, s := DecimalPS(t)
		return fmt.Sprintf("DECIMAL(%d,%d)", p, s)
	case arrow.DATE32:
		return "DATE"
	case arrow.STRING:
		return "VARCHAR"
	case arrow.NULL:
		return "NULL"
	case arrow.TIMESTAMP:
		if IsTZ(t) {
			return "TIMESTAMP WITH TIME ZONE"
		}
		return "TIMESTAMP"
	case arrow.TIME64:
		return "TIME"
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return "INTERVAL"
	}
	return t.String()
}

// castAll casts every operand to t.
func castAll(b Binder, args []Operand, t arrow.DataType) ([]Operand, error) {
	out := make([]Operand, len(args))
	for i, a := range args {
		var err error
		if out[i], err = b.Cast(a, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unary is the type rule of a function of one argument cast to arg,
// returning result.
func unary(fn string, arg, result arrow.DataType) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, _ string, args []Operand) (Operand, error) {
		a, err := b.Cast(args[0], arg)
		if err != nil {
			return nil, err
		}
		return b.Call(fn, []Operand{a}, result), nil
	}
}

// bindFloats is the type rule of a function of numbers computed in DOUBLE:
// every argument (a number or NULL) cast to DOUBLE, a DOUBLE result.
func bindFloats(fn string) func(Binder, string, []Operand) (Operand, error) {
	return bindFloatsTo(fn, Float64)
}

// bindFloatsTo is bindFloats with a result of type result.
func bindFloatsTo(fn string, result arrow.DataType) func(Binder, string, []Operand) (Operand, error) {
	return func(b Binder, name string, args []Operand) (Operand, error) {
		for _, a := range args {
			if !isNumberType(a.Type()) && !isNullType(a.Type()) {
				return nil, errs.New(errs.Binding, "%s of %s: a number is needed", name, TypeName(a.Type()))
			}
		}
		out, err := castAll(b, args, Float64)
		if err != nil {
			return nil, err
		}
		return b.Call(fn, out, result), nil
	}
}

// bindSig is the type rule of a function whose arguments are cast to the
// types sig spells, one letter each ('s' VARCHAR, 'i' BIGINT, 'f' DOUBLE,
// 'd' DATE; the last letter repeats for further arguments), returning
// result.
func bindSig(fn, sig string, result arrow.DataType) func(Binder, string, []Operand) (Operand, error) {
	types := map[byte]arrow.DataType{'s': String, 'i': Int64, 'f': Float64, 'd': Date}
	return func(b Binder, name string, args []Operand) (Operand, error) {
		out := make([]Operand, len(args))
		for i, a := range args {
			t := types[sig[min(i, len(sig)-1)]]
			if IsNested(a.Type()) {
				return nil, errs.New(errs.Binding, "%s of %s: a %s is needed", name, TypeName(a.Type()), TypeName(t))
			}
			var err error
			if out[i], err = b.Cast(a, t); err != nil {
				return nil, err
			}
		}
		return b.Call(fn, out, result), nil
	}
}
