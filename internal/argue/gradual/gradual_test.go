package gradual

import (
	"context"
	"math"
	"strings"
	"testing"
)

// Expected values: we looked for published worked examples of these
// semantics with the search tool but found none quotable (no numeric tables
// of Rago et al. 2016, Potyka 2018 or Amgoud & Ben-Naim 2017 in the indexed
// corpus). Every expected value below is therefore derived by hand from the
// semantics' defining formula on a tiny graph; the derivation is in the
// comment next to it, so a reviewer can redo it with a calculator.

func build(t *testing.T, args []Argument, rels []Relation) *Graph {
	t.Helper()
	g := NewGraph()
	for _, a := range args {
		if err := g.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rels {
		if err := g.Relate(r); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func eval(t *testing.T, g *Graph, m Method, opts Options) Result {
	t.Helper()
	r, err := Evaluate(context.Background(), g, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6 {
		t.Errorf("%s = %.9f, want %.9f", what, got, want)
	}
}

// star: a (base 0.5) attacked by b (0.4) and d (0.5), supported by c (0.8).
func star(t *testing.T, withD bool) *Graph {
	args := []Argument{{ID: "a", Base: 0.5}, {ID: "b", Base: 0.4}, {ID: "c", Base: 0.8}}
	rels := []Relation{{"b", "a", Rebut}, {"c", "a", Support}}
	if withD {
		args = append(args, Argument{ID: "d", Base: 0.5})
		rels = append(rels, Relation{"d", "a", Undercut})
	}
	return build(t, args, rels)
}

func TestDFQuAD(t *testing.T) {
	// Rago et al. 2016: F(v1..vn) = 1 − Π(1 − vi); if va < vs the score is
	// base + (1 − base)(vs − va), else base − base(va − vs).
	// Without d: va = 0.4, vs = 0.8 ⇒ 0.5 + 0.5·0.4 = 0.7.
	r := eval(t, star(t, false), DFQuAD, Options{})
	near(t, "σ(a)", r.Scores["a"], 0.7)
	// With d: va = 1 − 0.6·0.5 = 0.7, vs = 0.8 ⇒ 0.5 + 0.5·0.1 = 0.55.
	r = eval(t, star(t, true), DFQuAD, Options{})
	near(t, "σ(a) with d", r.Scores["a"], 0.55)
	if !r.Acyclic || !r.Converged || r.Iterations != 0 {
		t.Errorf("acyclic graph: got %+v", r)
	}
	// Attack-dominated: only b ⇒ 0.5 − 0.5·0.4 = 0.3.
	g := build(t, []Argument{{ID: "a", Base: 0.5}, {ID: "b", Base: 0.4}}, []Relation{{"b", "a", Rebut}})
	near(t, "σ(a) attack only", eval(t, g, DFQuAD, Options{}).Scores["a"], 0.3)
}

func TestQuadraticEnergy(t *testing.T) {
	// Potyka 2018: E = Σ supporters − Σ attackers, h(x) = max(x,0)²/(1+max(x,0)²),
	// σ = w − w·h(−E) + (1−w)·h(E).
	// Only attacker b: E = −0.4, h(0.4) = 0.16/1.16 ⇒ 0.5 − 0.5·0.137931 = 0.431034.
	g := build(t, []Argument{{ID: "a", Base: 0.5}, {ID: "b", Base: 0.4}}, []Relation{{"b", "a", Rebut}})
	near(t, "σ(a) attacked", eval(t, g, QuadraticEnergy, Options{}).Scores["a"], 0.5-0.5*0.16/1.16)
	// b and supporter c: E = 0.8 − 0.4 = 0.4 ⇒ 0.5 + 0.5·0.137931 = 0.568966.
	near(t, "σ(a) net support", eval(t, star(t, false), QuadraticEnergy, Options{}).Scores["a"], 0.5+0.5*0.16/1.16)
}

func TestEulerBased(t *testing.T) {
	// Amgoud & Ben-Naim 2017: σ = 1 − (1 − w²)/(1 + w·e^E).
	// Only attacker b: E = −0.4 ⇒ 1 − 0.75/(1 + 0.5·e^−0.4) = 0.438270.
	g := build(t, []Argument{{ID: "a", Base: 0.5}, {ID: "b", Base: 0.4}}, []Relation{{"b", "a", Rebut}})
	r := eval(t, g, EulerBased, Options{})
	near(t, "σ(a)", r.Scores["a"], 0.43826958037224717)
	// An unrelated argument keeps its base: 1 − (1 − w²)/(1 + w) = w.
	near(t, "σ(b)", r.Scores["b"], 0.4)
	// With c's support too: E = 0.4 ⇒ 0.570425.
	near(t, "σ(a) supported", eval(t, star(t, false), EulerBased, Options{}).Scores["a"], 0.5704251702517452)
}

func TestHCategorizer(t *testing.T) {
	// Besnard & Hunter 2001: h(a) = 1/(1 + Σ h(attackers)), base 1.
	// Chain c → b → a: h(c) = 1, h(b) = 1/2, h(a) = 1/(1 + 1/2) = 2/3.
	g := build(t, []Argument{{ID: "a", Base: 1}, {ID: "b", Base: 1}, {ID: "c", Base: 1}},
		[]Relation{{"c", "b", Rebut}, {"b", "a", Undercut}})
	r := eval(t, g, HCategorizer, Options{})
	near(t, "h(a)", r.Scores["a"], 2.0/3)
	near(t, "h(b)", r.Scores["b"], 0.5)
	// Mutual attack a ↔ b: h = 1/(1 + h) ⇒ h = (√5 − 1)/2 ≈ 0.618034.
	g = build(t, []Argument{{ID: "a", Base: 1}, {ID: "b", Base: 1}},
		[]Relation{{"a", "b", Rebut}, {"b", "a", Rebut}})
	r = eval(t, g, HCategorizer, Options{})
	near(t, "h(a) in 2-cycle", r.Scores["a"], (math.Sqrt(5)-1)/2)
	if r.Acyclic || !r.Converged || r.Iterations == 0 {
		t.Errorf("cycle: got %+v", r)
	}
	// Supports are ignored by h-categorizer.
	near(t, "h(a) with support only", eval(t, build(t, []Argument{{ID: "a", Base: 1}, {ID: "s", Base: 1}},
		[]Relation{{"s", "a", Support}}), HCategorizer, Options{}).Scores["a"], 1)
}

func TestSpecRule(t *testing.T) {
	// formal.md: base 0.5, + 0.2·supporter, − 0.3·rebutter, − 0.4·undercutter, clamp.
	// A5 undercuts A3: A3 = 0.5 − 0.4·0.5 = 0.3.
	// A3 supports A1, A2 rebuts A1: A1 = 0.5 + 0.2·0.3 − 0.3·0.5 = 0.41.
	g := build(t, []Argument{{ID: "A1", Side: Pro}, {ID: "A2", Side: Opp}, {ID: "A3", Side: Pro}, {ID: "A5", Side: Opp}},
		[]Relation{{"A2", "A1", Rebut}, {"A3", "A1", Support}, {"A5", "A3", Undercut}})
	r := eval(t, g, Spec, Options{})
	near(t, "A3", r.Scores["A3"], 0.3)
	near(t, "A1", r.Scores["A1"], 0.41)
	// Mutual rebuttal: s = 0.5 − 0.3s ⇒ s = 0.5/1.3.
	g = build(t, []Argument{{ID: "x"}, {ID: "y"}}, []Relation{{"x", "y", Rebut}, {"y", "x", Rebut}})
	near(t, "x in cycle", eval(t, g, Spec, Options{}).Scores["x"], 0.5/1.3)
	// Clamping: five undercutters at 0.5 give 0.5 − 5·0.2 < 0 ⇒ 0.
	g = build(t, []Argument{{ID: "t"}}, nil)
	for _, id := range []string{"u1", "u2", "u3", "u4", "u5"} {
		_ = g.Add(Argument{ID: id})
		_ = g.Relate(Relation{id, "t", Undercut})
	}
	near(t, "clamped", eval(t, g, Spec, Options{}).Scores["t"], 0)
}

// TestOscillation shows why damping is needed: under DF-QuAD two arguments
// with base 1 attacking each other flip between (1,1) and (0,0) forever
// when iterated plainly; damped iteration finds the fixed point 0.5
// (σ = 1 − σ').
func TestOscillation(t *testing.T) {
	g := build(t, []Argument{{ID: "a", Base: 1}, {ID: "b", Base: 1}},
		[]Relation{{"a", "b", Rebut}, {"b", "a", Rebut}})
	plain := eval(t, g, DFQuAD, Options{Damping: 1, MaxIterations: 1000})
	if plain.Converged || plain.Iterations != 1000 {
		t.Errorf("undamped: %+v, want no convergence after 1000 sweeps", plain)
	}
	damped := eval(t, g, DFQuAD, Options{})
	if !damped.Converged {
		t.Errorf("damped did not converge: %+v", damped)
	}
	near(t, "σ(a) damped", damped.Scores["a"], 0.5)
}

func TestEvaluateCancelled(t *testing.T) {
	g := build(t, []Argument{{ID: "a"}, {ID: "b"}}, []Relation{{"a", "b", Rebut}, {"b", "a", Rebut}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, g, DFQuAD, Options{}); err == nil {
		t.Error("cancelled context on a cyclic graph: no error")
	}
}

func TestGraphErrors(t *testing.T) {
	g := NewGraph()
	for _, tt := range []struct {
		err  error
		want string
	}{
		{g.Add(Argument{ID: ""}), "empty"},
		{g.Add(Argument{ID: "a", Base: 2}), "outside [0,1]"},
		{g.Add(Argument{ID: "a", Side: "X"}), "valid: PRO, OPP, MOD"},
		{g.Relate(Relation{"a", "b", Rebut}), "unknown argument"},
	} {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("error %v, want it to mention %q", tt.err, tt.want)
		}
	}
	_ = g.Add(Argument{ID: "a"})
	_ = g.Add(Argument{ID: "b"})
	if err := g.Relate(Relation{"a", "b", "agree"}); err == nil || !strings.Contains(err.Error(), "valid: rebut") {
		t.Errorf("bad kind: %v", err)
	}
	if err := g.Relate(Relation{"a", "a", Rebut}); err == nil {
		t.Error("self relation accepted")
	}
	if _, err := ParseMethod("pagerank"); err == nil || !strings.Contains(err.Error(), "dfquad") {
		t.Errorf("ParseMethod: %v", err)
	}
}

func TestDungProjection(t *testing.T) {
	// x supports y, y rebuts z, w undercuts x, x supports v.
	g := build(t, []Argument{{ID: "x"}, {ID: "y"}, {ID: "z"}, {ID: "w"}, {ID: "v"}},
		[]Relation{{"x", "y", Support}, {"y", "z", Rebut}, {"w", "x", Undercut}, {"x", "v", Support}})
	plain := g.Dung(false)
	if plain.NumAttacks() != 2 {
		t.Errorf("plain projection has %d attacks, want 2", plain.NumAttacks())
	}
	d := g.Dung(true)
	idx := func(s string) int { i, _ := d.Index(s); return i }
	for _, at := range [][2]string{{"x", "z"} /* supported */, {"w", "y"}, {"w", "v"} /* secondary */} {
		if !d.Attacked(idx(at[0]), idx(at[1])) {
			t.Errorf("derived attack %s -> %s missing", at[0], at[1])
		}
	}
	if d.NumAttacks() != 5 {
		t.Errorf("derived projection has %d attacks, want 5", d.NumAttacks())
	}
	if c := g.Counts(); c != (Counts{Arguments: 5, Rebuts: 1, Undercuts: 1, Supports: 2}) {
		t.Errorf("Counts = %+v", c)
	}
}

func TestSummarise(t *testing.T) {
	g := build(t, []Argument{{ID: "P1", Side: Pro}, {ID: "P2", Side: Pro}, {ID: "O1", Side: Opp}}, nil)
	got := Summarise(g, map[string]float64{"P1": 0.4, "P2": 0.7, "O1": 0.5})
	if len(got) != 2 || got[0].Side != Pro || got[1].Side != Opp {
		t.Fatalf("sides: %+v", got)
	}
	near(t, "PRO mean", got[0].Mean, 0.55)
	if got[0].Surviving != 1 || got[0].Ranked[0] != "P2" || got[1].Surviving != 0 {
		t.Errorf("summary: %+v", got)
	}
}
