package argue

import (
	"context"
	"slices"
)

// core is the part of a framework left for search after the grounded
// labelling has been applied: the UNDEC arguments with the attacks among
// them, renumbered 0..n-1.
//
// Every complete extension of the framework is G ∪ E, G the grounded IN
// arguments, for a complete extension E of the core (and likewise for stable, preferred and
// semi-stable), because UNDEC arguments are never attacked by grounded IN
// arguments and attacks from grounded OUT arguments can never make a
// difference. Stage semantics is not complete-based, so it uses a core
// built from the whole framework (reduce=false).
type core struct {
	f         *Framework
	lab       []Label // grounded labelling (all UNDEC when not reduced; see stageCore)
	glob      []int   // core index -> framework index
	loc       []int32 // framework index -> core index, or -1
	attackers [][]int // in core indices
	n         int
}

func (f *Framework) core(reduce bool) *core {
	if reduce {
		return f.coreOf(f.GroundedLabelling())
	}
	return f.coreOf(make([]Label, f.Len()))
}

// stageCore is the core for stage semantics. The grounded labelling does
// not apply, but conflict-freeness and ranges are local to weakly
// connected components, so an argument in no attack is IN in every stage
// extension (adding it to a conflict-free set widens the range) and one
// whose only attack is on itself is IN in none and in no range: only the
// rest is searched. Without this, "p af 10000000" with four attacks put
// 30 million variables in the solver (8.7 GB, 100 s for SE-STG; now as
// fast as the other semantics).
func (f *Framework) stageCore() *core {
	g := f.graph()
	lab := make([]Label, f.Len())
	for a := range lab {
		out, in := g.attacks(a), g.attackers(a)
		switch {
		case len(out) == 0 && len(in) == 0:
			lab[a] = In
		case len(out) == 1 && len(in) == 1 && out[0] == int32(a):
			lab[a] = Out // only by itself: never IN, never attacked from outside
		}
	}
	return f.coreOf(lab)
}

// coreOf builds the core of the arguments lab leaves UNDEC; ext adds the
// IN ones to every extension.
func (f *Framework) coreOf(lab []Label) *core {
	c := &core{f: f, loc: make([]int32, f.Len()), lab: lab}
	for a, l := range c.lab {
		c.loc[a] = -1
		if l == Undec {
			c.loc[a] = int32(len(c.glob))
			c.glob = append(c.glob, a)
		}
	}
	c.n = len(c.glob)
	c.attackers = make([][]int, c.n)
	g := f.graph()
	for i, a := range c.glob {
		for _, b := range g.attackers(a) {
			if j := c.loc[b]; j >= 0 {
				c.attackers[i] = append(c.attackers[i], int(j))
			}
		}
	}
	return c
}

// local returns the core index of framework argument a, or -1 when the
// grounded labelling decides a (see inBase).
func (c *core) local(a int) int { return int(c.loc[a]) }

// inBase reports whether a is IN in the grounded labelling.
func (c *core) inBase(a int) bool { return c.lab[a] == In }

// Variables: in(i) and out(i) for core argument i. A labelling sets at most
// one of them; neither means UNDEC.
func (c *core) in(i int) int  { return i + 1 }
func (c *core) out(i int) int { return c.n + i + 1 }
func (c *core) nVars() int    { return 2 * c.n }

// admissible encodes admissible labellings: IN arguments have all
// attackers OUT, and OUT arguments have an IN attacker.
func (c *core) admissible() [][]int {
	cl := make([][]int, 0, 3*c.n)
	for i := range c.n {
		cl = append(cl, []int{-c.in(i), -c.out(i)})
		outHasIn := []int{-c.out(i)}
		for _, j := range c.attackers[i] {
			cl = append(cl, []int{-c.in(i), c.out(j)})
			outHasIn = append(outHasIn, c.in(j))
		}
		cl = append(cl, outHasIn)
	}
	return cl
}

// complete adds the converse rules to admissible: an argument whose
// attackers are all OUT is IN, and one with an IN attacker is OUT.
func (c *core) complete() [][]int {
	return append(c.admissible(), c.completeOnly()...)
}

// completeOnly is what complete adds to admissible.
func (c *core) completeOnly() [][]int {
	var cl [][]int
	for i := range c.n {
		allOut := []int{c.in(i)}
		for _, j := range c.attackers[i] {
			allOut = append(allOut, -c.out(j))
			cl = append(cl, []int{c.out(i), -c.in(j)})
		}
		cl = append(cl, allOut)
	}
	return cl
}

// stable encodes stable extensions over the in variables alone (variables
// 1..n; see solveStable): a stable extension is conflict-free and attacks
// every argument outside it, so out(i) would always be ¬in(i). Complete
// plus in ∨ out, as it was, carried twice the variables and about twice
// the clauses for the same models, and the solver propagated through both.
func (c *core) stable() [][]int {
	cl := make([][]int, 0, c.n)
	for i := range c.n {
		inOrAttacked := []int{c.in(i)}
		for _, j := range c.attackers[i] {
			if i == j {
				cl = append(cl, []int{-c.in(i)})
			} else {
				cl = append(cl, []int{-c.in(i), -c.in(j)})
			}
			inOrAttacked = append(inOrAttacked, c.in(j))
		}
		cl = append(cl, inOrAttacked)
	}
	return cl
}

// solveStable returns a stable labelling's model (in variables only) of
// the core with the extra clauses, if there is one.
func (c *core) solveStable(ctx context.Context, extra ...[]int) ([]bool, bool, error) {
	return solveOnce(ctx, c.n, c.stable(), extra...)
}

