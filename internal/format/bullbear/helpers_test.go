package bullbear_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/snapshot"
)

var created = time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)

// nvda analyses the NVDA companyfacts of the offline snapshot.
func nvda(t testing.TB) (*analysis.Report, string) {
	t.Helper()
	ctx := context.Background()
	snap := snapshot.New()
	c, err := snap.Lookup(ctx, "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := snap.CompanyFacts(ctx, c.CIK)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&bullbear.Analyzer{}).Report(raw.Body, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rep, raw.Provenance.Label()
}

// nvdaOptions are the options the CLI would store for NVDA offline.
func nvdaOptions(t testing.TB) bullbear.Options {
	rep, data := nvda(t)
	return bullbear.Options{Ticker: "NVDA", Company: "NVIDIA CORP", CIK: "0001045810", FiscalYear: rep.Financials.FiscalYear,
		Figures: bullbear.Figures(rep), Data: data, Offline: true}
}

// Scripted texts. The bear's opening has three points; the bull's rebuttal
// quotes its second point word for word.
const (
	bullOpening = `Bull case:
- Revenue grew 65% in FY2026 to lead the market (10-K 0001045810-26-000021)
- Gross margin of 71% shows pricing power (10-K FY2026)
- Operating margin of 60% funds the roadmap (10-K FY2026)`
	bearOpening = `Bear case:
- Operating margins contracted by two points year over year (10-K FY2026)
- Cash conversion of 0.86x means earnings outrun cash (10-K FY2026)
- A handful of hyperscalers buy most of the output (10-K FY2026)`
	bullRebuttal = `The bear says "Cash conversion of 0.86x means earnings outrun cash", but free cash flow margin of 45% (10-K FY2026) shows the cash is there.`
	bearRebuttal = "> Gross margin of 71% shows pricing power\n\nPricing power fades when supply catches up."
)

func synthesisJSON(score int, stance string) json.RawMessage {
	return formattest.JSON(map[string]any{
		"bull_case":   []string{"Revenue grew 65% (10-K FY2026)", "Gross margin of 71%"},
		"bear_case":   []string{"Cash conversion of 0.86x", "Customer concentration"},
		"contentions": []map[string]string{{"topic": "Earnings quality", "bull": "FCF margin of 45%", "bear": "cash conversion below 1x"}, {"topic": "Margins", "bull": "71% gross margin", "bear": "margins contracting"}},
		"consensus":   false, "agreements": []string{},
		"evidence_buckets": []map[string]string{{"bucket": "growth", "favours": "bull", "evidence": "65% revenue growth"}},
		"score":            score,
		"conviction":       "7/10 because growth and margins outweigh weaker cash conversion. Would be 8/10 if cash conversion rises above 1x.",
		"stance":           stance,
		"thesis_breaker":   "Bull thesis breaks if: gross margin falls below 60%",
		"discrepancies":    []string{},
		"summary":          "Most financial metrics favour the bull.",
	})
}

// baseRules script a whole quick debate.
func baseRules() []script.Rule {
	return []script.Rule{
		{Tag: "research/bull", Reply: &script.Reply{Text: "Bull research: revenue, margins and cash flow for FY2026."}},
		{Tag: "research/bear", Reply: &script.Reply{Text: "Bear research: margin trend and cash conversion for FY2026."}},
		{Tag: "opening/bull", Reply: &script.Reply{Text: bullOpening}},
		{Tag: "opening/bear", Reply: &script.Reply{Text: bearOpening}},
		{TagRegexp: "^rebuttal/\\d/bull$", Reply: &script.Reply{Text: bullRebuttal}},
		{TagRegexp: "^rebuttal/\\d/bear$", Reply: &script.Reply{Text: bearRebuttal}},
		{TagPrefix: "reconcile/", Reply: &script.Reply{Text: "I correct my figure to the 10-K's."}},
		{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: synthesisJSON(7, "STRONG BULL")}},
	}
}

type fixture struct {
	*formattest.Debate
	opts bullbear.Options
}

// newFixture runs a bullbear debate on the script provider. Rules given
// first take precedence over baseRules.
func newFixture(t *testing.T, opts bullbear.Options, rules ...script.Rule) *fixture {
	t.Helper()
	d := formattest.New(t, formattest.Setup{Format: bullbear.Format{}, ID: "DEB-bb1", Topic: opts.Ticker, Created: created, Options: opts}, append(rules, baseRules()...)...)
	return &fixture{Debate: d, opts: opts}
}

func result(t *testing.T, s *debate.State) bullbear.Result {
	t.Helper()
	return formattest.Verdict[bullbear.Result](t, s)
}
