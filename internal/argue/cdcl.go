package argue

import (
	"context"
	"fmt"
	"slices"
)

// cdcl is a small conflict-driven clause-learning SAT solver (two watched
// literals, first-UIP learning, VSIDS with phase saving, Luby restarts).
//
// We started on gophersat, but it cannot be interrupted and its conflict
// analysis writes to a package-level buffer, so a search abandoned on a
// deadline races with every later search (the race detector and a crash in
// our benchmarks showed it). Owning the search loop lets a context stop it
// between conflicts and keeps all state per instance, so independent
// solvers may run concurrently.
//
// Literals are ints in DIMACS style (v or -v, v ≥ 1) at the API and
// encoded internally as 2(v−1) + sign.
type cdcl struct {
	nVars    int
	clauses  [][]int32 // problem and learned clauses; watched literals at 0 and 1
	watches  [][]int32 // watches[l]: clauses watching literal l
	assign   []int8    // per var: 0 unassigned, 1 true, -1 false
	level    []int32
	reason   []int32 // clause index or -1
	trail    []int32 // assigned literals in order
	trailLim []int   // trail length at the start of each decision level
	qhead    int
	ok       bool // false once the clause set is known unsatisfiable

	activity []float64
	varInc   float64
	heap     varHeap
	phase    []bool // saved polarity: true means assign the positive literal
	seen     []bool // scratch for analyze
	model    []bool
}

func newCDCL(clauses [][]int, nVars int) *cdcl {
	s := &cdcl{
		nVars:    nVars,
		watches:  make([][]int32, 2*nVars),
		assign:   make([]int8, nVars),
		level:    make([]int32, nVars),
		reason:   make([]int32, nVars),
		ok:       true,
		activity: make([]float64, nVars),
		varInc:   1,
		phase:    make([]bool, nVars),
		seen:     make([]bool, nVars),
	}
	s.heap = varHeap{act: s.activity, pos: make([]int, nVars)}
	for v := range nVars {
		s.heap.pos[v] = -1
		s.heap.push(v)
	}
	for _, c := range clauses {
		s.addClause(c)
	}
	return s
}

func lit(dimacs int) int32 {
	if dimacs > 0 {
		return int32(2 * (dimacs - 1))
	}
	return int32(2*(-dimacs-1) + 1)
}

func litVar(l int32) int { return int(l >> 1) }

// value is 1 if l is true, -1 if false, 0 if unassigned.
func (s *cdcl) value(l int32) int8 {
	a := s.assign[l>>1]
	if l&1 == 1 {
		return -a
	}
	return a
}

// addClause adds a clause at decision level 0 (it backtracks first).
func (s *cdcl) addClause(dimacs []int) {
	if !s.ok {
		return
	}
	s.cancelUntil(0)
	c := make([]int32, 0, len(dimacs))
	for _, d := range dimacs {
		if d == 0 || d > s.nVars || -d > s.nVars {
			panic(fmt.Sprintf("argue: literal %d outside 1..%d", d, s.nVars))
		}
		c = append(c, lit(d))
	}
	slices.Sort(c)
	c = slices.Compact(c)
	out := c[:0]
	for i, l := range c {
		if i+1 < len(c) && c[i+1] == l^1 {
			return // tautology: l and ¬l
		}
		switch s.value(l) {
		case 1:
			return // already satisfied at level 0
		case 0:
			out = append(out, l)
		}
	}
	c = out
	switch len(c) {
	case 0:
		s.ok = false
	case 1:
		s.enqueue(c[0], -1)
		if s.propagate() >= 0 {
			s.ok = false
		}
	default:
		s.attach(c)
	}
}

func (s *cdcl) attach(c []int32) int32 {
	ci := int32(len(s.clauses))
	s.clauses = append(s.clauses, c)
	s.watches[c[0]] = append(s.watches[c[0]], ci)
	s.watches[c[1]] = append(s.watches[c[1]], ci)
	return ci
}

func (s *cdcl) enqueue(l int32, reason int32) {
	v := litVar(l)
	if l&1 == 1 {
		s.assign[v] = -1
	} else {
		s.assign[v] = 1
	}
	s.level[v] = int32(len(s.trailLim))
	s.reason[v] = reason
	s.trail = append(s.trail, l)
}

