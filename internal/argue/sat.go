package argue

import (
	"context"
	"fmt"

	"github.com/crillab/gophersat/solver"
)

// satSolver wraps a gophersat solver so that a search can be cut off by a
// context.
//
// gophersat has no cancellation hook, so when the context can end we switch
// on its proof-certificate stream: the solver sends one message per learned
// clause on a channel we drain. Once the context ends we stop draining, the
// solver goroutine blocks on its next send (after at most one more conflict)
// and stops using CPU. The blocked goroutine and the solver's memory are
// then abandoned until the process exits: the price of bounding a search in
// a solver that cannot be interrupted. A context that can never end costs
// nothing.
type satSolver struct {
	s    *solver.Solver
	dead bool // a cut-off search left a goroutine inside s
}

func newSAT(clauses [][]int, nVars int) *satSolver {
	return &satSolver{s: solver.New(solver.ParseSliceNb(clauses, nVars))}
}

// solve reports whether the clauses added so far are satisfiable.
func (s *satSolver) solve(ctx context.Context) (bool, error) {
	if s.dead {
		return false, fmt.Errorf("%w: solver was abandoned by an earlier cut-off", ErrCutOff)
	}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("%w: %w", ErrCutOff, err)
	}
	if ctx.Done() == nil {
		return s.s.Solve() == solver.Sat, nil
	}
	certs := make(chan string, 64)
	s.s.Certified = true
	s.s.CertChan = certs
	done := make(chan solver.Status, 1)
	go func() { done <- s.s.Solve() }()
	for {
		select {
		case <-certs:
		case st := <-done:
			return st == solver.Sat, nil
		case <-ctx.Done():
			s.dead = true
			return false, fmt.Errorf("%w: SAT search: %w", ErrCutOff, ctx.Err())
		}
	}
}

// model returns the truth value of variables 1..nVars at index v-1.
func (s *satSolver) model() []bool { return s.s.Model() }

// add appends a clause for the next solve call.
func (s *satSolver) add(clause []int) {
	lits := make([]solver.Lit, len(clause))
	for i, v := range clause {
		lits[i] = solver.IntToLit(int32(v))
	}
	s.s.AppendClause(solver.NewClause(lits))
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
