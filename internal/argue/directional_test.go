package argue

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
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

// TestSkepticalPreferredManyAdmissible: DS-PR of an argument i that every
// preferred extension contains because each of k mutual pairs x↔y
// attacks i's only attacker b from both sides. Every choice of one side per
// pair is a maximal admissible set without i (2^k of them, each refuted
// one by one when the search went over admissible sets), and the only
// maximal complete extension without i is the empty one (a complete set
// with either side of a pair defends i). With k = 40 the search must answer
// from the complete extensions; over admissible sets it would not finish.
func TestSkepticalPreferredManyAdmissible(t *testing.T) {
	const k = 40
	f := NewNumbered(2*k + 2)
	i, b := 2*k, 2*k+1
	for j := range k {
		x, y := 2*j, 2*j+1
		_ = f.AddAttack(x, y)
		_ = f.AddAttack(y, x)
		_ = f.AddAttack(x, b)
		_ = f.AddAttack(y, b)
	}
	_ = f.AddAttack(b, i)
	c := f.core(true)
	if c.local(i) < 0 {
		t.Fatal("i was decided by the grounded labelling: the framework does not test the search")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	yes, without, err := c.skepticalPreferred(ctx, c.local(i), true)
	if err != nil {
		t.Fatalf("DS-PR %d: %v", i, err)
	}
	if !yes || without != nil {
		t.Fatalf("DS-PR %d: NO with %v, want YES (every preferred extension takes one side of each pair, so defends it)", i, c.ext(without))
	}
	// The same through the public entry, which may decide by parts first.
	if yes, err := f.Skeptical(ctx, Preferred, i); err != nil || !yes {
		t.Fatalf("Skeptical(PR, %d) = %v, %v; want true", i, yes, err)
	}
}