// propagate runs unit propagation; it returns a conflicting clause index
// or -1.
func (s *cdcl) propagate() int32 {
	for s.qhead < len(s.trail) {
		falseLit := s.trail[s.qhead] ^ 1
		s.qhead++
		ws := s.watches[falseLit]
		kept := ws[:0]
		for i := 0; i < len(ws); i++ {
			ci := ws[i]
			c := s.clauses[ci]
			if c[0] == falseLit {
				c[0], c[1] = c[1], c[0]
			}
			if s.value(c[0]) == 1 {
				kept = append(kept, ci)
				continue
			}
			moved := false
			for k := 2; k < len(c); k++ {
				if s.value(c[k]) != -1 {
					c[1], c[k] = c[k], c[1]
					s.watches[c[1]] = append(s.watches[c[1]], ci)
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			kept = append(kept, ci)
			if s.value(c[0]) == -1 {
				kept = append(kept, ws[i+1:]...)
				s.watches[falseLit] = kept
				s.qhead = len(s.trail)
				return ci
			}
			s.enqueue(c[0], ci)
		}
		s.watches[falseLit] = kept
	}
	return -1
}

func (s *cdcl) cancelUntil(lvl int) {
	if len(s.trailLim) <= lvl {
		return
	}
	start := s.trailLim[lvl]
	for i := len(s.trail) - 1; i >= start; i-- {
		v := litVar(s.trail[i])
		s.phase[v] = s.assign[v] == 1
		s.assign[v] = 0
		if s.heap.pos[v] < 0 {
			s.heap.push(v)
		}
	}
	s.trail = s.trail[:start]
	s.trailLim = s.trailLim[:lvl]
	s.qhead = start
}

// analyze derives a first-UIP clause from a conflict; the asserting
// literal comes first and a literal of the backtrack level second.
func (s *cdcl) analyze(confl int32) ([]int32, int) {
	learnt := []int32{0}
	cur := int32(len(s.trailLim))
	pathC := 0
	var p int32 = -1
	idx := len(s.trail) - 1
	for {
		for _, q := range s.clauses[confl] {
			if q == p {
				continue
			}
			v := litVar(q)
			if s.seen[v] || s.level[v] == 0 {
				continue
			}
			s.seen[v] = true
			s.bump(v)
			if s.level[v] == cur {
				pathC++
			} else {
				learnt = append(learnt, q)
			}
		}
		for !s.seen[litVar(s.trail[idx])] {
			idx--
		}
		p = s.trail[idx]
		idx--
		s.seen[litVar(p)] = false
		pathC--
		if pathC == 0 {
			break
		}
		confl = s.reason[litVar(p)]
	}
	learnt[0] = p ^ 1
	bt := 0
	for i := 1; i < len(learnt); i++ {
		s.seen[litVar(learnt[i])] = false
		if lv := int(s.level[litVar(learnt[i])]); lv > bt {
			bt = lv
			learnt[1], learnt[i] = learnt[i], learnt[1]
		}
	}
	return learnt, bt
}

func (s *cdcl) bump(v int) {
	s.activity[v] += s.varInc
	if s.activity[v] > 1e100 {
		for i := range s.activity {
			s.activity[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.heap.pos[v] >= 0 {
		s.heap.up(s.heap.pos[v])
	}
}

// luby returns the i-th element (from 0) of the Luby sequence 1,1,2,1,1,2,4,...
func luby(i int) int {
	size, seq := 1, 0
	for size < i+1 {
		seq++
		size = 2*size + 1
	}
	x := i
	for size-1 != x {
		size = (size - 1) >> 1
		seq--
		x %= size
	}
	return 1 << seq
}

// ctxCheckEvery is how many conflicts pass between context checks: often
// enough to stop within milliseconds, rarely enough to cost nothing.
const ctxCheckEvery = 128

// solve searches for a model of the clauses added so far.
func (s *cdcl) solve(ctx context.Context) (bool, error) {
	if !s.ok {
		return false, nil
	}
	s.cancelUntil(0)
	if s.propagate() >= 0 {
		s.ok = false
		return false, nil
	}
	conflicts := 0
	for restart := 0; ; restart++ {
		limit := 100 * luby(restart)
		for n := 0; ; {
			confl := s.propagate()
			if confl >= 0 {
				conflicts++
				n++
				if len(s.trailLim) == 0 {
					s.ok = false
					return false, nil
				}
				learnt, bt := s.analyze(confl)
				s.cancelUntil(bt)
				if len(learnt) == 1 {
					s.enqueue(learnt[0], -1)
				} else {
					s.enqueue(learnt[0], s.attach(learnt))
				}
				s.varInc /= 0.95
				if conflicts%ctxCheckEvery == 0 {
					if err := ctx.Err(); err != nil {
						s.cancelUntil(0)
						return false, fmt.Errorf("%w: SAT search after %d conflicts: %w", ErrCutOff, conflicts, err)
					}
				}
				continue
			}
			if n >= limit {
				s.cancelUntil(0)
				break
			}
			v := s.pickBranchVar()
			if v < 0 {
				s.model = make([]bool, s.nVars)
				for i := range s.nVars {
					s.model[i] = s.assign[i] == 1
				}
				s.cancelUntil(0)
				return true, nil
			}
			s.trailLim = append(s.trailLim, len(s.trail))
			l := int32(2 * v)
			if !s.phase[v] {
				l++
			}
			s.enqueue(l, -1)
		}
	}
}

func (s *cdcl) pickBranchVar() int {
	for s.heap.len() > 0 {
		v := s.heap.pop()
		if s.assign[v] == 0 {
			return v
		}
	}
	return -1
}

// varHeap is a max-heap of variables by activity with position tracking,
// so a bumped variable can be moved up in O(log n).
type varHeap struct {
	act  []float64
	data []int
	pos  []int // index in data, or -1
}

func (h *varHeap) len() int { return len(h.data) }

func (h *varHeap) push(v int) {
	h.pos[v] = len(h.data)
	h.data = append(h.data, v)
	h.up(h.pos[v])
}

func (h *varHeap) pop() int {
	v := h.data[0]
	last := len(h.data) - 1
	h.swap(0, last)
	h.data = h.data[:last]
	h.pos[v] = -1
	if last > 0 {
		h.down(0)
	}
	return v
}

func (h *varHeap) swap(i, j int) {
	h.data[i], h.data[j] = h.data[j], h.data[i]
	h.pos[h.data[i]] = i
	h.pos[h.data[j]] = j
}

func (h *varHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.act[h.data[p]] >= h.act[h.data[i]] {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *varHeap) down(i int) {
	n := len(h.data)
	for {
		l, best := 2*i+1, i
		if l < n && h.act[h.data[l]] > h.act[h.data[best]] {
			best = l
		}
		if r := l + 1; r < n && h.act[h.data[r]] > h.act[h.data[best]] {
			best = r
		}
		if best == i {
			return
		}
		h.swap(i, best)
		i = best
	}
}
