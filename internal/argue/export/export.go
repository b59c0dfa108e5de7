// Package export renders a bipolar argumentation graph (gradual.Graph) for
// people and other tools: Graphviz DOT, Argdown, AIF JSON (the Argument
// Interchange Format as used by AIFdb) and an ASCII argument map for the
// terminal report of the formal debate format.
//
// Every renderer takes optional scores (nil for none), keyed by argument id,
// as produced by gradual.Evaluate. Output is deterministic: arguments and
// relations appear in the graph's insertion order.
package export

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/argue/gradual"
)

func scoreText(scores map[string]float64, id string) string {
	s, ok := scores[id]
	if !ok {
		return ""
	}
	return strconv.FormatFloat(s, 'f', 2, 64)
}

// DOT writes the graph in Graphviz DOT. Nodes are coloured by side (PRO
// green, OPP red, MOD grey); supports are solid green, rebuttals solid red
// and undercuts dashed red, so the Pollock distinction stays visible.
func DOT(w io.Writer, g *gradual.Graph, scores map[string]float64) error {
	var b strings.Builder
	b.WriteString("digraph argumentation {\n  rankdir=BT;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n")
	for _, a := range g.Arguments() {
		label := a.ID
		if a.Side != "" {
			label += " (" + string(a.Side) + ")"
		}
		if s := scoreText(scores, a.ID); s != "" {
			label += " " + s
		}
		if a.Text != "" {
			label += "\n" + a.Text
		}
		fmt.Fprintf(&b, "  %s [label=%s, fillcolor=%q];\n", dotID(a.ID), dotID(label), sideColour(a.Side))
	}
	for _, r := range g.Relations() {
		style := map[gradual.Kind]string{
			gradual.Support:  `color="darkgreen", label="support"`,
			gradual.Rebut:    `color="red3", label="rebut"`,
			gradual.Undercut: `color="red3", style=dashed, label="undercut"`,
		}[r.Kind]
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", dotID(r.From), dotID(r.To), style)
	}
	b.WriteString("}\n")
	return write(w, "dot", b.String())
}

// dotID quotes s as a DOT string; strconv.Quote's escapes (\" \\ \n) are
// the ones DOT understands for labels.
func dotID(s string) string { return strconv.Quote(s) }

func sideColour(s gradual.Side) string {
	switch s {
	case gradual.Pro:
		return "#d9f2d9"
	case gradual.Opp:
		return "#f7d6d6"
	default:
		return "#e6e6e6"
	}
}

// Argdown writes the graph in Argdown syntax: each argument once as
// "<ID>: text #side {score: …}", then, per target, its incoming relations
// as "<+" (support), "<-" (rebut) and "<_" (undercut).
func Argdown(w io.Writer, g *gradual.Graph, scores map[string]float64) error {
	var b strings.Builder
	b.WriteString("===\ntitle: Parley argument map\n===\n\n")
	for _, a := range g.Arguments() {
		fmt.Fprintf(&b, "<%s>: %s", argdownTitle(a.ID), oneLine(a.Text))
		if a.Side != "" {
			fmt.Fprintf(&b, " #%s", strings.ToLower(string(a.Side)))
		}
		meta := []string{}
		if a.Side != "" {
			meta = append(meta, "side: "+string(a.Side))
		}
		if s := scoreText(scores, a.ID); s != "" {
			meta = append(meta, "score: "+s)
		}
		if len(meta) > 0 {
			fmt.Fprintf(&b, " {%s}", strings.Join(meta, ", "))
		}
		b.WriteString("\n")
	}
	rels := g.Relations()
	for _, a := range g.Arguments() {
		first := true
		for _, r := range rels {
			if r.To != a.ID {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n<%s>\n", argdownTitle(a.ID))
				first = false
			}
			op := map[gradual.Kind]string{gradual.Support: "<+", gradual.Rebut: "<-", gradual.Undercut: "<_"}[r.Kind]
			fmt.Fprintf(&b, "  %s <%s>\n", op, argdownTitle(r.From))
		}
	}
	return write(w, "argdown", b.String())
}

