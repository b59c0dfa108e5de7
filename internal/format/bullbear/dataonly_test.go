package bullbear_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// dataOnlyDebate runs a whole NVDA debate with no model: every agent is a
// data-only responder.
func dataOnlyDebate(t *testing.T, o bullbear.Options) (*debate.State, string) {
	t.Helper()
	rep, data := nvda(t)
	return dataOnlyDebateOf(t, o, rep, data)
}

// dataOnlyDebateOf runs a data-only debate on o with the data-only agents
// arguing from rep and data, and renders its report.
func dataOnlyDebateOf(t *testing.T, o bullbear.Options, rep *analysis.Report, data string) (*debate.State, string) {
	t.Helper()
	store := memstore.New()
	t.Cleanup(func() { _ = store.Close() })
	r := &debate.Runner{Store: store, Now: func() time.Time { return created },
		Cast: debate.Cast{Responders: bullbear.NewDataAgents(analysis.Assess(rep), data).Responders()}}
	raw := formattest.JSON(o)
	proto, err := bullbear.Format{}.Protocol(o.Ticker, raw)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := r.Create(ctx, "DEB-data", debate.Created{Format: bullbear.Name, Topic: o.Ticker, Options: raw, Limits: debate.DefaultLimits()}); err != nil {
		t.Fatal(err)
	}
	s, err := r.Run(ctx, "DEB-data", proto)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, doc
}

func TestDataOnlyDebateOnNVDASnapshot(t *testing.T) {
	o := nvdaOptions(t)
	o.Deep = true
	o.Hints = []bullbear.Hint{{Target: "bear", Text: "mention export controls"}}
	s, doc := dataOnlyDebate(t, o)
	if op := s.Completed("opening/bear"); !strings.Contains(op.Text, `USER HINT received: "mention export controls"`) || len(bullbear.Points(op.Text)) < bullbear.MinPoints {
		t.Errorf("bear opening does not acknowledge its hint:\n%s", op.Text)
	}
	if s.Status != debate.StatusCompleted {
		t.Fatalf("status %s", s.Status)
	}
	for _, tu := range s.CompletedTurns() {
		if !tu.NoLLM || tu.Invalid != "" || len(tu.Repairs) > 0 {
			t.Errorf("%s: NoLLM=%v invalid=%q repairs=%d", tu.ID, tu.NoLLM, tu.Invalid, len(tu.Repairs))
		}
		if tu.Agent != "moderator" && !strings.HasPrefix(tu.Text, "No LLM was used") {
			t.Errorf("%s does not say that no LLM was used:\n%s", tu.ID, tu.Text)
		}
	}
	r := result(t, s)
	if !r.NoLLM || r.Synthesis == nil || len(r.Discrepancies) != 0 {
		t.Fatalf("result = %+v", r)
	}
	// Pinned figures of NVIDIA's FY2026 10-K (accession 0001045810-26-000021)
	// as recorded in the snapshot: revenue $215,938M, up 65.5% from $130,497M.
	for _, want := range []string{
		"**No LLM was used.**",
		"**Data:** offline snapshot recorded 2026-07-09",
		"Revenue: $215,938M in FY2026 (10-K 0001045810-26-000021)",
		"Revenue growth (YoY) of 65.5% in FY2026 (10-K 0001045810-26-000021)",
		"Operating margin of 60.4% in FY2026",
		"**Conviction: 7/10 STRONG BULL**",
		"7/10 because revenue growth (YoY) (65.5%) and operating margin (60.4%) outweigh",
		"Would be 8/10 if cash conversion (OCF / net income) rises above 1.00x (now 0.86x).",
		"**Bull thesis breaks if:** gross margin falls to 40.0% or below (now 71.1%)",
		"## ⚔️ KEY CONTENTIONS (4)",
		"#### Bear rebuttal, round 2 (data-only, no LLM)",
		"Fact check: ",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("rendered debate lacks %q", want)
		}
	}
	if !strings.Contains(doc, "[Revenues 2026-01-25; Revenues 2025-01-26]") {
		t.Error("citations lack the XBRL tag and period")
	}
	// The bear's rebuttal quotes the bull's opening point, word for word.
	if reb := s.Completed("rebuttal/1/bear"); !strings.Contains(reb.Text, "> Revenue growth (YoY) of 65.5% in FY2026") {
		t.Errorf("bear rebuttal:\n%s", reb.Text)
	}
	// Deterministic: the same data give the same debate.
	_, again := dataOnlyDebate(t, o)
	if again != doc {
		t.Error("two data-only debates on the same data differ")
	}
	bear := result(t, s).Synthesis.BearCase
	if len(bear) < bullbear.MinPoints || len(bear) > bullbear.MaxPoints {
		t.Errorf("bear case has %d points, want 3-5 (forced balance)", len(bear))
	}
}

// TestDataOnlyResearchSaysWhyNotScored: on a loss-maker with negative
// equity filed as a bank, the research note lists each metric it could not
// score with the analysis's reason, not a generic "missing data".
func TestDataOnlyResearchSaysWhyNotScored(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "sec", "xbrl", "testdata", "synthetic", "loss_CIK0009000006.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&bullbear.Analyzer{SIC: 6022}).Report(raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	ev := analysis.Assess(rep)
	text, err := bullbear.NewDataAgents(ev, "synthetic").Respond(context.Background(), &debate.State{},
		debate.TurnSpec{TurnRef: debate.TurnRef{ID: "research/bear", Agent: bullbear.AgentBear}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- roe not available: StockholdersEquity FY2024 is -$300.0M, not positive, so return on equity is not meaningful\n",
		"- cash_conversion not available: NetIncome FY2024 is -$120.0M, not positive",
		"- piotroski_f_score not available: only 4 of 9 Piotroski criteria had data (roa_improving: missing [TotalAssets FY2022]",
		"- altman_z not available: Altman Z'': the model does not apply to banks, lenders, brokers and insurers (SIC 6022)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("research note lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "missing data)") {
		t.Errorf("research note gives a generic reason:\n%s", text)
	}
	if n := strings.Count(text, " not available: "); n != len(ev.Unscored) {
		t.Errorf("%d metrics listed as not available, want %d", n, len(ev.Unscored))
	}
}
