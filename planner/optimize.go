package planner

import "gq/errs"

// Rule is one named optimiser rule: a function Plan → Plan.
type Rule struct {
	Name  string
	Apply func(Plan) (Plan, error)
}

// Rules are the optimiser's rules in the order Optimize applies them.
// Folding runs first so pushdown sees simple predicates; join ordering
// needs the join conditions pushdown has gathered; pruning runs last,
// when no rule will need a column again.
var Rules = []Rule{
	{"fold_constants", FoldConstants},
	{"simplify", Simplify},
	{"push_down_predicates", PushDownPredicates},
	{"order_joins", OrderJoins},
	{"reduce_aggregate_inputs", ReduceAggregateInputs},
	{"simplify", Simplify},
	{"prune_columns", PruneColumns},
	{"remove_identity_projects", RemoveIdentityProjects},
}

// Optimize applies Rules in order.
func Optimize(p Plan) (Plan, error) {
	if p == nil {
		return nil, errs.New(errs.Internal, "optimize: nil plan")
	}
	for _, r := range Rules {
		var err error
		if p, err = r.Apply(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}
