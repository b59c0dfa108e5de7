package argue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// cdcl is a small conflict-driven clause-learning SAT solver (two watched
// literals, first-UIP learning, VSIDS with phase saving, Glucose's
// LBD-based restarts and learned-clause management).
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
	nVars int
	// arena holds every problem and learned clause back to back, so that
	// propagation reads clauses from one block of memory rather than
	// chasing a pointer per clause (on dense frameworks propagation is
	// over 80% of the time, most of it waiting on memory). A clause is
	// referred to by its offset in arena (a cref); see clause layout
	// below.
	arena   []int32
	watches [][]watcher // watches[l]: clauses watching literal l
	// vals is per literal (1 true, -1 false, 0 unassigned), both
	// literals of a variable kept in step, so that reading a literal's
	// value is one load without a branch on its sign.
	vals     []int8
	level    []int32
	reason   []int32 // cref or -1
	trail    []int32 // assigned literals in order
	trailLim []int   // trail length at the start of each decision level
	qhead    int
	ok       bool // false once the clause set is known unsatisfiable

	activity  []float64
	varInc    float64
	heap      varHeap
	phase     []bool  // saved polarity: true means assign the positive literal
	seen      []bool  // scratch for analyze
	toClear   []int32 // scratch for analyze: literals whose seen flag is set
	stack     []int32 // scratch for redundant
	lastLvl   []int32 // scratch for analyze: current-level literals implied by learned clauses
	learntBuf []int32 // scratch for analyze: the learned clause
	model     []bool

	// Restarts follow Glucose: restart when the LBD of the last
	// lbdWindow learned clauses is, on average, well above the LBD of all
	// of them (the search has wandered off a productive region), but not
	// while the trail is much longer than usual (the search is probably
	// close to a model). Restarts keep the assumptions' levels, which
	// would be decided again to the same effect. With the clause
	// management below, Luby restarts (100·luby(i) conflicts) did about
	// as well over dense random frameworks (randaf.Dense and alike,
	// docs/benchmarks.md: geometric mean 1.28 against 1.26 over the old
	// solver, 112 cases) but worse on the 44 slowest (1.64 against 1.85).
	lbdQ      boundedQueue
	trailQ    boundedQueue
	sumLBD    float64
	nRestarts int // restarts over the solver's life

	// claInc is the clause activity increment (bumped clauses are those
	// used in conflict analysis); reduceDB breaks LBD ties by activity.
	claInc float32

	// Learned clauses are kept while they are useful: each carries a
	// learned flag, its literal block distance (the number of decision
	// levels among its literals, Glucose's measure of how well a clause
	// glues levels together; lowered when analysis finds it smaller) and
	// an activity. Every firstReduce + reduceStep·k conflicts (Glucose's
	// schedule) the worse half of those with LBD > 2 is dropped, worst
	// LBD first and the least active among equals; otherwise a long
	// search propagates through thousands of clauses that no longer
	// help. Clauses with LBD ≤ 2 are kept for good.
	nLearnt    int
	nextReduce int   // conflict count (nConflicts) at which to reduce next
	reduceGap  int   // Glucose's nbclausesbeforereduce
	lvlStamp   []int // per decision level: the stamp of the last LBD count that saw it
	stamp      int

	// Totals over the solver's life, for profiling the search.
	nConflicts, nDecisions, nPropagations, nReduce int

	// workLimit, when above zero, ends a solve with errSliceSpent once
	// nPropagations reaches it (checked at conflicts): the portfolio
	// searches take turns in slices of work (see turn.solve).
	workLimit int
}

// errSliceSpent ends a solve whose slice of work (cdcl.workLimit) is
// spent; the solver stays usable and keeps what it learned.
var errSliceSpent = errors.New("argue: slice of SAT work spent")

