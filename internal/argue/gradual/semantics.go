package gradual

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// Method names a gradual semantics.
type Method string

// Supported gradual semantics.
const (
	// Spec is the additive rule of the formal debate spec:
	// clamp(base + 0.2·Σ supporters − 0.3·Σ rebutters − 0.4·Σ undercutters).
	Spec Method = "spec"
	// DFQuAD is the discontinuity-free QuAD semantics of Rago, Toni,
	// Aurisicchio and Baroni (KR 2016).
	DFQuAD Method = "dfquad"
	// QuadraticEnergy is Potyka's quadratic energy model (KR 2018).
	QuadraticEnergy Method = "qe"
	// EulerBased is the Euler-based semantics of Amgoud and Ben-Naim
	// (ECSQARU 2017).
	EulerBased Method = "euler"
	// HCategorizer is Besnard and Hunter's h-categorizer (2001), weighted
	// by the base score; it ignores supports by definition.
	HCategorizer Method = "hcat"
)

// Methods lists the supported methods.
func Methods() []Method { return []Method{Spec, DFQuAD, QuadraticEnergy, EulerBased, HCategorizer} }

// ParseMethod accepts a method name.
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods() {
		if strings.EqualFold(s, string(m)) {
			return m, nil
		}
	}
	names := make([]string, 0, len(Methods()))
	for _, m := range Methods() {
		names = append(names, string(m))
	}
	return "", fmt.Errorf("gradual: unknown method %q (valid: %s)", s, strings.Join(names, ", "))
}

// Weights of the spec's additive rule. The spec writes e.g.
// "rebut = 0.3 × attacker_score" inside a penalty that already multiplies
// by the attacker's score; we read the weight as the constant 0.3 (a
// linear rule) rather than squaring the attacker's score.
const (
	specRebut    = 0.3
	specUndercut = 0.4
	specSupport  = 0.2
)

// Options tune the iteration used on cyclic parts of a graph. Zero values
// select the defaults.
type Options struct {
	// Damping α in (0,1]: each sweep moves a score α of the way to its
	// update, s ← s + α(f(s) − s). Fixed points are unchanged, but the
	// oscillation that plain iteration shows on cycles dies out.
	// Default 0.5.
	Damping float64
	// Tolerance on the largest score change of a sweep. Default 1e-9.
	Tolerance float64
	// MaxIterations bounds the sweeps per cyclic component. Default 10000.
	MaxIterations int
}

func (o Options) withDefaults() Options {
	if o.Damping <= 0 || o.Damping > 1 {
		o.Damping = 0.5
	}
	if o.Tolerance <= 0 {
		o.Tolerance = 1e-9
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = 10000
	}
	return o
}

// Result holds the scores of an evaluation.
type Result struct {
	Method Method
	Scores map[string]float64 // by argument id, each in [0,1]
	// Converged is false if some cyclic component was still moving by more
	// than the tolerance after MaxIterations sweeps; scores are then the
	// last iterate.
	Converged bool
	// Iterations is the largest number of sweeps any cyclic component
	// needed (0 when the graph is acyclic: one exact pass in topological
	// order suffices).
	Iterations int
	Acyclic    bool
}

