package argue

import (
	"context"
	"fmt"
)

// Reasoning part by part: a dynamic programme over the strongly connected
// components of the core.
//
// Complete, stable and preferred semantics are SCC-recursive (Baroni,
// Giacomin and Guida 2005); in labellings (Baroni et al. 2014, "On the
// input/output behavior of argumentation frameworks": they are fully
// decomposable) a labelling of the framework is complete (stable,
// preferred) exactly when, for every strongly connected component S, its
// restriction to S is a complete (stable, preferred) labelling of S given
// the labels of S's attackers outside S: an argument attacked from outside
// by an IN argument is OUT, one attacked from outside by an UNDEC one and
// by no IN one cannot be IN, and for preferred the IN set is maximal among
// the complete labellings of S under that same input. So the labellings
// can be built component by component in topological order, and what a
// component's choice passes on is only the labels of its arguments that
// attack later components.
//
// On chains of small components (ICCMA's and randaf's sccchain
// frameworks) that interface is a few arguments wide while the number of
// preferred extensions grows exponentially with the chain's length: the
// CEGAR search for a preferred extension without the query refutes them one
// by one (DS-PR of a 1,000-argument chain of 4-cycles did not finish in 10
// s), where the programme keeps at most 3^width interface labellings per
// component. It is tried only where it fits (components of at most
// sccMaxPart arguments, at most sccMaxStates interface labellings at any
// point, bounded work), and otherwise gives way to the SAT searches; its
// answer is exact either way.
//
// Semi-stable and stage semantics are not SCC-recursive (a component's
// UNDEC arguments can be traded for fewer elsewhere), so they are not
// decided here.

const (
	// sccMaxPart bounds a component's size: its labellings under each
	// input are found by trying the 2^size IN sets.
	sccMaxPart = 12
	// sccMaxStates bounds the interface labellings kept after a component.
	sccMaxStates = 1 << 12
	// sccMaxWork bounds the programme's work (IN sets tried plus
	// transitions made) before it gives up: tens of milliseconds.
	sccMaxWork = 1 << 23
)

// sccs returns the strongly connected components of the core's attack
// graph, every component after the components of its attackers (a
// topological order), and each core argument's component. It is Tarjan's
// algorithm run along the attackers' lists (the reversed attack graph), so
// a component is completed after every component it can reach, which are
// its attackers'.
func (c *core) sccs() (comps [][]int, comp []int) {
	index := make([]int, c.n) // 0: not yet visited
	low := make([]int, c.n)
	onStack := make([]bool, c.n)
	comp = make([]int, c.n)
	var stack []int
	type frame struct{ v, k int }
	var calls []frame
	next := 1
	visit := func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v, 0})
	}
	for r := range c.n {
		if index[r] != 0 {
			continue
		}
		visit(r)
		for len(calls) > 0 {
			top := len(calls) - 1
			v := calls[top].v
			if k := calls[top].k; k < len(c.attackers[v]) {
				calls[top].k++
				w := c.attackers[v][k]
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			calls = calls[:top]
			if top > 0 {
				if p := calls[top-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				var part []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = len(comps)
					part = append(part, w)
					if w == v {
						break
					}
				}
				comps = append(comps, part)
			}
		}
	}
	return comps, comp
}

// Labels of the programme's states, one byte per interface argument.
const (
	sccIn    byte = 'I'
	sccOut   byte = 'O'
	sccUndec byte = 'U'
)

// partLabelling is a labelling of one component: bit k of in (out) set
// when its k-th argument is IN (OUT); neither is UNDEC.
type partLabelling struct{ in, out uint32 }

// sccPart is one component as the programme sees it.
type sccPart struct {
	args     []int   // core indices
	inside   [][]int // per argument: attackers in the part (indices into args)
	outside  [][]int // per argument: attackers outside it (core indices)
	children map[string][]partLabelling
}

// sccDP is the programme for one semantics over a core.
type sccDP struct {
	c     *core
	sem   Semantics // Complete, Preferred or Stable
	parts []*sccPart
	work  int
}

