package export

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/argue/gradual"
)

var update = flag.Bool("update", false, "rewrite golden files")

// debate is the shape of formal.md's example map: a claim A1 with a
// rebuttal, a supported premise that is undercut, and a supported rebuttal;
// plus a mutual rebuttal A6 <-> A7 under a moderator's note to exercise
// cycles.
func debate(t *testing.T) (*gradual.Graph, map[string]float64) {
	t.Helper()
	g := gradual.NewGraph()
	for _, a := range []gradual.Argument{
		{ID: "A1", Text: "Adopt SQLite for the event store", Side: gradual.Pro},
		{ID: "A2", Text: "Postgres is already operated in production", Side: gradual.Opp},
		{ID: "A3", Text: "Single-file storage keeps deployment trivial", Side: gradual.Pro},
		{ID: "A4", Text: "Ops runbooks assume \"pg_dump\" backups", Side: gradual.Opp},
		{ID: "A5", Text: "Deployment is containerised anyway", Side: gradual.Opp},
		{ID: "A6", Text: "WAL mode handles our write rate", Side: gradual.Pro},
		{ID: "A7", Text: "Write rate will grow 10x", Side: gradual.Opp},
		{ID: "M1", Text: "Load test pending", Side: gradual.Mod},
	} {
		if err := g.Add(a); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []gradual.Relation{
		{From: "A2", To: "A1", Kind: gradual.Rebut},
		{From: "A3", To: "A1", Kind: gradual.Support},
		{From: "A5", To: "A3", Kind: gradual.Undercut},
		{From: "A4", To: "A2", Kind: gradual.Support},
		{From: "A6", To: "A1", Kind: gradual.Support},
		{From: "A7", To: "A6", Kind: gradual.Rebut},
		{From: "A6", To: "A7", Kind: gradual.Rebut},
		{From: "M1", To: "A7", Kind: gradual.Undercut},
	} {
		if err := g.Relate(r); err != nil {
			t.Fatal(err)
		}
	}
	res, err := gradual.Evaluate(context.Background(), g, gradual.Spec, gradual.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, res.Scores
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

func TestGolden(t *testing.T) {
	g, scores := debate(t)
	for _, r := range []struct {
		name string
		fn   func(io.Writer, *gradual.Graph, map[string]float64) error
	}{{"map.dot", DOT}, {"map.argdown", Argdown}, {"map.aif.json", AIF}, {"map.txt", ASCII}} {
		var buf bytes.Buffer
		if err := r.fn(&buf, g, scores); err != nil {
			t.Fatal(err)
		}
		golden(t, r.name, buf.Bytes())
	}
}

// TestAIFStructure checks the AIF invariants independently of the golden
// file: one I-node per argument, one RA per support, one CA per attack,
// and every scheme node with exactly one edge in and one out.
func TestAIFStructure(t *testing.T) {
	g, scores := debate(t)
	var buf bytes.Buffer
	if err := AIF(&buf, g, scores); err != nil {
		t.Fatal(err)
	}
	var doc aifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	for _, n := range doc.Nodes {
		types[n.Type]++
	}
	c := g.Counts()
	if types["I"] != c.Arguments || types["RA"] != c.Supports || types["CA"] != c.Rebuts+c.Undercuts {
		t.Errorf("node types %v for counts %+v", types, c)
	}
	in, out := map[string]int{}, map[string]int{}
	for _, e := range doc.Edges {
		out[e.FromID]++
		in[e.ToID]++
	}
	for _, n := range doc.Nodes {
		if n.Type != "I" && (in[n.NodeID] != 1 || out[n.NodeID] != 1) {
			t.Errorf("scheme node %s has %d in / %d out edges", n.NodeID, in[n.NodeID], out[n.NodeID])
		}
	}
}

func TestNoScores(t *testing.T) {
	g, _ := debate(t)
	var buf bytes.Buffer
	if err := ASCII(&buf, g, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "0.") {
		t.Errorf("scores shown without scores:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "(see above)") {
		t.Errorf("cycle A6<->A7 not cut by a back reference:\n%s", buf.String())
	}
}