func newCDCL(clauses [][]int, nVars int) *cdcl {
	s := &cdcl{
		nVars:      nVars,
		watches:    make([][]watcher, 2*nVars),
		vals:       make([]int8, 2*nVars),
		level:      make([]int32, nVars),
		reason:     make([]int32, nVars),
		ok:         true,
		activity:   make([]float64, nVars),
		varInc:     1,
		phase:      make([]bool, nVars),
		seen:       make([]bool, nVars),
		claInc:     1,
		reduceGap:  firstReduce,
		nextReduce: firstReduce,
		lbdQ:       newBoundedQueue(lbdWindow),
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

// newVar adds a fresh variable (returned in DIMACS numbering), used as an
// activation literal: a clause (¬t ∨ C) is active while t is assumed and
// is retired for good by the unit ¬t, so temporary constraints never force
// a rebuild of the solver and its learned clauses.
func (s *cdcl) newVar() int {
	v := s.nVars
	s.nVars++
	s.watches = append(s.watches, nil, nil)
	s.vals = append(s.vals, 0, 0)
	s.level = append(s.level, 0)
	s.reason = append(s.reason, -1)
	s.activity = append(s.activity, 0)
	s.phase = append(s.phase, false)
	s.seen = append(s.seen, false)
	s.heap.act = s.activity
	s.heap.pos = append(s.heap.pos, -1)
	s.heap.push(v)
	return v + 1
}

// setPhase sets the polarity tried first for DIMACS variable v, and makes
// it a first choice among variables of equal activity (before conflicts
// have told the heuristic anything, the encodings' decision variables are
// better branched on than the variables they define).
func (s *cdcl) setPhase(v int, positive bool) {
	s.phase[v-1] = positive
	if s.activity[v-1] < tieBreak {
		s.activity[v-1] = tieBreak
		if p := s.heap.pos[v-1]; p >= 0 {
			s.heap.up(p)
		}
	}
}

// firstReduce is how many conflicts pass before the first reduction of
// the learned clauses, and reduceStep how much the interval grows after
// each; reduceBonus is added when the database is full of good clauses
// (Glucose's 2000, 300 and 1000): queries that end within a few thousand
// conflicts never pay for a reduction.
const (
	firstReduce = 2000
	reduceStep  = 300
	reduceBonus = 1000
)

// Glucose's restart and decay parameters (Audemard and Simon, SAT 2009,
// CP 2012): restart when the recent LBD average times restartK exceeds
// the overall average; block a restart when the trail is blockR times
// longer than its recent average (and at least blockAfter conflicts have
// passed, before which the average means little).
//
// varDecay is MiniSat's fixed 0.95, not Glucose's ramp from 0.8 to 0.95
// over the first 75,000 conflicts: on dense random frameworks (randaf.Dense
// and alike, 112 cases) the ramp cost a factor of 1.28 in geometric mean
// (0.98x the old solver's speed against 1.26x with 0.95 throughout), most
// on the satisfiable searches of the preferred semantics, where the
// encodings' first choices (setPhase) are good and a fast decay forgets
// them within a few conflicts.
const (
	lbdWindow   = 50
	trailWindow = 5000
	restartK    = 0.8
	blockR      = 1.4
	blockAfter  = 10000
	varDecay    = 0.95
	claDecay    = 0.999
	// protectLBD: a clause whose LBD drops (by 2 or more) to at most
	// this survives the next reduction.
	protectLBD = 30
)

// tieBreak is below any real bump (the increment starts at 1 and grows).
const tieBreak = 1e-9

func lit(dimacs int) int32 {
	if dimacs > 0 {
		return int32(2 * (dimacs - 1))
	}
	return int32(2*(-dimacs-1) + 1)
}

func litVar(l int32) int { return int(l >> 1) }

// value is 1 if l is true, -1 if false, 0 if unassigned.
func (s *cdcl) value(l int32) int8 { return s.vals[l] }

// Clause layout in the arena, at offset cref: the literal count, the
// meta word (lbd<<lbdShift | protectMark | dropMark | learned), the
// activity (float32 bits), then the literals, the two watched ones
// first.
const clauseHeader = 3

// dropMark in a meta word marks a clause reduceDB is about to drop;
// protectMark one that survives the next reduction (its LBD improved
// lately); the LBD lives above them.
const (
	dropMark    = 2
	protectMark = 4
	lbdShift    = 3
)

// lits returns the literals of clause cref (aliasing the arena).
func (s *cdcl) lits(cref int32) []int32 {
	start := cref + clauseHeader
	return s.arena[start : start+s.arena[cref] : start+s.arena[cref]]
}

func (s *cdcl) isLearnt(cref int32) bool { return s.arena[cref+1]&1 == 1 }

func (s *cdcl) lbdOf(cref int32) int32 { return s.arena[cref+1] >> lbdShift }

func (s *cdcl) claAct(cref int32) float32 { return math.Float32frombits(uint32(s.arena[cref+2])) }

func (s *cdcl) setClaAct(cref int32, a float32) { s.arena[cref+2] = int32(math.Float32bits(a)) }

// bumpClause raises a learned clause's activity, rescaling all of them
// when it grows too large for a float32.
func (s *cdcl) bumpClause(cref int32) {
	a := s.claAct(cref) + s.claInc
	s.setClaAct(cref, a)
	if a > 1e20 {
		for c := int32(0); c < int32(len(s.arena)); c = s.nextClause(c) {
			if s.isLearnt(c) {
				s.setClaAct(c, s.claAct(c)*1e-20)
			}
		}
		s.claInc *= 1e-20
	}
}

// nextClause returns the offset of the clause after cref.
func (s *cdcl) nextClause(cref int32) int32 { return cref + clauseHeader + s.arena[cref] }

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
		s.attach(c, 0)
	}
}

