package argue

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestReduceDB solves random 3-SAT instances near the satisfiability
// threshold with a first learned-clause bound small enough that the
// database is reduced during every search (later bounds follow the usual
// schedule), and checks every answer against a solver that never reduces:
// a model must satisfy the clauses, and both must agree on
// satisfiability.
func TestReduceDB(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for k := range 40 {
		const nVars, nClauses = 80, 340
		var cl [][]int
		for range nClauses {
			c := make([]int, 3)
			for j := range c {
				c[j] = 1 + r.IntN(nVars)
				if r.IntN(2) == 0 {
					c[j] = -c[j]
				}
			}
			cl = append(cl, c)
		}
		small := newCDCL(cl, nVars)
		small.maxLearnt = 8
		big := newCDCL(cl, nVars)
		big.maxLearnt = 1 << 30
		ok1, err1 := small.solve(context.Background())
		ok2, err2 := big.solve(context.Background())
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if ok1 != ok2 {
			t.Fatalf("instance %d: satisfiable %v with reductions, %v without", k, ok1, ok2)
		}
		if ok1 {
			for _, c := range cl {
				sat := false
				for _, l := range c {
					if small.model[abs(l)-1] == (l > 0) {
						sat = true
					}
				}
				if !sat {
					t.Fatalf("instance %d: model violates %v", k, c)
				}
			}
		}
		if small.nReduce == 0 {
			t.Fatalf("instance %d: no reduction happened: the test does not exercise reduceDB", k)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