// newSCCDP prepares the programme over c's components, or returns nil
// when it does not fit: a component larger than sccMaxPart, or a single
// component (nothing to decompose; the SAT searches do that as well).
func (c *core) newSCCDP(sem Semantics) *sccDP {
	comps, comp := c.sccs()
	if len(comps) < 2 {
		return nil
	}
	d := &sccDP{c: c, sem: sem, parts: make([]*sccPart, len(comps))}
	for p, args := range comps {
		if len(args) > sccMaxPart {
			return nil
		}
		part := &sccPart{args: args, inside: make([][]int, len(args)), outside: make([][]int, len(args)),
			children: map[string][]partLabelling{}}
		at := make(map[int]int, len(args))
		for k, a := range args {
			at[a] = k
		}
		for k, a := range args {
			for _, j := range c.attackers[a] {
				if comp[j] == p {
					part.inside[k] = append(part.inside[k], at[j])
				} else {
					part.outside[k] = append(part.outside[k], j)
				}
			}
		}
		d.parts[p] = part
	}
	return d
}

// labellings returns the labellings of part under sem given the input
// from outside: per argument 0 (no attacker outside is IN or UNDEC),
// sccIn (one is IN) or sccUndec (one is UNDEC, none IN). They are found
// by trying every IN set and memoised per input.
func (d *sccDP) labellings(part *sccPart, input []byte) []partLabelling {
	key := string(input)
	if ls, ok := part.children[key]; ok {
		return ls
	}
	n := len(part.args)
	var forcedOut, noIn uint32
	for k, x := range input {
		switch x {
		case sccIn:
			forcedOut |= 1 << k
			noIn |= 1 << k
		case sccUndec:
			noIn |= 1 << k
		}
	}
	attackers := make([]uint32, n) // inside attackers as a mask
	for k, js := range part.inside {
		for _, j := range js {
			attackers[k] |= 1 << j
		}
	}
	var ls []partLabelling
	full := uint32(1)<<n - 1
	d.work += 1 << n
next:
	for in := uint32(0); in <= full; in++ {
		if in&noIn != 0 {
			continue
		}
		out := forcedOut
		for k := range n {
			if attackers[k]&in != 0 {
				out |= 1 << k
			}
		}
		if out&in != 0 {
			continue // not conflict-free, or IN attacked from outside
		}
		for k := range n {
			bit := uint32(1) << k
			switch {
			case in&bit != 0:
				if attackers[k]&^out != 0 {
					continue next // an IN argument with an attacker not OUT
				}
			case out&bit == 0: // UNDEC: must not have every attacker OUT
				if input[k] != sccUndec && attackers[k]&^out == 0 {
					continue next
				}
				if d.sem == Stable {
					continue next
				}
			}
		}
		ls = append(ls, partLabelling{in, out})
	}
	if d.sem == Preferred {
		// Keep the labellings whose IN set no other one's strictly
		// contains. There is always one: the empty IN set's labelling
		// (the grounded one of the part under this input) is complete.
		kept := ls[:0:0]
		for _, l := range ls {
			maximal := true
			for _, m := range ls {
				if m.in != l.in && m.in&l.in == l.in {
					maximal = false
					break
				}
			}
			if maximal {
				kept = append(kept, l)
			}
		}
		ls = kept
	}
	d.work += len(ls) * len(ls)
	part.children[key] = ls
	return ls
}

// sccState is one interface labelling after a component, with how it was
// reached: the state before and the component's labelling.
type sccState struct {
	key  string // labels of the interface arguments, in the order of the step's interface
	prev int32
	lab  partLabelling
}