// removeSatisfied drops every clause satisfied at decision level 0 (among
// them the temporary clauses whose activation literal has been retired)
// and the literals false there, then rebuilds the watch lists, so that
// constraints used once stop costing propagation time and memory.
func (s *cdcl) removeSatisfied() {
	if !s.ok {
		return
	}
	s.cancelUntil(0)
	if s.propagate() >= 0 {
		s.ok = false
		return
	}
	s.compact(func(_ int32, c []int32) ([]int32, bool) {
		out := c[:0]
		for _, l := range c {
			switch s.value(l) {
			case 1:
				return nil, false
			case 0:
				out = append(out, l)
			}
		}
		// Propagation is complete, so an unsatisfied clause keeps at
		// least two unassigned literals.
		return out, true
	})
}

// compact keeps, in order, the clauses for which keep (given the meta
// word and the literals) returns true, with the literals it returns (a
// prefix of those it is given: it may shorten a clause, never lengthen
// it), slides them down the arena and rebuilds the watch lists. It runs at decision level 0, where no clause is a
// reason that analysis will read.
func (s *cdcl) compact(keep func(meta int32, c []int32) ([]int32, bool)) {
	var to int32
	end := int32(len(s.arena))
	for cref := int32(0); cref < end; {
		next := s.nextClause(cref)
		meta := s.arena[cref+1]
		c, ok := keep(meta, s.lits(cref))
		if !ok {
			if meta&1 == 1 {
				s.nLearnt--
			}
			cref = next
			continue
		}
		// to ≤ cref and the kept literals are a prefix, so copying
		// forward never overwrites what is still to be read.
		act := s.arena[cref+2]
		s.arena[to] = int32(len(c))
		s.arena[to+1] = meta
		s.arena[to+2] = act
		copy(s.arena[to+clauseHeader:], c)
		to += clauseHeader + int32(len(c))
		cref = next
	}
	s.arena = s.arena[:to]
	for i := range s.watches {
		s.watches[i] = s.watches[i][:0]
	}
	for cref := int32(0); cref < to; cref = s.nextClause(cref) {
		s.watch(cref)
	}
	for _, l := range s.trail {
		s.reason[litVar(l)] = -1 // level 0: never analysed, and crefs moved
	}
}

