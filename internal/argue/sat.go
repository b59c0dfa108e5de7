package argue

import (
	"context"
	"fmt"
)

// satSolver is the solver interface the semantics code uses: build from
// clauses, solve under a context, read the model, add clauses and solve
// again (incrementally, keeping learned clauses).
type satSolver struct{ s *cdcl }

func newSAT(clauses [][]int, nVars int) *satSolver {
	return &satSolver{s: newCDCL(clauses, nVars)}
}

// solve reports whether the clauses added so far are satisfiable. If ctx
// ends first the error wraps ErrCutOff and ctx.Err(); the solver stays
// usable.
func (s *satSolver) solve(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	return s.s.solve(ctx)
}

// model returns the truth value of variables 1..nVars at index v-1 after a
// successful solve.
func (s *satSolver) model() []bool { return s.s.model }

// add appends a clause for the next solve call.
func (s *satSolver) add(clause []int) { s.s.addClause(clause) }

// solveOnce builds a fresh solver for base plus extra clauses and returns a
// model if one exists. Fresh solvers keep temporary constraints (used by the
// maximisation loops) from leaking into later calls.
func solveOnce(ctx context.Context, nVars int, base [][]int, extra ...[]int) ([]bool, bool, error) {
	for _, c := range extra {
		if len(c) == 0 {
			return nil, false, nil // an empty clause is unsatisfiable
		}
	}
	clauses := make([][]int, 0, len(base)+len(extra))
	clauses = append(clauses, base...)
	clauses = append(clauses, extra...)
	s := newSAT(clauses, nVars)
	ok, err := s.solve(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	return s.model(), true, nil
}