// argdownTitle drops the characters that end an Argdown title.
func argdownTitle(s string) string {
	return strings.NewReplacer("<", "(", ">", ")", "\n", " ").Replace(s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// aifNode and aifEdge follow the AIFdb JSON layout ({"nodes", "edges",
// "locutions"}); side, score and argID are Parley extensions that AIF
// consumers ignore.
type aifNode struct {
	NodeID string   `json:"nodeID"`
	Text   string   `json:"text"`
	Type   string   `json:"type"`
	ArgID  string   `json:"argID,omitempty"`
	Side   string   `json:"side,omitempty"`
	Score  *float64 `json:"score,omitempty"`
}

type aifEdge struct {
	EdgeID string `json:"edgeID"`
	FromID string `json:"fromID"`
	ToID   string `json:"toID"`
}

type aifDoc struct {
	Nodes     []aifNode `json:"nodes"`
	Edges     []aifEdge `json:"edges"`
	Locutions []any     `json:"locutions"`
}

// AIF writes the graph as AIF JSON. Each argument becomes an I-node; each
// support X→Y becomes an RA-node ("Default Inference") with edges X→RA→Y;
// each rebuttal or undercut becomes a CA-node ("Default Rebuttal" /
// "Default Undercut", both conflicts in AIF) with edges X→CA→Y. AIF proper
// aims undercutters at the inference (an RA-node); our graph only records
// the argument attacked, so the CA-node points at its I-node and the
// scheme name keeps the distinction.
func AIF(w io.Writer, g *gradual.Graph, scores map[string]float64) error {
	doc := aifDoc{Nodes: []aifNode{}, Edges: []aifEdge{}, Locutions: []any{}}
	ids := map[string]string{}
	next := 0
	newID := func() string { next++; return strconv.Itoa(next) }
	for _, a := range g.Arguments() {
		n := aifNode{NodeID: newID(), Text: a.Text, Type: "I", ArgID: a.ID, Side: string(a.Side)}
		if s, ok := scores[a.ID]; ok {
			n.Score = &s
		}
		ids[a.ID] = n.NodeID
		doc.Nodes = append(doc.Nodes, n)
	}
	edgeNo := 0
	addEdge := func(from, to string) {
		edgeNo++
		doc.Edges = append(doc.Edges, aifEdge{EdgeID: strconv.Itoa(edgeNo), FromID: from, ToID: to})
	}
	for _, r := range g.Relations() {
		n := aifNode{NodeID: newID()}
		switch r.Kind {
		case gradual.Support:
			n.Type, n.Text = "RA", "Default Inference"
		case gradual.Rebut:
			n.Type, n.Text = "CA", "Default Rebuttal"
		case gradual.Undercut:
			n.Type, n.Text = "CA", "Default Undercut"
		}
		doc.Nodes = append(doc.Nodes, n)
		addEdge(ids[r.From], n.NodeID)
		addEdge(n.NodeID, ids[r.To])
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("export: aif: %w", err)
	}
	return write(w, "aif", string(out)+"\n")
}

// ASCII writes an argument map for a terminal: each root (an argument that
// relates to nothing else, typically the main claim) is printed with the
// tree of arguments bearing on it, every line showing the relation kind,
// id, side, score and text. An argument reached a second time is printed
// as a reference "(see above)", which also cuts cycles.
func ASCII(w io.Writer, g *gradual.Graph, scores map[string]float64) error {
	args := g.Arguments()
	byID := map[string]gradual.Argument{}
	for _, a := range args {
		byID[a.ID] = a
	}
	incoming := map[string][]gradual.Relation{}
	hasOut := map[string]bool{}
	for _, r := range g.Relations() {
		incoming[r.To] = append(incoming[r.To], r)
		hasOut[r.From] = true
	}
	var b strings.Builder
	shown := map[string]bool{}
	node := func(a gradual.Argument) string {
		s := "[" + a.ID
		if a.Side != "" {
			s += " " + string(a.Side)
		}
		if sc := scoreText(scores, a.ID); sc != "" {
			s += " " + sc
		}
		s += "]"
		if t := oneLine(a.Text); t != "" {
			s += " " + t
		}
		return s
	}
	var walk func(id, prefix string)
	walk = func(id, prefix string) {
		rs := incoming[id]
		for i, r := range rs {
			last := i == len(rs)-1
			branch, cont := "├─", "│  "
			if last {
				branch, cont = "└─", "   "
			}
			a := byID[r.From]
			fmt.Fprintf(&b, "%s%s%s── %s", prefix, branch, r.Kind, node(a))
			if shown[a.ID] {
				b.WriteString(" (see above)\n")
				continue
			}
			b.WriteString("\n")
			shown[a.ID] = true
			walk(a.ID, prefix+cont)
		}
	}
	roots := 0
	for _, a := range args {
		if hasOut[a.ID] {
			continue
		}
		if roots > 0 {
			b.WriteString("\n")
		}
		roots++
		shown[a.ID] = true
		b.WriteString(node(a) + "\n")
		walk(a.ID, "")
	}
	// Arguments only reachable inside a cycle have no root; show them too.
	for _, a := range args {
		if shown[a.ID] {
			continue
		}
		if roots > 0 {
			b.WriteString("\n")
		}
		roots++
		shown[a.ID] = true
		b.WriteString(node(a) + " (in a cycle)\n")
		walk(a.ID, "")
	}
	return write(w, "ascii", b.String())
}

func write(w io.Writer, what, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("export: write %s: %w", what, err)
	}
	return nil
}