// Evaluate scores every argument of g under method m.
//
// Strongly connected components are processed in topological order, so an
// argument is evaluated only after everything that can influence it.
// Acyclic components are exact in one step; cyclic ones are iterated with
// damping until the largest change is below the tolerance. ctx is checked
// between sweeps.
func Evaluate(ctx context.Context, g *Graph, m Method, opts Options) (Result, error) {
	if _, err := ParseMethod(string(m)); err != nil {
		return Result{}, err
	}
	opts = opts.withDefaults()
	n := g.Len()
	score := make([]float64, n)
	for i, a := range g.args {
		score[i] = a.Base
	}
	res := Result{Method: m, Converged: true, Acyclic: true}
	for _, comp := range g.components() {
		cyclic := len(comp) > 1
		if !cyclic {
			score[comp[0]] = clamp(g.update(m, comp[0], score))
			continue
		}
		res.Acyclic = false
		converged := false
		it := 0
		for it < opts.MaxIterations && !converged {
			if err := ctx.Err(); err != nil {
				return Result{}, fmt.Errorf("gradual: %s evaluation stopped after %d sweeps: %w", m, it, err)
			}
			it++
			// Jacobi sweep: all updates read the previous iterate, so the
			// result does not depend on the order of arguments.
			next := make([]float64, len(comp))
			for k, i := range comp {
				next[k] = clamp(score[i] + opts.Damping*(g.update(m, i, score)-score[i]))
			}
			delta := 0.0
			for k, i := range comp {
				delta = math.Max(delta, math.Abs(next[k]-score[i]))
				score[i] = next[k]
			}
			converged = delta < opts.Tolerance
		}
		res.Iterations = max(res.Iterations, it)
		res.Converged = res.Converged && converged
	}
	res.Scores = make(map[string]float64, n)
	for i, a := range g.args {
		res.Scores[a.ID] = score[i]
	}
	return res, nil
}

// update computes argument i's new score from the current scores of its
// attackers and supporters.
func (g *Graph) update(m Method, i int, s []float64) float64 {
	w := g.args[i].Base
	switch m {
	case Spec:
		v := w
		for _, e := range g.in[i] {
			switch e.kind {
			case Support:
				v += specSupport * s[e.peer]
			case Rebut:
				v -= specRebut * s[e.peer]
			case Undercut:
				v -= specUndercut * s[e.peer]
			}
		}
		return v
	case DFQuAD:
		// F(v1..vn) = 1 − Π(1 − vi) aggregates each side; the combination
		// moves the base towards 0 or 1 by the difference.
		att, sup := 1.0, 1.0
		for _, e := range g.in[i] {
			if e.kind == Support {
				sup *= 1 - s[e.peer]
			} else {
				att *= 1 - s[e.peer]
			}
		}
		va, vs := 1-att, 1-sup
		switch {
		case va >= vs:
			return w - w*(va-vs)
		default:
			return w + (1-w)*(vs-va)
		}
	case QuadraticEnergy, EulerBased:
		energy := 0.0 // Σ supporters − Σ attackers
		for _, e := range g.in[i] {
			if e.kind == Support {
				energy += s[e.peer]
			} else {
				energy -= s[e.peer]
			}
		}
		if m == EulerBased {
			return 1 - (1-w*w)/(1+w*math.Exp(energy))
		}
		h := func(x float64) float64 { x = max(x, 0); return x * x / (1 + x*x) }
		return w - w*h(-energy) + (1-w)*h(energy)
	case HCategorizer:
		sum := 0.0
		for _, e := range g.in[i] {
			if e.kind.IsAttack() {
				sum += s[e.peer]
			}
		}
		return w / (1 + sum)
	}
	panic("gradual: unreachable method " + string(m))
}

func clamp(x float64) float64 { return min(1, max(0, x)) }

// components returns the strongly connected components of the relation
// graph in topological order (sources first), using Tarjan's algorithm
// iteratively so that deep debate chains cannot overflow the stack.
func (g *Graph) components() [][]int {
	n := g.Len()
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var sccStack []int
	next := 0
	type frame struct{ v, e int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		sccStack = append(sccStack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.e < len(g.out[f.v]) {
				w := g.out[f.v][f.e].peer
				f.e++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					sccStack = append(sccStack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := sccStack[len(sccStack)-1]
					sccStack = sccStack[:len(sccStack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				comps = append(comps, comp)
			}
		}
	}
	// Tarjan emits components in reverse topological order of the edge
	// direction (sinks first); influence flows along edges, so reverse.
	for i, j := 0, len(comps)-1; i < j; i, j = i+1, j-1 {
		comps[i], comps[j] = comps[j], comps[i]
	}
	return comps
}
