// Package gradual holds bipolar argumentation frameworks with typed
// relations (rebutting and undercutting attacks, support), as built by the
// formal debate format, and gradual semantics that score every argument in
// [0,1]: the formal spec's own additive rule, DF-QuAD, quadratic energy,
// Euler-based and h-categorizer.
package gradual

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/argue"
)

// Side is the debater who raised an argument.
type Side string

// Debate sides of the formal format.
const (
	Pro Side = "PRO"
	Opp Side = "OPP"
	Mod Side = "MOD"
)

// Kind classifies a relation (Pollock's defeaters plus support).
type Kind string

// Relation kinds.
const (
	Rebut    Kind = "rebut"    // attacks the conclusion
	Undercut Kind = "undercut" // attacks the inference, not the conclusion
	Support  Kind = "support"  // direct support
)

// IsAttack reports whether k is one of the attack kinds.
func (k Kind) IsAttack() bool { return k == Rebut || k == Undercut }

// Argument is a node of a bipolar framework.
type Argument struct {
	ID   string  // short unique id, e.g. "A3"
	Text string  // the claim, as stated in the debate
	Side Side    // who raised it
	Base float64 // intrinsic strength in [0,1]; see Graph.Add
}

// Relation is a typed edge From -> To.
type Relation struct {
	From, To string
	Kind     Kind
}

// Graph is a bipolar argumentation framework ⟨A, R⁻, R⁺⟩ with typed
// relations. Arguments are int-indexed in insertion order; incoming
// relations are indexed per argument because every semantics aggregates
// over attackers and supporters.
type Graph struct {
	args  []Argument
	index map[string]int
	rels  []Relation
	in    [][]edge // in[i] = relations targeting i
	out   [][]edge // out[i] = relations leaving i
	seen  map[Relation]bool
}

type edge struct {
	peer int
	kind Kind
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	return &Graph{index: map[string]int{}, seen: map[Relation]bool{}}
}

// Add adds an argument. A zero Base means "unspecified" and becomes the
// spec's default of 0.5; to give an argument no intrinsic strength use a
// tiny positive value.
func (g *Graph) Add(a Argument) error {
	if a.ID == "" {
		return errors.New("gradual: argument id is empty")
	}
	if _, dup := g.index[a.ID]; dup {
		return fmt.Errorf("gradual: argument %q added twice", a.ID)
	}
	if a.Base == 0 {
		a.Base = 0.5
	}
	if a.Base < 0 || a.Base > 1 {
		return fmt.Errorf("gradual: argument %q has base %v outside [0,1]", a.ID, a.Base)
	}
	switch a.Side {
	case Pro, Opp, Mod, "":
	default:
		return fmt.Errorf("gradual: argument %q has side %q (valid: PRO, OPP, MOD)", a.ID, a.Side)
	}
	g.index[a.ID] = len(g.args)
	g.args = append(g.args, a)
	g.in = append(g.in, nil)
	g.out = append(g.out, nil)
	return nil
}

// Relate adds a relation between two existing arguments. Duplicates are
// ignored; an argument may not relate to itself (a debater cannot support
// or rebut their own claim with itself).
func (g *Graph) Relate(r Relation) error {
	from, ok := g.index[r.From]
	if !ok {
		return fmt.Errorf("gradual: relation %s -%s-> %s: unknown argument %q", r.From, r.Kind, r.To, r.From)
	}
	to, ok := g.index[r.To]
	if !ok {
		return fmt.Errorf("gradual: relation %s -%s-> %s: unknown argument %q", r.From, r.Kind, r.To, r.To)
	}
	if r.Kind != Rebut && r.Kind != Undercut && r.Kind != Support {
		return fmt.Errorf("gradual: relation %s -> %s has kind %q (valid: rebut, undercut, support)", r.From, r.To, r.Kind)
	}
	if from == to {
		return fmt.Errorf("gradual: argument %q cannot relate to itself", r.From)
	}
	if g.seen[r] {
		return nil
	}
	g.seen[r] = true
	g.rels = append(g.rels, r)
	g.in[to] = append(g.in[to], edge{from, r.Kind})
	g.out[from] = append(g.out[from], edge{to, r.Kind})
	return nil
}

// Len returns the number of arguments.
func (g *Graph) Len() int { return len(g.args) }

// Arguments returns the arguments in insertion order (a copy).
func (g *Graph) Arguments() []Argument { return append([]Argument(nil), g.args...) }

// Relations returns the relations in insertion order (a copy).
func (g *Graph) Relations() []Relation { return append([]Relation(nil), g.rels...) }

// Argument returns the argument with the given id.
func (g *Graph) Argument(id string) (Argument, bool) {
	i, ok := g.index[id]
	if !ok {
		return Argument{}, false
	}
	return g.args[i], true
}

// Counts summarises the graph for the report's quality metrics.
type Counts struct {
	Arguments, Rebuts, Undercuts, Supports int
}

// Counts returns the number of arguments and of relations by kind.
func (g *Graph) Counts() Counts {
	c := Counts{Arguments: len(g.args)}
	for _, r := range g.rels {
		switch r.Kind {
		case Rebut:
			c.Rebuts++
		case Undercut:
			c.Undercuts++
		case Support:
			c.Supports++
		}
	}
	return c
}

// Dung returns the attack-only projection as a Dung framework (argument
// names are the ids), so that extension semantics can be applied. With
// derived set, it adds the bipolar derived attacks of the formal spec:
// supported attacks (X supports Y, Y attacks Z ⇒ X attacks Z) and secondary
// attacks (X attacks Y, Y supports Z ⇒ X attacks Z), following support
// chains of any length.
func (g *Graph) Dung(derived bool) *argue.Framework {
	af := argue.New()
	for _, a := range g.args {
		// Ids are unique in g, so AddArgument cannot fail.
		_, _ = af.AddArgument(a.ID)
	}
	for to, es := range g.in {
		for _, e := range es {
			if e.kind.IsAttack() {
				_ = af.AddAttack(e.peer, to)
			}
		}
	}
	if !derived {
		return af
	}
	for x := range g.args {
		// Everything X reaches through supports (X included).
		for _, y := range g.supportReach(x, true) {
			for _, e := range g.out[y] {
				if !e.kind.IsAttack() {
					continue
				}
				// X supports* Y attacks Z: supported attack.
				_ = af.AddAttack(x, e.peer)
				// X attacks Y' and Y' supports* Z: secondary attack (only
				// for the direct attacker of the supported chain's root).
				if y == x {
					for _, z := range g.supportReach(e.peer, false) {
						_ = af.AddAttack(x, z)
					}
				}
			}
		}
	}
	return af
}

// supportReach returns the arguments reachable from x along support edges;
// with self, x itself is included.
func (g *Graph) supportReach(x int, self bool) []int {
	seen := map[int]bool{x: true}
	stack := []int{x}
	var out []int
	if self {
		out = append(out, x)
	}
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.out[y] {
			if e.kind == Support && !seen[e.peer] {
				seen[e.peer] = true
				stack = append(stack, e.peer)
				out = append(out, e.peer)
			}
		}
	}
	return out
}

// String lists the graph compactly, for diagnostics.
func (g *Graph) String() string {
	var b strings.Builder
	for _, r := range g.rels {
		fmt.Fprintf(&b, "%s -%s-> %s\n", r.From, r.Kind, r.To)
	}
	return b.String()
}
