package bullbear_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// lossOptions are the options the CLI would store for the synthetic
// loss-maker (losses, negative equity after buybacks, no dei share count;
// ../../sec/xbrl/testdata/synthetic/README.md).
func lossOptions(t *testing.T) bullbear.Options {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "sec", "xbrl", "testdata", "synthetic", "loss_CIK0009000006.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&bullbear.Analyzer{}).Report(raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := bullbear.Options{Ticker: "LOSS", Company: "SYNTHETIC BUYBACK AND LOSS CO", CIK: "0009000006", FiscalYear: rep.Financials.FiscalYear,
		Figures: bullbear.Figures(rep), Data: "synthetic companyfacts fixture", Offline: true}
	cf, err := xbrl.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if o.Facts, err = factcheck.BuildTable(cf, o.Ticker, o.FiscalYear, 0); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestLossMakerFactCheckGolden: the report's fact check of a debate on a
// company that made a loss, with figures written as models write them: a
// loss stated as a profit, a loss in accountant's parentheses, a range, a
// figure in euros, a P/E of a loss, a half-year figure.
func TestLossMakerFactCheckGolden(t *testing.T) {
	bull := "Bull case:\n" +
		"- Revenue of $740-760 million in fiscal 2024 holds up (10-K FY2024).\n" + // right: a range around $750M
		"- Diluted EPS was $(0.62) in FY2024, and the net loss of $120 million is shrinking.\n" + // right, right
		"- Net income was $120 million in FY2024 (10-K FY2024)." // wrong sign
	bear := "Bear case:\n" +
		"- Revenue fell (6.3%) in fiscal 2024 to €750 million.\n" + // right; euros unverified
		"- The stock trades at a P/E of 15, rich for a loss-maker.\n" + // a P/E of a loss
		"- First-half revenue was $360 million." // a half year: unverified
	f := newFixture(t, lossOptions(t),
		script.Rule{Tag: "opening/bull", Reply: &script.Reply{Text: bull}},
		script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: bear}},
	)
	s := f.MustRun()
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(doc, "## 🔎 FACT CHECK")
	if i < 0 {
		t.Fatalf("no fact check in:\n%s", doc)
	}
	section := doc[i:]
	if j := strings.Index(section[1:], "\n## "); j >= 0 {
		section = section[:j+2]
	}
	formattest.Golden(t, "testdata/lossmaker.factcheck.md", section)
	for _, bad := range []string{"NaN", "Inf", "$-"} {
		if strings.Contains(doc, bad) {
			t.Errorf("report shows %q", bad)
		}
	}
}
