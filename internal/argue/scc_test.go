package argue

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// randomParts is a framework of n arguments in parts of 1–maxPart
// arguments, each a cycle (a self-attack, sometimes, when alone) with
// random attacks inside, and random attacks forward, mostly into the
// next few arguments, some to any later one: a DAG of strongly connected
// components whose interfaces are mostly narrow, sometimes not.
func randomParts(rng *rand.Rand, n, maxPart int) *Framework {
	f := NewNumbered(n)
	for s := 0; s < n; {
		e := min(s+1+rng.IntN(maxPart), n)
		for a := s; a < e; a++ {
			if e-s > 1 || rng.IntN(3) == 0 {
				_ = f.AddAttack(a, s+(a-s+1)%(e-s))
			}
			if rng.IntN(3) == 0 {
				_ = f.AddAttack(a, s+rng.IntN(e-s))
			}
			if e < n && rng.IntN(2) == 0 {
				nextEnd := min(e+maxPart, n)
				_ = f.AddAttack(a, e+rng.IntN(nextEnd-e)) // into the next part, mostly
			}
			if e < n && rng.IntN(8) == 0 {
				_ = f.AddAttack(a, e+rng.IntN(n-e)) // anywhere further on
			}
		}
		s = e
	}
	return f
}

// TestSCCs checks the components: each is strongly connected, distinct
// components are not (no path back), and every attack goes forward or
// stays inside.
func TestSCCs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 200 {
		f := randomParts(rng, 1+rng.IntN(30), 5)
		if trial%4 == 0 {
			f = NewNumbered(1 + rng.IntN(20))
			for range rng.IntN(40) {
				_ = f.AddAttack(rng.IntN(f.Len()), rng.IntN(f.Len()))
			}
		}
		c := f.core(false)
		comps, comp := c.sccs()
		reach := make([][]bool, c.n) // reach[i][j]: a path of attacks from j to i
		for i := range c.n {
			reach[i] = make([]bool, c.n)
			reach[i][i] = true
			stack := []int{i}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, j := range c.attackers[x] {
					if !reach[i][j] {
						reach[i][j] = true
						stack = append(stack, j)
					}
				}
			}
		}
		total := 0
		for p, args := range comps {
			total += len(args)
			for _, a := range args {
				if comp[a] != p {
					t.Fatalf("trial %d: argument %d listed in part %d, mapped to %d", trial, a, p, comp[a])
				}
			}
		}
		if total != c.n {
			t.Fatalf("trial %d: the parts hold %d arguments of %d", trial, total, c.n)
		}
		for i := range c.n {
			for j := range c.n {
				same := reach[i][j] && reach[j][i]
				if same != (comp[i] == comp[j]) {
					t.Fatalf("trial %d: %d and %d strongly connected %v, same part %v", trial, i, j, same, comp[i] == comp[j])
				}
			}
			for _, j := range c.attackers[i] {
				if comp[j] > comp[i] {
					t.Fatalf("trial %d: attack %d→%d goes from part %d back to part %d", trial, j, i, comp[j], comp[i])
				}
			}
		}
	}
}

// TestByParts checks the programme over the components against the
// definitions: for complete, stable and preferred semantics (find), and
// semi-stable and stage (findRangeMaximal), every
// argument and both questions (a labelling with it IN; one with it not
// IN), on random DAGs of small parts, its answer is the brute force's and
// the labelling it returns is one of the semantics (its IN set an
// extension, and its OUT arguments exactly those the IN set attacks).
func TestByParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	ctx := context.Background()
	decided, gaveUp := 0, 0
	for trial := range 400 {
		f := randomParts(rng, 2+rng.IntN(12), 1+rng.IntN(4))
		for _, sem := range []Semantics{Complete, Stable, Preferred, SemiStable, Stage} {
			c := f.core(true)
			search := (*sccDP).find
			switch sem {
			case Stage:
				c = f.stageCore()
				fallthrough
			case SemiStable:
				search = (*sccDP).findRangeMaximal
			}
			d := c.newSCCDP(sem)
			if d == nil {
				continue
			}
			want := bruteForce(f, sem)
			for i := range c.n {
				a := c.glob[i]
				for _, in := range []bool{true, false} {
					name := fmt.Sprintf("trial %d (%v), %s, %d IN %v", trial, f.attackList(), sem, a, in)
					exists := slices.ContainsFunc(want, func(e Extension) bool { return e.Contains(a) == in })
					d := c.newSCCDP(sem) // fresh: no memo from another question
					found, lab, ok, err := search(d, ctx, i, func(l byte) bool { return (l == sccIn) == in })
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						gaveUp++ // allowed: an attack to a far part widens the interface
						continue
					}
					decided++
					if found != exists {
						t.Fatalf("%s: found %v, want %v (extensions %v)", name, found, exists, want)
					}
					if !found {
						continue
					}
					e := c.ext(inOfLabels(lab))
					if !slices.ContainsFunc(want, func(w Extension) bool { return slices.Equal(w, e) }) {
						t.Fatalf("%s: labelling %q, IN set %v is not an extension (extensions %v)", name, lab, e, want)
					}
					if e.Contains(a) != in {
						t.Fatalf("%s: labelling %q does not answer the question", name, lab)
					}
					for k := range c.n {
						attacked := slices.ContainsFunc(c.attackers[k], func(j int) bool { return lab[j] == sccIn })
						if (lab[k] == sccOut) != attacked {
							t.Fatalf("%s: labelling %q: %d is %c, attacked by the IN set %v", name, lab, c.glob[k], lab[k], attacked)
						}
					}
				}
			}
		}
	}
	t.Logf("%d questions decided, %d given up", decided, gaveUp)
	if decided < 4000 {
		t.Errorf("the programme decided only %d questions (%d given up): the frameworks hardly have parts", decided, gaveUp)
	}
}

