package argue

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"
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
	// sccMaxWork bounds the programme's work (IN sets tried, transitions
	// made, bytes of states built) before it gives up: 10–50 ms on this
	// machine, a fraction of what the range searches spend on the chains
	// they do not finish.
	sccMaxWork = 1 << 21
	// sccMaxWidth bounds the interface (the arguments done that later
	// parts read) for find, whose states are its labellings (3^width at
	// most); sccMaxWidthRange for findRangeMaximal, whose states are sets
	// of them. Wider, the states outgrow the bounds above on most
	// frameworks, so the programme is not tried.
	sccMaxWidth      = 10
	sccMaxWidthRange = 5
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
	sem   Semantics // Complete, Preferred, Stable; SemiStable and Stage for findRangeMaximal
	parts []*sccPart
	width int // the widest interface between parts
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
	last := make([]int, c.n) // the last part that reads each argument's label
	for p := range last {
		last[p] = -1
	}
	ends := make([]int, len(comps)+1) // interface arguments whose last reader is part p
	for p, part := range d.parts {
		for _, js := range part.outside {
			for _, j := range js {
				last[j] = max(last[j], p)
			}
		}
	}
	width := 0
	for p, part := range d.parts {
		for _, a := range part.args {
			if last[a] > p {
				width++
				ends[last[a]]++
			}
		}
		width -= ends[p]
		d.width = max(d.width, width)
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
		if d.sem == Stage { // conflict-free is all; OUT is "attacked by the IN set"
			ls = append(ls, partLabelling{in, out})
			continue
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

// sccStep is how the interface changes at one part: the interface
// before it (the states' keys) holds the labels of the arguments done
// that later parts read.
type sccStep struct {
	outPos [][]int // per argument of the part: positions in the key of its attackers outside
	carry  []int   // positions in the key of the arguments kept in the next key
	fresh  []int   // the part's arguments (indices into args) appended to it
	q      int     // the query's index in the part, or -1
}

// plan lays out the interface at every part for query q.
func (d *sccDP) plan(q int) []sccStep {
	c := d.c
	last := make([]int, c.n) // the last part that reads each argument's label
	for p, part := range d.parts {
		for _, js := range part.outside {
			for _, j := range js {
				last[j] = max(last[j], p)
			}
		}
	}
	at := make([]int, c.n) // position in the current key, or -1
	for i := range at {
		at[i] = -1
	}
	var iface []int
	steps := make([]sccStep, len(d.parts))
	for p, part := range d.parts {
		st := &steps[p]
		st.q = -1
		st.outPos = make([][]int, len(part.args))
		for k, js := range part.outside {
			for _, j := range js {
				st.outPos[k] = append(st.outPos[k], at[j])
			}
		}
		var next []int
		for pos, a := range iface {
			if last[a] > p {
				next = append(next, a)
				st.carry = append(st.carry, pos)
			}
		}
		for k, a := range part.args {
			if a == q {
				st.q = k
			}
			if last[a] > p {
				next = append(next, a)
				st.fresh = append(st.fresh, k)
			}
		}
		for _, a := range iface {
			at[a] = -1
		}
		iface = next
		for pos, a := range iface {
			at[a] = pos
		}
	}
	return steps
}

// input is the input of a part from the interface labelling key: per
// argument of the part, sccIn if an attacker outside is IN, else sccUndec
// if one is UNDEC, else 0; appended to buf[:0]. Stage semantics reads IN
// alone: conflict and range depend on nothing else.
func (d *sccDP) input(buf []byte, st *sccStep, key string) []byte {
	buf = buf[:0]
	for _, ps := range st.outPos {
		x := byte(0)
		for _, pos := range ps {
			switch key[pos] {
			case sccIn:
				x = sccIn
			case sccUndec:
				if x == 0 && d.sem != Stage {
					x = sccUndec
				}
			}
		}
		buf = append(buf, x)
	}
	return buf
}

// nextKey is the interface labelling after the part: key's carried labels,
// then the part's own from l; written into buf, returned as a string.
func (d *sccDP) nextKey(buf []byte, st *sccStep, key string, l partLabelling) string {
	buf = buf[:0]
	for _, pos := range st.carry {
		buf = append(buf, key[pos])
	}
	for _, k := range st.fresh {
		buf = append(buf, d.keyLabel(l, k))
	}
	return string(buf)
}

// sccState is one state after a part, with how it was reached: the
// state before and the part's labelling. alts is used by
// findRangeMaximal only.
type sccState struct {
	key  string // labels of the interface arguments
	alts []sccAlt
	prev int32
	lab  partLabelling
}

// over reports whether the programme has exceeded its bounds (the caller
// then searches otherwise).
func (d *sccDP) over(states int) bool { return states > sccMaxStates || d.work > sccMaxWork }

// find looks for a labelling of the core under d.sem in which core
// argument q's label satisfies keep. decided is false when the programme
// gave up (too many states or too much work; the caller searches
// otherwise); then found means nothing. When found, lab is the labelling
// (sccIn, sccOut, sccUndec per core argument).
func (d *sccDP) find(ctx context.Context, q int, keep func(byte) bool) (found bool, lab []byte, decided bool, err error) {
	if d.width > sccMaxWidth {
		return false, nil, false, nil
	}
	steps := d.plan(q)
	levels := make([][]sccState, len(d.parts))
	states := []sccState{{key: "", prev: -1}}
	var input, buf []byte
	for p, part := range d.parts {
		if err := ctx.Err(); err != nil {
			return false, nil, false, fmt.Errorf("%w: part by part, at part %d of %d: %w", ErrCutOff, p+1, len(d.parts), err)
		}
		step := &steps[p]
		var next []sccState
		seen := map[string]bool{}
		for s, st := range states {
			input = d.input(input, step, st.key)
			for _, l := range d.labellings(part, input) {
				d.work++
				if step.q >= 0 && !keep(label(l, step.q)) {
					continue
				}
				key := d.nextKey(buf, step, st.key, l)
				d.work += len(key)
				if seen[key] {
					continue
				}
				seen[key] = true
				next = append(next, sccState{key: key, prev: int32(s), lab: l})
			}
			if d.over(len(next)) {
				return false, nil, false, nil
			}
		}
		if len(next) == 0 {
			return false, nil, true, nil
		}
		levels[p] = next
		states = next
	}
	return true, d.labelling(levels, 0), true, nil
}

// labelling follows the states back from state s of the last level.
func (d *sccDP) labelling(levels [][]sccState, s int32) []byte {
	lab := make([]byte, d.c.n)
	for p := len(d.parts) - 1; p >= 0; p-- {
		st := levels[p][s]
		for k, a := range d.parts[p].args {
			lab[a] = label(st.lab, k)
		}
		s = st.prev
	}
	return lab
}

// sccAlt is another labelling's interface (key) whose range so far
// contains the one of the labelling it goes with (sccState.alts), and
// whether strictly.
type sccAlt struct {
	key    string
	strict bool
}

// findRangeMaximal looks for a labelling with q's label satisfying keep
// whose range (IN or OUT) is ⊆-maximal: among complete labellings for
// semi-stable semantics, among conflict-free sets (OUT: attacked by the
// set) for stage. Neither is SCC-recursive, so a part's labelling cannot
// be chosen by the part alone; but "no labelling has a strictly larger
// range" is a condition on all the others, which are built part by part
// too. So a state is a labelling's interface together with the interfaces
// of every other labelling whose range contains its range on the parts
// done (and whether strictly, on some part): the subset construction of
// the search for a larger range, carried along the search for the
// labelling. At the end a labelling with no strictly larger alternative
// left is range-maximal. The labelling itself is always among its
// alternatives (not strictly), so the sets are never empty. Results as
// for find.
func (d *sccDP) findRangeMaximal(ctx context.Context, q int, keep func(byte) bool) (found bool, lab []byte, decided bool, err error) {
	if d.width > sccMaxWidthRange {
		return false, nil, false, nil
	}
	steps := d.plan(q)
	levels := make([][]sccState, len(d.parts))
	states := []sccState{{key: "", alts: []sccAlt{{key: ""}}, prev: -1}}
	var input, buf, sig []byte
	for p, part := range d.parts {
		if err := ctx.Err(); err != nil {
			return false, nil, false, fmt.Errorf("%w: part by part, at part %d of %d: %w", ErrCutOff, p+1, len(d.parts), err)
		}
		step := &steps[p]
		full := uint32(1)<<len(part.args) - 1
		var next []sccState
		seen := map[string]bool{}
		for s, st := range states {
			input = d.input(input, step, st.key)
			for _, l := range d.labellings(part, input) {
				if step.q >= 0 && !keep(label(l, step.q)) {
					continue
				}
				undec := full &^ (l.in | l.out)
				alts := make(map[string]bool, len(st.alts)) // (clear on a reused map costs its peak size)
				for _, alt := range st.alts {
					d.work += len(step.outPos)
					input = d.input(input, step, alt.key)
					for _, m := range d.labellings(part, input) {
						d.work++
						mu := full &^ (m.in | m.out)
						if mu&^undec != 0 {
							continue // m's range misses some of l's
						}
						k := d.nextKey(buf, step, alt.key, m)
						alts[k] = alts[k] || alt.strict || mu != undec
					}
				}
				next1 := sccState{key: d.nextKey(buf, step, st.key, l), prev: int32(s), lab: l}
				for k, strict := range alts {
					next1.alts = append(next1.alts, sccAlt{k, strict})
				}
				// Building, sorting and hashing the state costs about its
				// signature's length times the sort's depth.
				d.work += (len(next1.alts) + 1) * (len(next1.key) + 1) * (bits.Len(uint(len(next1.alts))) + 1)
				slices.SortFunc(next1.alts, func(a, b sccAlt) int { return strings.Compare(a.key, b.key) })
				sig = append(sig[:0], next1.key...)
				for _, a := range next1.alts {
					sig = append(sig, '|')
					sig = append(sig, a.key...)
					if a.strict {
						sig = append(sig, '+')
					}
				}
				if seen[string(sig)] {
					continue
				}
				seen[string(sig)] = true
				next = append(next, next1)
			}
			if d.over(len(next)) {
				return false, nil, false, nil
			}
		}
		if len(next) == 0 {
			return false, nil, true, nil
		}
		levels[p] = next
		states = next
	}
	for s, st := range states {
		if !slices.ContainsFunc(st.alts, func(a sccAlt) bool { return a.strict }) {
			return true, d.labelling(levels, int32(s)), true, nil
		}
	}
	return false, nil, true, nil
}

// keyLabel is argument k's label in l as the interface keeps it: for
// stage semantics IN or not (sccOut), which is all later parts read, so
// that labellings differing in the rest share a state.
func (d *sccDP) keyLabel(l partLabelling, k int) byte {
	if d.sem == Stage && l.in>>k&1 == 0 {
		return sccOut
	}
	return label(l, k)
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