// find looks for a labelling of the core under d.sem in which core
// argument q's label satisfies keep. decided is false when the programme
// gave up (too many states or too much work; the caller searches
// otherwise); then found means nothing. When found, lab is the labelling
// (sccIn, sccOut, sccUndec per core argument).
func (d *sccDP) find(ctx context.Context, q int, keep func(byte) bool) (found bool, lab []byte, decided bool, err error) {
	c := d.c
	last := make([]int, c.n) // the last part that reads each argument's label
	for p, part := range d.parts {
		for _, js := range part.outside {
			for _, j := range js {
				last[j] = max(last[j], p)
			}
		}
	}
	var iface []int        // interface arguments, in the order of the states' keys
	at := make([]int, c.n) // position in iface, or -1
	for i := range at {
		at[i] = -1
	}
	levels := make([][]sccState, len(d.parts))
	states := []sccState{{key: "", prev: -1}}
	input := make([]byte, 0, sccMaxPart)
	for p, part := range d.parts {
		if err := ctx.Err(); err != nil {
			return false, nil, false, fmt.Errorf("%w: part by part, at part %d of %d: %w", ErrCutOff, p+1, len(d.parts), err)
		}
		// The next interface: what stays of this one, then this part's
		// arguments that a later part reads.
		var nextIface []int
		var carry []int // positions in iface of the arguments kept
		for pos, a := range iface {
			if last[a] > p {
				nextIface = append(nextIface, a)
				carry = append(carry, pos)
			}
		}
		var fresh []int // indices into part.args
		for k, a := range part.args {
			if last[a] > p {
				nextIface = append(nextIface, a)
				fresh = append(fresh, k)
			}
		}
		qk := -1
		for k, a := range part.args {
			if a == q {
				qk = k
			}
		}
		var next []sccState
		seen := map[string]int32{}
		key := make([]byte, len(nextIface))
		for s, st := range states {
			input = input[:0]
			for _, js := range part.outside {
				x := byte(0)
				for _, j := range js {
					switch st.key[at[j]] {
					case sccIn:
						x = sccIn
					case sccUndec:
						if x == 0 {
							x = sccUndec
						}
					}
				}
				input = append(input, x)
			}
			for _, l := range d.labellings(part, input) {
				d.work++
				if qk >= 0 && !keep(label(l, qk)) {
					continue
				}
				for n, pos := range carry {
					key[n] = st.key[pos]
				}
				for n, k := range fresh {
					key[len(carry)+n] = label(l, k)
				}
				if _, dup := seen[string(key)]; dup {
					continue
				}
				seen[string(key)] = int32(len(next))
				next = append(next, sccState{key: string(key), prev: int32(s), lab: l})
			}
			if len(next) > sccMaxStates || d.work > sccMaxWork {
				return false, nil, false, nil
			}
		}
		if len(next) == 0 {
			return false, nil, true, nil
		}
		levels[p] = next
		states = next
		for _, a := range iface {
			at[a] = -1
		}
		iface = nextIface
		for pos, a := range iface {
			at[a] = pos
		}
	}
	lab = make([]byte, c.n)
	s := int32(0)
	for p := len(d.parts) - 1; p >= 0; p-- {
		st := levels[p][s]
		for k, a := range d.parts[p].args {
			lab[a] = label(st.lab, k)
		}
		s = st.prev
	}
	return true, lab, true, nil
}

// label is argument k's label in l.
func label(l partLabelling, k int) byte {
	switch {
	case l.in>>k&1 != 0:
		return sccIn
	case l.out>>k&1 != 0:
		return sccOut
	}
	return sccUndec
}

// inOfLabels lists the IN arguments of a labelling from find.
func inOfLabels(lab []byte) []int {
	var s []int
	for i, l := range lab {
		if l == sccIn {
			s = append(s, i)
		}
	}
	return s
}

// skepticalPreferredByParts is skepticalPreferred, by the programme over
// the components where it fits (see sccDP): a preferred labelling of the
// core with i not IN is a preferred extension without i. Otherwise, or
// when the programme gives up, the CEGAR search decides.
func (c *core) skepticalPreferredByParts(ctx context.Context, i int, want bool) (yes bool, without []int, err error) {
	if d := c.newSCCDP(Preferred); d != nil {
		found, lab, decided, err := d.find(ctx, i, func(l byte) bool { return l != sccIn })
		if err != nil {
			return false, nil, err
		}
		if decided {
			return !found, inOfLabels(lab), nil
		}
	}
	return c.skepticalPreferred(ctx, i, want)
}
