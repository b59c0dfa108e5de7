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
		small.reduceGap, small.nextReduce = 8, 8
		big := newCDCL(cl, nVars)
		big.nextReduce = 1 << 60
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

// randomCNF returns nClauses random clauses of width k over nVars.
func randomCNF(r *rand.Rand, nVars, nClauses, k int) [][]int {
	cl := make([][]int, nClauses)
	for i := range cl {
		c := make([]int, k)
		for j := range c {
			c[j] = 1 + r.IntN(nVars)
			if r.IntN(2) == 0 {
				c[j] = -c[j]
			}
		}
		cl[i] = c
	}
	return cl
}

// satisfies reports whether model (indexed by variable − 1) makes every
// clause true.
func satisfies(model []bool, cl [][]int) bool {
	for _, c := range cl {
		sat := false
		for _, l := range c {
			if model[abs(l)-1] == (l > 0) {
				sat = true
				break
			}
		}
		if !sat {
			return false
		}
	}
	return true
}

// bruteSAT reports whether some assignment of nVars (≤ 20) variables
// satisfies cl.
func bruteSAT(cl [][]int, nVars int) bool {
	m := make([]bool, nVars)
	for bits := range 1 << nVars {
		for v := range m {
			m[v] = bits>>v&1 == 1
		}
		if satisfies(m, cl) {
			return true
		}
	}
	return false
}

// TestIncrementalAgainstBruteForce drives one solver per instance through
// a sequence of solves as the semantics code does (assumptions, clauses
// added between solves, temporary clauses retired again) and checks every
// answer against brute force over the clauses in force: models must
// satisfy them and the assumptions, and satisfiability must agree.
func TestIncrementalAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	for k := range 300 {
		nVars := 4 + r.IntN(11)
		base := randomCNF(r, nVars, r.IntN(5*nVars), 1+r.IntN(3))
		sv := newSAT(base, nVars)
		live := append([][]int(nil), base...)
		for step := range 8 {
			var assume []int
			var temp []int
			for range r.IntN(4) {
				assume = append(assume, randomCNF(r, nVars, 1, 1)[0][0])
			}
			var t0 int
			switch r.IntN(3) {
			case 0:
				c := randomCNF(r, nVars, 1, 1+r.IntN(3))[0]
				sv.add(c)
				live = append(live, c)
			case 1:
				temp = randomCNF(r, nVars, 1, 2)[0]
				t0 = sv.addTemp(temp)
				assume = append(assume, t0)
			}
			all := append([][]int(nil), live...)
			for _, a := range assume {
				if a != t0 {
					all = append(all, []int{a})
				}
			}
			if temp != nil {
				all = append(all, temp)
			}
			ok, err := sv.solve(context.Background(), assume...)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteSAT(all, nVars); ok != want {
				t.Fatalf("instance %d step %d: satisfiable %v, brute force says %v", k, step, ok, want)
			}
			if ok && !satisfies(sv.model(), all) {
				t.Fatalf("instance %d step %d: the model violates the clauses or assumptions", k, step)
			}
			if temp != nil {
				sv.retire(t0)
			}
		}
	}
}

// TestRestartsKeepAssumptions solves random 3-SAT instances near the
// threshold under assumptions, long enough for restarts and reductions
// to happen mid-search, and checks that models satisfy the assumptions
// and that every unsatisfiable answer is confirmed by a fresh solver
// given the assumptions as unit clauses (a different code path).
func TestRestartsKeepAssumptions(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	restarts, reductions := 0, 0
	for k := range 30 {
		const nVars = 150
		cl := randomCNF(r, nVars, 640, 3)
		s := newCDCL(cl, nVars)
		s.reduceGap, s.nextReduce = 100, 100
		for step := range 4 {
			var assume []int
			for range 1 + r.IntN(6) {
				assume = append(assume, randomCNF(r, nVars, 1, 1)[0][0])
			}
			ok, err := s.solve(context.Background(), assume...)
			if err != nil {
				t.Fatal(err)
			}
			units := append([][]int(nil), cl...)
			for _, a := range assume {
				units = append(units, []int{a})
			}
			if ok {
				if !satisfies(s.model, units) {
					t.Fatalf("instance %d step %d: the model violates the clauses or the assumptions %v", k, step, assume)
				}
				continue
			}
			fresh := newCDCL(units, nVars)
			if ok2, err := fresh.solve(context.Background()); err != nil || ok2 {
				t.Fatalf("instance %d step %d: unsatisfiable under %v, but a fresh solver with them as units says %v (%v)", k, step, assume, ok2, err)
			}
		}
		restarts += s.nRestarts
		reductions += s.nReduce
	}
	t.Logf("%d restarts, %d reductions", restarts, reductions)
	if restarts == 0 || reductions == 0 {
		t.Fatalf("%d restarts and %d reductions: the test does not exercise them", restarts, reductions)
	}
}
