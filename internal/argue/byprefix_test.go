package argue

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// pairsFramework is n pairs of arguments attacking each other: 2^n stable
// extensions, 3^n complete ones.
func pairsFramework(n int) *Framework {
	f := NewNumbered(2 * n)
	for i := range n {
		f.AddAttack(2*i, 2*i+1)
		f.AddAttack(2*i+1, 2*i)
	}
	return f
}

// TestByPrefixFindsEachOnce: listing models by prefixes finds every IN
// set once, the same sets as the brute force, alone and after some were
// blocked (as enumModels switches to it).
func TestByPrefixFindsEachOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 300 {
		n := 1 + rng.IntN(10)
		f := NewNumbered(n)
		for range rng.IntN(3 * n) {
			f.AddAttack(rng.IntN(n), rng.IntN(n))
		}
		for _, sem := range []Semantics{Complete, Stable, Admissible} {
			c := f.core(sem != Admissible)
			cl, nVars := c.complete(), c.nVars()
			switch sem {
			case Stable:
				cl, nVars = c.stable(), c.n
			case Admissible:
				cl = c.admissible()
			}
			s := newSAT(cl, nVars)
			var got []Extension
			blocked := rng.IntN(3) // models blocked before the switch
			for range blocked {
				ok, err := s.solve(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if !ok || c.n == 0 {
					break
				}
				got = append(got, c.ext(c.inOf(s.model())))
				s.add(c.blockIn(c.inOf(s.model())))
			}
			if c.n > 0 || len(got) == 0 {
				err := c.byPrefix(context.Background(), s, func(m []bool) bool {
					got = append(got, c.ext(c.inOf(m)))
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			slices.SortFunc(got, slices.Compare)
			want := bruteForce(f, sem)
			slices.SortFunc(want, slices.Compare)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("trial %d, %s, %d blocked first: by prefixes %v, brute force %v", trial, sem, blocked, got, want)
			}
		}
	}
	// Past blockAtMost through the public methods.
	f := pairsFramework(8)
	for sem, want := range map[Semantics]int{Complete: 6561, Admissible: 6561, Stable: 256} {
		exts, err := f.Extensions(context.Background(), sem)
		if err != nil {
			t.Fatal(err)
		}
		if len(exts) != want || len(slices.CompactFunc(exts, slices.Equal)) != want {
			t.Errorf("%s on 8 pairs: %d extensions (distinct %d), want %d", sem, len(exts), len(slices.CompactFunc(exts, slices.Equal)), want)
		}
	}
}

// TestEnumerationMemoryBounded: past blockAtMost models the solver's
// clauses stop growing with the models found. Each blocking clause held
// the whole core (28 literals here): 12,288 more models took about
// 400,000 more words of clause arena; listing by prefixes adds none but
// what conflicts learn, which the solver's clause-database reduction bounds.
func TestEnumerationMemoryBounded(t *testing.T) {
	c := pairsFramework(14).core(true)
	s := newSAT(c.stable(), c.n)
	var found, atSwitch int
	err := c.enumOn(context.Background(), s, func([]bool) bool {
		if found++; found == blockAtMost+1 {
			atSwitch = len(s.s.arena)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if found != 1<<14 {
		t.Fatalf("%d stable extensions, want %d", found, 1<<14)
	}
	grew := len(s.s.arena) - atSwitch
	perClause := c.n + clauseHeader
	if limit := (found - blockAtMost) * perClause / 10; grew > limit {
		t.Errorf("the clause arena grew by %d words over the last %d models, want under %d (a tenth of a blocking clause each)", grew, found-blockAtMost, limit)
	}
}