// TestSkepticalPreferredByParts checks DS-PR with its certificate against
// the definitions on chains of parts longer than brute force reaches
// with the programme, by comparing with the CEGAR search alone.
func TestSkepticalPreferredByParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 77))
	ctx := context.Background()
	for trial := range 40 {
		f := randomParts(rng, 20+rng.IntN(60), 2+rng.IntN(3))
		c := f.core(true)
		for i := range c.n {
			got, p, err := c.skepticalPreferredByParts(ctx, i, true)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := c.skepticalPreferred(ctx, i, false)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("trial %d (%v): DS-PR %d: %v, the CEGAR search says %v", trial, f.attackList(), c.glob[i], got, want)
			}
			if got {
				continue
			}
			if slices.Contains(p, i) || !c.isPreferred(ctx, t, p) {
				t.Fatalf("trial %d (%v): DS-PR %d NO with %v, not a preferred extension without it", trial, f.attackList(), c.glob[i], c.ext(p))
			}
		}
	}
}

// isPreferred checks s (core indices) by the definitions: admissible, and
// no admissible strict superset (one SAT search, as a check independent
// of how s was found).
func (c *core) isPreferred(ctx context.Context, t *testing.T, s []int) bool {
	in := make([]bool, c.n)
	for _, i := range s {
		in[i] = true
	}
	for _, i := range s {
		for _, j := range c.attackers[i] {
			if in[j] {
				return false // not conflict-free
			}
			defended := slices.ContainsFunc(c.attackers[j], func(k int) bool { return in[k] })
			if !defended {
				return false
			}
		}
	}
	grow := c.someInOutside(s)
	if len(grow) == 0 {
		return true
	}
	extra := [][]int{grow}
	for _, i := range s {
		extra = append(extra, []int{c.in(i)})
	}
	_, bigger, err := solveOnce(ctx, c.nVars(), c.admissible(), extra...)
	if err != nil {
		t.Fatal(err)
	}
	return !bigger
}

// attackList is f's attacks as pairs, for failure messages.
func (f *Framework) attackList() [][2]int {
	var l [][2]int
	for a := range f.Len() {
		for _, b := range f.Attacks(a) {
			l = append(l, [2]int{a, b})
		}
	}
	return l
}

// TestRangeMaximalByParts checks DC and DS under semi-stable and stage
// semantics, part by part, against the range searches alone on chains of
// parts beyond brute force (queries the searches do not settle in a
// second are skipped), with the certificates checked by the definitions:
// complete (semi-stable) or conflict-free (stage), with or without the
// argument as asked, and no candidate with a strictly larger range.
func TestRangeMaximalByParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	ctx := context.Background()
	compared, gaveUp := 0, 0
	for trial := range 40 {
		f := randomParts(rng, 20+rng.IntN(40), 2+rng.IntN(3))
		for _, sem := range []Semantics{SemiStable, Stage} {
			c, cl := f.rangeEncoding(sem)
			d := c.newSCCDP(sem)
			if d == nil {
				continue
			}
			for range 4 {
				i := rng.IntN(c.n)
				a := c.glob[i]
				for _, skeptical := range []bool{false, true} {
					name := fmt.Sprintf("trial %d (%v), %s %d skeptical %v", trial, f.attackList(), sem, a, skeptical)
					d := c.newSCCDP(sem) // fresh: its bounds are per question
					start := time.Now()
					found, lab, ok, err := d.findRangeMaximal(ctx, i, func(l byte) bool { return (l == sccIn) != skeptical })
					if el := time.Since(start); el > 5*time.Millisecond {
						t.Logf("%s: %v, decided %v, work %d, %.1f ns per unit", name[:12], el, ok, d.work, float64(el.Nanoseconds())/float64(d.work))
					}
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						gaveUp++ // allowed: attacks to far parts widen the interface
						continue
					}
					if found {
						e := c.ext(inOfLabels(lab))
						good := f.IsConflictFree(e) && (sem == Stage || f.IsComplete(e)) && e.Contains(a) != skeptical
						maximal, err := RangeIsMaximal(ctx, f, sem, e)
						if err != nil {
							t.Fatal(err)
						}
						if !good || !maximal {
							t.Fatalf("%s: certificate %v: candidate and as asked %v, range maximal %v", name, e, good, maximal)
						}
					}
					cctx, cancel := context.WithTimeout(ctx, time.Second)
					yes, _, err := c.rangeMaximalAccepts(cctx, cl, i, skeptical)
					cancel()
					if errors.Is(err, ErrCutOff) {
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					compared++
					if want := found != skeptical; yes != want {
						t.Fatalf("%s: part by part %v, the range searches %v", name, want, yes)
					}
				}
			}
		}
	}
	t.Logf("%d answers compared, %d given up", compared, gaveUp)
	if compared < 200 {
		t.Errorf("only %d answers compared with the range searches (%d given up)", compared, gaveUp)
	}
}
