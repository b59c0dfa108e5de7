package bullbear_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// nvdaFacts are the options with the reference facts the CLI stores.
func nvdaFacts(t *testing.T) bullbear.Options {
	t.Helper()
	o := nvdaOptions(t)
	snap := snapshot.New()
	c, _ := snap.Lookup(context.Background(), "NVDA")
	raw, err := snap.CompanyFacts(context.Background(), c.CIK)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.Parse(bytes.NewReader(raw.Body))
	if err != nil {
		t.Fatal(err)
	}
	if o.Facts, err = factcheck.BuildTable(cf, "NVDA", o.FiscalYear, o.SIC); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestPlantedFiguresCaught: figures stated in prose and in claims, right and
// wrong, in research notes, openings and rebuttals are all checked; the
// wrong ones reach the reconciliations and the report, quoting the agent; a
// wrong figure the synthesis repeats is corrected inline, and no right one
// is flagged.
func TestPlantedFiguresCaught(t *testing.T) {
	bull := "Bull case:\n" +
		"- NVIDIA's revenue was $215.9 billion in fiscal 2025, a record (10-K).\n" + // wrong year
		"- Net income for fiscal 2026 came to $120.1 billion (10-K FY2026).\n" + // right
		"- Gross margin: 71.1% in FY2026 (10-K FY2026).\n" + // right
		`<claims>[{"metric": "eps_diluted", "period": "FY2026", "value": 5.40}]</claims>` // wrong claim
	bear := "Bear case:\n" +
		"- Revenue fell 65.5% in fiscal 2026 as demand cooled (10-K FY2026).\n" + // wrong direction
		"- Cost of revenue was $62.5 billion in fiscal 2026 (10-K FY2026).\n" + // right
		"- The stock trades at 45x earnings."
	syn := synthesisJSON(7, "STRONG BULL")
	var m map[string]any
	_ = json.Unmarshal(syn, &m)
	m["summary"] = "The company earned $112.5 billion of net income in fiscal 2026, and cost of revenue was $62.5 billion."
	synBytes, _ := json.Marshal(m)
	f := newFixture(t, nvdaFacts(t),
		script.Rule{Tag: "research/bull", Reply: &script.Reply{Text: "Research: operating cash flow of $102.7 billion in FY2026."}},
		script.Rule{Tag: "opening/bull", Reply: &script.Reply{Text: bull}},
		script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: bear}},
		script.Rule{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: synBytes}},
	)
	s := f.MustRun()
	var check, synCheck string
	for _, n := range s.Notes {
		switch n.Kind {
		case "bullbear.fact_check":
			check = n.Text
		case "bullbear.synthesis_check":
			synCheck = n.Text
		}
	}
	for _, want := range []string{"3 corrected", "right figure, wrong period", "stated as a decline", "diluted EPS"} {
		if !strings.Contains(check, want) {
			t.Errorf("fact check note lacks %q:\n%s", want, check)
		}
	}
	if !strings.Contains(synCheck, "1 corrected") {
		t.Errorf("synthesis check: %s", synCheck)
	}
	if s.Completed("reconcile/bull") == nil || s.Completed("reconcile/bear") == nil {
		t.Error("the corrections were not reconciled")
	}
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## 🔎 FACT CHECK",
		`Bull said: "- NVIDIA's revenue was $215.9 billion in fiscal 2025, a record (10-K)."`,
		"per the filing, revenue FY2025 was $130.5B",
		"$112.5 billion of net income in fiscal 2026, and cost of revenue was $62.5 billion. [Fact check: $112.5 billion is wrong",
		"market data",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	for _, right := range []string{"$120.1 billion", "71.1%", "$62.5 billion is wrong", "$102.7 billion is wrong"} {
		if strings.Contains(check+synCheck, "cited "+right) || strings.Contains(doc, right+" is wrong") {
			t.Errorf("a right figure was flagged: %s", right)
		}
	}
	full, _ := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if strings.Contains(full, "<claims>") {
		t.Error("the claims block is shown in the transcript")
	}
}

// TestTableFigureMarkedAfterTable: a wrong figure of a table in the
// synthesis is marked after its table, where the reader sees it, as a
// wrong figure of its prose is marked after its sentence; the table keeps
// its rows.
func TestTableFigureMarkedAfterTable(t *testing.T) {
	syn := synthesisJSON(7, "STRONG BULL")
	var m map[string]any
	_ = json.Unmarshal(syn, &m)
	table := "| Metric | FY2026 | FY2025 |\n|---|---|---|\n| Revenue | $215.9B | $120.5B |\n| Net income | $120.1B | $72.9B |"
	m["summary"] = "Key figures:\n\n" + table + "\nThe bull case rests on these."
	synBytes, _ := json.Marshal(m)
	f := newFixture(t, nvdaFacts(t), script.Rule{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: synBytes}})
	s := f.MustRun()
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	want := table + "\n\n[Fact check: $120.5B is wrong"
	if !strings.Contains(doc, want) {
		t.Errorf("report lacks the table followed by its correction %q:\n%s", want, doc)
	}
	if strings.Contains(doc, "$215.9B is wrong") || strings.Contains(doc, "$72.9B is wrong") {
		t.Errorf("a right figure of the table was flagged:\n%s", doc)
	}
	if !strings.Contains(doc, ".]\n\nThe bull case rests on these.") {
		t.Errorf("the text after the table is not a paragraph of its own:\n%s", doc)
	}
	// The findings list quotes the row the moderator wrote, not the
	// sentence the check wrote for its figure.
	full, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{doc, full} {
		if !strings.Contains(d, `said: "| Revenue | $215.9B | $120.5B |". $120.5B:`) || strings.Contains(d, "Revenue FY2025: $120.5B") {
			t.Errorf("the findings list does not quote the table row:\n%s", d)
		}
	}
}
