package argue

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDirectional checks DC and DS under admissible, complete and
// preferred semantics, decided among the query's ancestors (core.upTo),
// against the definitions, with their certificates, on chains of small
// strongly connected parts with attacks forward only, where the
// ancestors are usually a part of the framework.
func TestDirectional(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	ctx := context.Background()
	restricted := 0
	for trial := range 300 {
		n := 2 + rng.IntN(11)
		f := NewNumbered(n)
		size := 1 + rng.IntN(4)
		for s := 0; s < n; s += size {
			e := min(s+size, n)
			for a := s; a < e; a++ {
				if e-s > 1 || rng.IntN(3) == 0 {
					_ = f.AddAttack(a, s+(a-s+1)%(e-s)) // a cycle (a self-attack when alone)
				}
				if rng.IntN(4) == 0 {
					_ = f.AddAttack(a, s+rng.IntN(e-s))
				}
				if e < n && rng.IntN(3) == 0 {
					_ = f.AddAttack(a, e+rng.IntN(n-e)) // forward only
				}
			}
		}
		c := f.core(true)
		for a := range n {
			if i := c.local(a); i >= 0 {
				if sub, _ := c.upTo(i); sub.n < c.n {
					restricted++
				}
			}
		}
		for _, sem := range []Semantics{Admissible, Complete, Preferred} {
			want := bruteForce(f, sem)
			isExt := func(e Extension) bool {
				e = slices.Clone(e)
				slices.Sort(e)
				return slices.ContainsFunc(want, func(w Extension) bool { return slices.Equal(w, e) })
			}
			for a := range n {
				wc, ws := false, true
				for _, e := range want {
					wc = wc || e.Contains(a)
					ws = ws && e.Contains(a)
				}
				cred, w, err := f.CredulousWitness(ctx, sem, a)
				if err != nil {
					t.Fatal(err)
				}
				if cred != wc || cred && (!w.Contains(a) || !isExt(w)) {
					t.Fatalf("trial %d, DC-%s %d (extensions %v): %v with %v, want %v", trial, sem, a, want, cred, w, wc)
				}
				skep, w, err := f.SkepticalWitness(ctx, sem, a)
				if err != nil {
					t.Fatal(err)
				}
				if skep != ws || !skep && w != nil && (w.Contains(a) || !isExt(w)) {
					t.Fatalf("trial %d, DS-%s %d (extensions %v): %v with %v, want %v", trial, sem, a, want, skep, w, ws)
				}
				if !skep && sem == Preferred && w == nil {
					t.Fatalf("trial %d, DS-PR %d: NO without a certificate", trial, a)
				}
			}
		}
	}
	if restricted < 300 {
		t.Errorf("the ancestors were a part of the core for only %d queries: the restriction is hardly exercised", restricted)
	}
}
