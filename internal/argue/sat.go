package argue

import (
	"context"
	"fmt"
)

// satSolver is the solver interface the semantics code uses: build from
// clauses, solve under a context and assumptions, read the model, add
// clauses and solve again (incrementally, keeping learned clauses), and
// guard temporary clauses with activation literals.
type satSolver struct {
	s       *cdcl
	retired int // activation literals retired since the last clean-up
}

func newSAT(clauses [][]int, nVars int) *satSolver {
	return &satSolver{s: newCDCL(clauses, nVars)}
}

// solve reports whether the clauses added so far are satisfiable together
// with the assumptions (DIMACS literals). If ctx ends first the error wraps
// ErrCutOff and ctx.Err(); the solver stays usable.
func (s *satSolver) solve(ctx context.Context, assumptions ...int) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	return s.s.solve(ctx, assumptions...)
}

// model returns the truth value of variables 1..nVars at index v-1 after a
// successful solve.
func (s *satSolver) model() []bool { return s.s.model }

// add appends a clause for the next solve call.
func (s *satSolver) add(clause []int) { s.s.addClause(clause) }

// addTemp adds clause guarded by a fresh activation literal t, which is
// returned: the clause holds in solves that assume t, until retire(t).
func (s *satSolver) addTemp(clause []int) int {
	t := s.s.newVar()
	s.s.addClause(append([]int{-t}, clause...))
	return t
}

// retireEvery is how many retired activation literals trigger a clean-up
// of the clauses they guarded: often enough that dead clauses do not pile
// up in the watch lists, rarely enough that the O(size) pass is amortised.
const retireEvery = 16

// retire disables the clause guarded by t for good.
func (s *satSolver) retire(t int) {
	s.s.addClause([]int{-t})
	if s.retired++; s.retired >= retireEvery {
		s.s.removeSatisfied()
		s.retired = 0
	}
}

// preferIn makes the solver try in(i) = true first for the given
// variables: the maximisation loops then start from large sets and need
// fewer growth steps.
func (s *satSolver) preferTrue(vars ...int) {
	for _, v := range vars {
		s.s.setPhase(v, true)
	}
}

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
