package argue

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRangeSearches checks each of the two searches behind DC and DS
// under semi-stable and stage semantics on its own, against the
// definitions: the portfolio returns whichever finishes first, so a wrong
// answer from the other would go unseen by the acceptance tests. Each runs
// alone and in turns of the smallest slice of work (every SAT call spends
// its slice and is resumed), and a model it finds must be an extension with
// the literal asked for.
func TestRangeSearches(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	ctx := context.Background()
	type search func(context.Context, *core, [][]int, int, *turn) (bool, []int, error)
	searches := map[string]search{
		"byMaximalRanges": func(ctx context.Context, c *core, cl [][]int, lit int, t *turn) (bool, []int, error) {
			return c.byMaximalRanges(ctx, cl, lit, t)
		},
		"byQueryRanges": func(ctx context.Context, c *core, cl [][]int, lit int, t *turn) (bool, []int, error) {
			return c.byQueryRanges(ctx, cl, lit, t)
		},
	}
	sliced := 0
	for trial := range 300 {
		n := 1 + rng.IntN(10)
		p := 0.05 + rng.Float64()*0.35
		f := NewNumbered(n)
		for a := range n {
			if rng.IntN(3) == 0 {
				_ = f.AddAttack(a, a)
			}
			for b := range n {
				if a != b && rng.Float64() < p {
					_ = f.AddAttack(a, b)
				}
			}
		}
		for _, sem := range []Semantics{SemiStable, Stage} {
			want := bruteForce(f, sem)
			c, cl := f.rangeEncoding(sem)
			for i, a := range c.glob {
				for _, lit := range []int{c.in(i), -c.in(i)} {
					has := func(e Extension) bool { return e.Contains(a) == (lit > 0) }
					exists := slices.ContainsFunc(want, has)
					for name, search := range searches {
						for _, inTurns := range []bool{false, true} {
							var tn *turn
							yields := 0
							if inTurns {
								tn = &turn{slice: 1, yield: func(int) bool { yields++; return true }}
							}
							found, s, err := search(ctx, c, cl, lit, tn)
							if err != nil {
								t.Fatalf("trial %d, %s, %s: %v", trial, sem, name, err)
							}
							if found != exists {
								t.Fatalf("trial %d, %s, %s (turns %v), arg %d of %d, lit %d (extensions %v): found %v, want %v",
									trial, sem, name, inTurns, a, n, lit, want, found, exists)
							}
							if found {
								e := c.ext(s)
								slices.Sort(e)
								if !has(e) || !slices.ContainsFunc(want, func(w Extension) bool { return slices.Equal(w, e) }) {
									t.Fatalf("trial %d, %s, %s, lit %d: model %v is not an extension with the literal (extensions %v)", trial, sem, name, lit, e, want)
								}
							}
							if inTurns && yields > 1 {
								sliced++
							}
						}
					}
				}
			}
		}
	}
	if sliced < 100 {
		t.Errorf("only %d searches yielded more than once in turns of the smallest slice: slicing is hardly exercised", sliced)
	}
}

// TestPortfolio checks the turns: the search that has done the least work
// goes next (ties in order), the first to finish answers, and the others
// are stopped, seeing errTurnStopped from their pending SAT call.
func TestPortfolio(t *testing.T) {
	ctx := context.Background()
	sat := func() *satSolver { return newSAT([][]int{{1, 2}, {-1, 2}}, 2) }
	var order []string
	var stopped error
	quick := func(tn *turn) (bool, []int, error) {
		sv := sat()
		for range 3 {
			order = append(order, "quick")
			if _, err := tn.solve(ctx, sv); err != nil {
				return false, nil, err
			}
		}
		return true, []int{7}, nil
	}
	endless := func(tn *turn) (bool, []int, error) {
		sv := sat()
		for {
			order = append(order, "endless")
			if _, err := tn.solve(ctx, sv); err != nil {
				stopped = err
				return false, nil, err
			}
		}
	}
	found, s, err := portfolio(endless, quick)
	if err != nil || !found || !slices.Equal(s, []int{7}) {
		t.Fatalf("portfolio = %v, %v, %v; want the quick search's answer", found, s, err)
	}
	if want := []string{"endless", "quick", "endless", "quick", "endless", "quick", "endless"}; !slices.Equal(order, want) {
		t.Errorf("turns %v, want %v", order, want)
	}
	if !errors.Is(stopped, errTurnStopped) {
		t.Errorf("the endless search ended with %v, want errTurnStopped", stopped)
	}

	// An error (here a cut-off) answers too.
	cut, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = portfolio(func(tn *turn) (bool, []int, error) {
		_, err := tn.solve(cut, sat())
		return false, nil, err
	})
	if !errors.Is(err, ErrCutOff) {
		t.Errorf("cut-off search: error %v, want ErrCutOff", err)
	}
}

// TestQueryRangesGrowth: byQueryRanges grows a range among the models with
// the literal, and with phase saving alone each step took in only what the
// new clause forced. On 200 disjoint mutual attacks a↔b that is one pair a
// step, 200 SAT calls to reach the stable range (on a 2,722-argument
// framework, 850 steps and no DC-STG answer in 15 s). Trying IN first takes
// in every pair that still fits at once.
func TestQueryRangesGrowth(t *testing.T) {
	const pairs = 200
	f := NewNumbered(2 * pairs)
	for j := range pairs {
		_ = f.AddAttack(2*j, 2*j+1)
		_ = f.AddAttack(2*j+1, 2*j)
	}
	c := f.stageCore()
	i := c.local(0)
	if i < 0 {
		t.Fatal("argument 0 decided without search: the framework does not test it")
	}
	rs := c.newRangeSearch(c.conflictFree())
	found, s, err := rs.byQueryRanges(context.Background(), c.in(i))
	if err != nil {
		t.Fatal(err)
	}
	e := c.ext(s)
	if !found || !e.Contains(0) || !f.IsStable(e) {
		t.Fatalf("DC-STG 0: %v with %v, want YES with a stable extension containing 0", found, e)
	}
	if rs.calls > 10 {
		t.Errorf("%d SAT calls to grow the range over %d independent pairs: the growth steps take in one pair at a time", rs.calls, pairs)
	}
}