// conflictFree encodes conflict-free sets, with out(i) meaning exactly
// "attacked by the set", so that in ∨ out is membership of the range.
func (c *core) conflictFree() [][]int {
	cl := make([][]int, 0, 3*c.n)
	for i := range c.n {
		outHasIn := []int{-c.out(i)}
		for _, j := range c.attackers[i] {
			if i == j {
				cl = append(cl, []int{-c.in(i)})
			} else {
				cl = append(cl, []int{-c.in(i), -c.in(j)})
			}
			cl = append(cl, []int{c.out(i), -c.in(j)})
			outHasIn = append(outHasIn, c.in(j))
		}
		cl = append(cl, outHasIn)
	}
	return cl
}

// inSet maps a model to core indices of IN arguments.
func (c *core) inOf(m []bool) []int {
	var s []int
	for i := range c.n {
		if m[c.in(i)-1] {
			s = append(s, i)
		}
	}
	return s
}

// undecOf returns core indices outside the range of the model.
func (c *core) undecOf(m []bool) []int {
	var s []int
	for i := range c.n {
		if !m[c.in(i)-1] && !m[c.out(i)-1] {
			s = append(s, i)
		}
	}
	return s
}

// component is the core of the weakly connected component of core
// argument i (its arguments linked by attacks either way within the core),
// and i's index in it; ok is false when that component is the whole core.
// The other components' arguments are set OUT in its labelling: no
// argument of the component attacks them or is attacked by them, so its
// encodings are the same as in the whole core, and its ext leaves them out.
func (c *core) component(i int) (sub *core, j int, ok bool) {
	links := make([][]int, c.n)
	for k, as := range c.attackers {
		for _, a := range as {
			links[k] = append(links[k], a)
			links[a] = append(links[a], k)
		}
	}
	seen := make([]bool, c.n)
	seen[i] = true
	queue, size := []int{i}, 1
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, l := range links[k] {
			if !seen[l] {
				seen[l] = true
				size++
				queue = append(queue, l)
			}
		}
	}
	if size == c.n {
		return nil, 0, false
	}
	lab := slices.Clone(c.lab)
	for k, a := range c.glob {
		if !seen[k] {
			lab[a] = Out
		}
	}
	sub = c.f.coreOf(lab)
	return sub, sub.local(c.glob[i]), true
}

// ext lifts core indices to a framework extension including the base.
func (c *core) ext(local []int) Extension {
	e := make(Extension, 0, len(local))
	for a, l := range c.lab {
		if l == In {
			e = append(e, a)
		}
	}
	for _, i := range local {
		e = append(e, c.glob[i])
	}
	slices.Sort(e)
	return e
}

// blockIn is a clause excluding exactly the IN set s (as a set of IN
// arguments; OUT/UNDEC follow from it for complete-based labellings).
func (c *core) blockIn(s []int) []int {
	mark := make([]bool, c.n)
	for _, i := range s {
		mark[i] = true
	}
	cl := make([]int, c.n)
	for i := range c.n {
		if mark[i] {
			cl[i] = -c.in(i)
		} else {
			cl[i] = c.in(i)
		}
	}
	return cl
}

// someInOutside is a clause requiring an IN argument outside s; used both to
// grow a set strictly and to block subsets of a found maximal set.
func (c *core) someInOutside(s []int) []int {
	mark := make([]bool, c.n)
	for _, i := range s {
		mark[i] = true
	}
	var cl []int
	for i := range c.n {
		if !mark[i] {
			cl = append(cl, c.in(i))
		}
	}
	return cl
}

// upTo returns the core restricted to core argument i and the arguments
// with a path of attacks to it (its ancestors), and i's index there; c
// itself when that is everything.
//
// The ancestors of i are attacked by no argument outside them, and the
// admissible, complete, grounded and preferred semantics are directional
// (Baroni and Giacomin 2007): the extensions of the framework restricted
// to such a set are exactly the extensions' restrictions to it. So DC and
// DS of i under those semantics are decided on the ancestors alone, and an
// admissible set of the restriction is admissible in the whole core. On
// chains of small strongly connected parts (ICCMA's and the campaign's
// sccchain frameworks) that is a small fraction: DS-PR on 195 arguments
// (28 ancestors) took μ-toksia 36 s and Parley over two minutes, now
// 0.3 ms. Stable, semi-stable and stage semantics are not directional: an
// argument downstream can rule an extension out.
func (c *core) upTo(i int) (*core, int) {
	seen := make([]bool, c.n)
	seen[i] = true
	queue := []int{i}
	count := 1
	for len(queue) > 0 {
		x := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, j := range c.attackers[x] {
			if !seen[j] {
				seen[j] = true
				count++
				queue = append(queue, j)
			}
		}
	}
	if count == c.n {
		return c, i
	}
	sub := &core{f: c.f, lab: c.lab, loc: make([]int32, len(c.loc))}
	for a := range sub.loc {
		sub.loc[a] = -1
	}
	for j, keep := range seen {
		if keep {
			sub.loc[c.glob[j]] = int32(len(sub.glob))
			sub.glob = append(sub.glob, c.glob[j])
		}
	}
	sub.n = len(sub.glob)
	sub.attackers = make([][]int, sub.n)
	for k, a := range sub.glob {
		for _, j := range c.attackers[c.loc[a]] {
			sub.attackers[k] = append(sub.attackers[k], int(sub.loc[c.glob[j]]))
		}
	}
	return sub, int(sub.loc[c.glob[i]])
}

// lift maps core indices of sub (a restriction of c by upTo) to c's.
func (c *core) lift(sub *core, s []int) []int {
	out := make([]int, len(s))
	for k, j := range s {
		out[k] = int(c.loc[sub.glob[j]])
	}
	return out
}