// reduceDB drops the worse half of the learned clauses (Glucose's
// reduceDB): sorted worst first by LBD, then by activity, the first half
// goes except clauses with LBD ≤ 2 and clauses protected since the last
// reduction (each of those lets one more of the rest go). It runs at
// decision level 0, where no clause is locked as a reason.
func (s *cdcl) reduceDB() {
	s.cancelUntil(0)
	var cand []int32
	for cref := int32(0); cref < int32(len(s.arena)); cref = s.nextClause(cref) {
		if s.isLearnt(cref) {
			cand = append(cand, cref)
		}
	}
	slices.SortFunc(cand, func(a, b int32) int {
		if la, lb := s.lbdOf(a), s.lbdOf(b); la != lb {
			return int(lb - la)
		}
		return cmp.Compare(s.claAct(a), s.claAct(b))
	})
	if len(cand) > 0 {
		// Many good clauses are hard to tell apart: keep more.
		if s.lbdOf(cand[len(cand)/2]) <= 3 {
			s.reduceGap += reduceBonus
		}
		if s.lbdOf(cand[len(cand)-1]) <= 5 {
			s.reduceGap += reduceBonus
		}
	}
	// Mark the dropped clauses in their header's meta word, which
	// compact passes to keep; lift the protection of the rest.
	limit := len(cand) / 2
	for i, cref := range cand {
		meta := s.arena[cref+1]
		if i < limit && meta>>lbdShift > 2 && meta&protectMark == 0 {
			s.arena[cref+1] |= dropMark
			continue
		}
		if meta&protectMark != 0 {
			limit++
		}
		s.arena[cref+1] &^= protectMark
	}
	s.compact(func(meta int32, c []int32) ([]int32, bool) { return c, meta&dropMark == 0 })
	s.nReduce++
}

// watcher is an entry of a watch list. blocker is another literal of the
// clause: when it is true the clause is satisfied and need not be read,
// which saves most memory accesses in propagation. A binary clause is
// decided by its blocker alone (it is the other literal), so binary
// clauses, the bulk of the labelling encodings, are never read at all.
//
// The clause and the binary flag share one word (cref<<1 | binary), so an
// entry is 8 bytes and more of a watch list fits a cache line.
type watcher struct {
	cb      int32
	blocker int32
}

func (s *cdcl) attach(c []int32, meta int32) int32 {
	cref := int32(len(s.arena))
	s.arena = append(s.arena, int32(len(c)), meta, 0)
	s.arena = append(s.arena, c...)
	s.watch(cref)
	return cref
}

func (s *cdcl) attachLearnt(c []int32, lbd int32) int32 {
	s.nLearnt++
	cref := s.attach(c, lbd<<lbdShift|1)
	s.bumpClause(cref)
	return cref
}

func (s *cdcl) computeLBD(c []int32) int32 {
	s.stamp++
	var n int32
	for _, l := range c {
		lv := s.level[litVar(l)]
		for int(lv) >= len(s.lvlStamp) {
			s.lvlStamp = append(s.lvlStamp, 0)
		}
		if s.lvlStamp[lv] != s.stamp {
			s.lvlStamp[lv] = s.stamp
			n++
		}
	}
	return n
}

func (s *cdcl) watch(cref int32) {
	c := s.lits(cref)
	cb := cref << 1
	if len(c) == 2 {
		cb |= 1
	}
	s.watches[c[0]] = append(s.watches[c[0]], watcher{cb: cb, blocker: c[1]})
	s.watches[c[1]] = append(s.watches[c[1]], watcher{cb: cb, blocker: c[0]})
}

func (s *cdcl) enqueue(l int32, reason int32) {
	v := litVar(l)
	s.vals[l] = 1
	s.vals[l^1] = -1
	s.level[v] = int32(len(s.trailLim))
	s.reason[v] = reason
	s.trail = append(s.trail, l)
}

