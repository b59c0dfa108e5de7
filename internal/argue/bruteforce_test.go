package argue

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteForce computes extensions straight from the definitions by trying
// all 2^n sets, as an oracle independent of the SAT encodings.
func bruteForce(f *Framework, sem Semantics) []Extension {
	n := f.Len()
	var sets []Extension
	for mask := 0; mask < 1<<n; mask++ {
		var e Extension
		for a := range n {
			if mask&(1<<a) != 0 {
				e = append(e, a)
			}
		}
		if e == nil {
			e = Extension{}
		}
		sets = append(sets, e)
	}
	subset := func(a, b Extension) bool {
		for _, x := range a {
			if !b.Contains(x) {
				return false
			}
		}
		return true
	}
	rangeOf := func(e Extension) Extension {
		r := slices.Clone(e)
		for _, a := range e {
			r = append(r, f.Attacks(a)...)
		}
		slices.Sort(r)
		return slices.Compact(r)
	}
	filter := func(ok func(Extension) bool) []Extension {
		var out []Extension
		for _, e := range sets {
			if ok(e) {
				out = append(out, e)
			}
		}
		return out
	}
	maximal := func(cands []Extension, key func(Extension) Extension) []Extension {
		var out []Extension
		for _, e := range cands {
			dominated := false
			for _, o := range cands {
				ke, ko := key(e), key(o)
				if len(ko) > len(ke) && subset(ke, ko) {
					dominated = true
					break
				}
			}
			if !dominated {
				out = append(out, e)
			}
		}
		return out
	}
	id := func(e Extension) Extension { return e }
	co := filter(f.IsComplete)
	switch sem {
	case Admissible:
		return filter(f.IsAdmissible)
	case Complete:
		return co
	case Stable:
		return filter(f.IsStable)
	case Preferred:
		return maximal(co, id)
	case SemiStable:
		return maximal(co, rangeOf)
	case Stage:
		return maximal(filter(f.IsConflictFree), rangeOf)
	case Ideal:
		pr := maximal(co, id)
		var best Extension
		for _, e := range filter(f.IsAdmissible) {
			inAll := true
			for _, p := range pr {
				inAll = inAll && subset(e, p)
			}
			if inAll && len(e) >= len(best) {
				best = e
			}
		}
		return []Extension{best}
	}
	return nil
}

// TestAgainstBruteForce compares every semantics with the definitions on
// random small frameworks (with self-attacks and isolated arguments).
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	ctx := context.Background()
	for trial := range trials {
		n := 1 + rng.IntN(9)
		p := 0.1 + rng.Float64()*0.3
		f := NewNumbered(n)
		for a := range n {
			for b := range n {
				if rng.Float64() < p {
					_ = f.AddAttack(a, b)
				}
			}
		}
		for _, sem := range []Semantics{Admissible, Complete, Stable, Preferred, SemiStable, Stage, Ideal} {
			got, err := f.Extensions(ctx, sem)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(f, sem)
			slices.SortFunc(want, slices.Compare)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("trial %d, %s on %d args: got %v, want %v", trial, sem, n, got, want)
			}
			for a := range n {
				cred, err1 := f.Credulous(ctx, sem, a)
				skep, err2 := f.Skeptical(ctx, sem, a)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				wc, ws := false, true
				for _, e := range want {
					wc = wc || e.Contains(a)
					ws = ws && e.Contains(a)
				}
				if cred != wc || skep != ws {
					t.Fatalf("trial %d, %s, arg %d: DC=%v DS=%v, want %v %v", trial, sem, a, cred, skep, wc, ws)
				}
			}
		}
		// Grounded is the intersection of all complete extensions.
		g := f.Grounded()
		for _, e := range bruteForce(f, Complete) {
			for _, x := range g {
				if !e.Contains(x) {
					t.Fatalf("trial %d: grounded %v not in complete %v", trial, g, e)
				}
			}
		}
		if !f.IsComplete(g) {
			t.Fatalf("trial %d: grounded %v not complete", trial, g)
		}
	}
}

// TestRangeMaximalAcceptance checks DC and DS under semi-stable and stage
// semantics against the definitions on small frameworks where half the
// arguments attack themselves, so that most have no stable extension and
// the answers come from the range-maximal search (rangeMaximalAccepts),
// not from a stable extension.
func TestRangeMaximalAcceptance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	ctx := context.Background()
	noStable := 0
	for trial := range 400 {
		n := 1 + rng.IntN(10)
		p := 0.05 + rng.Float64()*0.3
		f := NewNumbered(n)
		for a := range n {
			if rng.IntN(2) == 0 {
				_ = f.AddAttack(a, a)
			}
			for b := range n {
				if a != b && rng.Float64() < p {
					_ = f.AddAttack(a, b)
				}
			}
		}
		if len(bruteForce(f, Stable)) == 0 {
			noStable++
		}
		for _, sem := range []Semantics{SemiStable, Stage} {
			want := bruteForce(f, sem)
			for a := range n {
				wc, ws := false, true
				for _, e := range want {
					wc = wc || e.Contains(a)
					ws = ws && e.Contains(a)
				}
				cred, err1 := f.Credulous(ctx, sem, a)
				skep, err2 := f.Skeptical(ctx, sem, a)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if cred != wc || skep != ws {
					t.Fatalf("trial %d, %s, arg %d of %d (extensions %v): DC=%v DS=%v, want %v %v", trial, sem, a, n, want, cred, skep, wc, ws)
				}
			}
		}
	}
	if noStable < 100 {
		t.Errorf("only %d of 400 frameworks lack a stable extension: the range-maximal search is hardly exercised", noStable)
	}
}

// TestStageCore checks stage semantics against the definitions on
// frameworks with arguments in no attack and arguments attacking only
// themselves, which stageCore decides without search.
func TestStageCore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	ctx := context.Background()
	for trial := range 300 {
		n := 2 + rng.IntN(9)
		f := NewNumbered(n)
		for a := range n {
			switch rng.IntN(4) {
			case 0: // in no attack
			case 1:
				_ = f.AddAttack(a, a) // only on itself
			default:
				for b := range n {
					if rng.Float64() < 0.3 {
						_ = f.AddAttack(a, b)
					}
				}
			}
		}
		want := bruteForce(f, Stage)
		slices.SortFunc(want, slices.Compare)
		got, err := f.Extensions(ctx, Stage)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("trial %d: stage extensions %v, want %v", trial, got, want)
		}
		for a := range n {
			wc, ws := false, true
			for _, e := range want {
				wc = wc || e.Contains(a)
				ws = ws && e.Contains(a)
			}
			cred, err1 := f.Credulous(ctx, Stage, a)
			skep, err2 := f.Skeptical(ctx, Stage, a)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if cred != wc || skep != ws {
				t.Fatalf("trial %d, arg %d (extensions %v): DC=%v DS=%v, want %v %v", trial, a, want, cred, skep, wc, ws)
			}
		}
	}
}