// propagate runs unit propagation; it returns a conflicting clause (a
// cref) or -1.
func (s *cdcl) propagate() int32 {
	vals, arena := s.vals, s.arena
	for s.qhead < len(s.trail) {
		falseLit := s.trail[s.qhead] ^ 1
		s.qhead++
		s.nPropagations++
		ws := s.watches[falseLit]
		j := 0
		for i := 0; i < len(ws); i++ {
			w := ws[i]
			bv := vals[w.blocker]
			if bv == 1 {
				ws[j] = w
				j++
				continue
			}
			cref := w.cb >> 1
			if w.cb&1 == 1 {
				ws[j] = w
				j++
				if bv == -1 {
					j += copy(ws[j:], ws[i+1:])
					s.watches[falseLit] = ws[:j]
					s.qhead = len(s.trail)
					return cref
				}
				s.enqueue(w.blocker, cref)
				continue
			}
			start := cref + clauseHeader
			c := arena[start : start+arena[cref]]
			if c[0] == falseLit {
				c[0], c[1] = c[1], c[0]
			}
			first := c[0]
			kept := watcher{cb: w.cb, blocker: first}
			if first != w.blocker && vals[first] == 1 {
				ws[j] = kept
				j++
				continue
			}
			moved := false
			for k := 2; k < len(c); k++ {
				if vals[c[k]] != -1 {
					c[1], c[k] = c[k], c[1]
					s.watches[c[1]] = append(s.watches[c[1]], kept)
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = kept
			j++
			if vals[first] == -1 {
				j += copy(ws[j:], ws[i+1:])
				s.watches[falseLit] = ws[:j]
				s.qhead = len(s.trail)
				return cref
			}
			s.enqueue(first, cref)
		}
		s.watches[falseLit] = ws[:j]
	}
	return -1
}

func (s *cdcl) cancelUntil(lvl int) {
	if len(s.trailLim) <= lvl {
		return
	}
	start := s.trailLim[lvl]
	for i := len(s.trail) - 1; i >= start; i-- {
		l := s.trail[i]
		v := litVar(l)
		s.phase[v] = l&1 == 0
		s.vals[l], s.vals[l^1] = 0, 0
		if s.heap.pos[v] < 0 {
			s.heap.push(v)
		}
	}
	s.trail = s.trail[:start]
	s.trailLim = s.trailLim[:lvl]
	s.qhead = start
}

// analyze derives a first-UIP clause from a conflict; the asserting
// literal comes first and a literal of the backtrack level second. It
// returns the clause (valid until the next call), the backtrack level and
// the clause's LBD. Learned clauses met on the way are bumped and their
// LBD lowered if it shrank (Glucose's dynamic LBD).
func (s *cdcl) analyze(confl int32) ([]int32, int, int32) {
	learnt := append(s.learntBuf[:0], 0)
	s.lastLvl = s.lastLvl[:0]
	cur := int32(len(s.trailLim))
	pathC := 0
	var p int32 = -1
	idx := len(s.trail) - 1
	for {
		c := s.lits(confl)
		if meta := s.arena[confl+1]; meta&1 == 1 {
			s.bumpClause(confl)
			if lbd := meta >> lbdShift; lbd > 2 {
				if n := s.computeLBD(c); n+1 < lbd {
					meta = n<<lbdShift | meta&(1<<lbdShift-1)
					if lbd <= protectLBD {
						meta |= protectMark
					}
					s.arena[confl+1] = meta
				}
			}
		}
		for _, q := range c {
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
				if r := s.reason[v]; r >= 0 && s.isLearnt(r) {
					s.lastLvl = append(s.lastLvl, q)
				}
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
	// Drop literals implied by the others (MiniSat's recursive
	// minimisation): a literal whose reasons lead, transitively, only to
	// literals of the clause or fixed at level 0 adds nothing. Shorter
	// clauses propagate sooner and prune more. abstract is a 32-bit
	// summary of the clause's levels: a path reaching a decision or a
	// level outside it cannot end in the clause.
	s.toClear = append(s.toClear[:0], learnt[1:]...)
	var abstract uint32
	for _, q := range learnt[1:] {
		abstract |= 1 << (s.level[litVar(q)] & 31)
	}
	kept := learnt[:1]
	for _, q := range learnt[1:] {
		if s.reason[litVar(q)] < 0 || !s.redundant(q, abstract) {
			kept = append(kept, q)
		}
	}
	for _, q := range s.toClear {
		s.seen[litVar(q)] = false
	}
	learnt = kept
	s.learntBuf = learnt
	bt := 0
	for i := 1; i < len(learnt); i++ {
		if lv := int(s.level[litVar(learnt[i])]); lv > bt {
			bt = lv
			learnt[1], learnt[i] = learnt[i], learnt[1]
		}
	}
	lbd := s.computeLBD(learnt)
	// Variables of the conflict level implied by learned clauses with a
	// smaller LBD than the new clause's get a second bump (Glucose): they
	// are propagated by good clauses and likely to matter again.
	for _, q := range s.lastLvl {
		if s.lbdOf(s.reason[litVar(q)]) < lbd {
			s.bump(litVar(q))
		}
	}
	return learnt, bt, lbd
}

// redundant reports whether the clause literal q (which has a reason) is
// implied by the literals marked seen, following reasons transitively.
// Literals found redundant on the way stay marked (in toClear) to save
// later walks; a failed walk unmarks what it marked.
func (s *cdcl) redundant(q int32, abstract uint32) bool {
	s.stack = append(s.stack[:0], q)
	top := len(s.toClear)
	for len(s.stack) > 0 {
		x := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		xv := litVar(x)
		for _, l := range s.lits(s.reason[xv]) {
			v := litVar(l)
			if v == xv || s.seen[v] || s.level[v] == 0 {
				continue
			}
			if s.reason[v] >= 0 && abstract&(1<<(s.level[v]&31)) != 0 {
				s.seen[v] = true
				s.stack = append(s.stack, l)
				s.toClear = append(s.toClear, l)
				continue
			}
			for _, y := range s.toClear[top:] {
				s.seen[litVar(y)] = false
			}
			s.toClear = s.toClear[:top]
			return false
		}
	}
	return true
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

// ctxCheckEvery is how many conflicts pass between context checks: often
// enough to stop within milliseconds, rarely enough to cost nothing.
const ctxCheckEvery = 128

// solve searches for a model of the clauses added so far in which every
// assumption (DIMACS literals) holds. Assumptions are decided first, one
// per decision level, so whatever is learned under them holds without
// them too: unsatisfiability under assumptions leaves the solver usable.
func (s *cdcl) solve(ctx context.Context, assumptions ...int) (bool, error) {
	if !s.ok {
		return false, nil
	}
	assume := make([]int32, len(assumptions))
	for i, d := range assumptions {
		if d == 0 || d > s.nVars || -d > s.nVars {
			panic(fmt.Sprintf("argue: assumption %d outside 1..%d", d, s.nVars))
		}
		assume[i] = lit(d)
	}
	s.cancelUntil(0)
	if s.propagate() >= 0 {
		s.ok = false
		return false, nil
	}
	conflicts := 0
	for {
		confl := s.propagate()
		if confl >= 0 {
			conflicts++
			s.nConflicts++
			if len(s.trailLim) == 0 {
				s.ok = false
				return false, nil
			}
			if s.nConflicts > blockAfter-trailWindow {
				// Blocking starts after blockAfter conflicts and looks
				// at the last trailWindow trail sizes only, so the
				// queue (20 KB) is made when it first matters: most
				// solvers never get there.
				if s.trailQ.buf == nil {
					s.trailQ = newBoundedQueue(trailWindow)
				}
				s.trailQ.push(int32(len(s.trail)))
			}
			if s.nConflicts > blockAfter && s.lbdQ.full() && float64(len(s.trail)) > blockR*s.trailQ.avg() {
				s.lbdQ.clear() // block the restart
			}
			learnt, bt, lbd := s.analyze(confl)
			s.lbdQ.push(lbd)
			s.sumLBD += float64(lbd)
			s.cancelUntil(bt)
			if len(learnt) == 1 {
				s.enqueue(learnt[0], -1)
			} else {
				s.enqueue(learnt[0], s.attachLearnt(learnt, lbd))
			}
			s.varInc /= varDecay
			s.claInc /= claDecay
			if s.workLimit > 0 && s.nPropagations >= s.workLimit {
				s.cancelUntil(0)
				return false, errSliceSpent
			}
			if conflicts%ctxCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					s.cancelUntil(0)
					return false, fmt.Errorf("%w: SAT search after %d conflicts: %w", ErrCutOff, conflicts, err)
				}
			}
			continue
		}
		if s.nConflicts >= s.nextReduce {
			// Glucose's schedule: the k-th reduction comes about
			// k·reduceGap conflicts in, the gap growing each time.
			k := s.nConflicts/s.reduceGap + 1
			s.reduceDB() // a restart too: it backtracks to level 0
			s.reduceGap += reduceStep
			s.nextReduce = k * s.reduceGap
			continue
		}
		if s.lbdQ.full() && s.lbdQ.avg()*restartK > s.sumLBD/float64(s.nConflicts) {
			s.lbdQ.clear()
			s.nRestarts++
			// The assumptions would be decided again, in the same
			// order, to the same effect: keep their levels.
			s.cancelUntil(min(len(s.trailLim), len(assume)))
			continue
		}
		var next int32 = -1
		for len(s.trailLim) < len(assume) {
			p := assume[len(s.trailLim)]
			if val := s.value(p); val == 1 {
				// Already true: an empty level keeps levels and
				// assumptions aligned.
				s.trailLim = append(s.trailLim, len(s.trail))
				continue
			} else if val == -1 {
				s.cancelUntil(0)
				return false, nil // the assumptions cannot all hold
			}
			next = p
			break
		}
		if next >= 0 {
			s.trailLim = append(s.trailLim, len(s.trail))
			s.enqueue(next, -1)
			continue
		}
		v := s.pickBranchVar()
		if v < 0 {
			s.model = make([]bool, s.nVars)
			for i := range s.nVars {
				s.model[i] = s.vals[2*i] == 1
			}
			s.cancelUntil(0)
			return true, nil
		}
		s.nDecisions++
		s.trailLim = append(s.trailLim, len(s.trail))
		l := int32(2 * v)
		if !s.phase[v] {
			l++
		}
		s.enqueue(l, -1)
	}
}

func (s *cdcl) pickBranchVar() int {
	for s.heap.len() > 0 {
		v := s.heap.pop()
		if s.vals[2*v] == 0 {
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

// boundedQueue keeps the sum of the last size values pushed, for the
// restart policy's moving averages.
type boundedQueue struct {
	buf  []int32
	head int // next slot to overwrite once full
	n    int
	sum  int64
}

func newBoundedQueue(size int) boundedQueue { return boundedQueue{buf: make([]int32, size)} }

func (q *boundedQueue) push(x int32) {
	if q.n == len(q.buf) {
		q.sum -= int64(q.buf[q.head])
	} else {
		q.n++
	}
	q.buf[q.head] = x
	q.sum += int64(x)
	if q.head++; q.head == len(q.buf) {
		q.head = 0
	}
}

func (q *boundedQueue) full() bool { return q.n == len(q.buf) }

func (q *boundedQueue) avg() float64 { return float64(q.sum) / float64(q.n) }

func (q *boundedQueue) clear() { q.n, q.head, q.sum = 0, 0, 0 }
