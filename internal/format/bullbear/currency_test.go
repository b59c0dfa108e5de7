package bullbear_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// foreignOptions are the options the CLI stores for a synthetic foreign
// filer (../../sec/xbrl/testdata/synthetic/README.md), as setup builds them,
// with the filer's analysis.
func foreignOptions(t *testing.T, file, ticker string) (bullbear.Options, *analysis.Report) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "sec", "xbrl", "testdata", "synthetic", file))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&bullbear.Analyzer{SIC: 3559}).Report(raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := bullbear.Options{Ticker: ticker, Company: rep.Financials.Company, FiscalYear: rep.Financials.FiscalYear,
		Figures: bullbear.Figures(rep), Data: "synthetic companyfacts fixture", Offline: true, Currency: rep.Financials.Currency}
	cf, err := xbrl.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if o.Facts, err = factcheck.BuildTable(cf, o.Ticker, o.FiscalYear, 3559); err != nil {
		t.Fatal(err)
	}
	return o, rep
}

// TestForeignFilerDebate: a debate on a filer reporting in euros shows its
// figures in euros (the key figures, the data-only agents' evidence, the
// fact check's corrections), says so in the report's head, checks amounts
// in euros, and leaves a dollar amount unverified rather than correcting
// it; nothing of the filer's is written as dollars.
func TestForeignFilerDebate(t *testing.T) {
	o, _ := foreignOptions(t, "ifrslitho_CIK0009000021.json", "LITHO")
	bull := "Bull case:\n" +
		"- Revenue reached €28.3 billion in fiscal 2024 (20-F FY2024).\n" + // right
		"- Net income was €8.6 billion in 2024, a 26.8% net margin.\n" + // wrong; right
		"- Diluted EPS was €19.25 in FY2024."
	bear := "Bear case:\n" +
		"- Revenue grew only 2.6% in 2024.\n" + // right
		"- Revenue was $30.5 billion in 2024.\n" + // dollars: unverified
		"- Operating cash flow was EUR 11.2bn in 2024, but free cash flow of 9.1 billion lags." // right; right (no currency: euros)
	f := newFixture(t, o,
		script.Rule{Tag: "opening/bull", Reply: &script.Reply{Text: bull}},
		script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: bear}},
	)
	s := f.MustRun()
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**Currency:** LITHO reports in EUR: its figures are read, shown and checked in EUR (€)",
		"## 📄 KEY FIGURES (per the 20-F)",
		"Revenue: €28,263M in FY2024",
		"per the filing, net income FY2024 was €7.6B",
		"an amount in US dollars: the filer reports its figures in EUR, and the check does not convert currencies",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	i := strings.Index(doc, "## 🔎 FACT CHECK")
	if i < 0 {
		t.Fatalf("no fact check in:\n%s", doc)
	}
	check := doc[i:]
	if j := strings.Index(check, "\n## 💰"); j >= 0 {
		check = check[:j]
	}
	// The agents' euro figures are verified but one, corrected in euros;
	// their dollar figure is unverified.
	if n := strings.Count(check, "- Bull said") + strings.Count(check, "- Bear said"); n != 1 {
		t.Errorf("%d of the agents' figures corrected, want 1:\n%s", n, check)
	}
	for _, bad := range []string{"Bull: €", "Bear: €", "Bear: EUR", "Bear: 9.1", "Bull: 26.8", "Bear: 2.6"} {
		if strings.Contains(check, bad) {
			t.Errorf("fact check leaves %q unverified:\n%s", bad, check)
		}
	}
	// The only dollars are the bear's own.
	if n := strings.Count(doc, "$"); n != strings.Count(doc, "$30.5") {
		t.Errorf("report writes %d dollar signs, %d of them the bear's:\n%s", n, strings.Count(doc, "$30.5"), doc)
	}
	if strings.Contains(doc, "per the 10-K") || !strings.Contains(doc, "per the 20-F, the figure is €7.6B") {
		t.Errorf("a 20-F filer's report cites the 10-K:\n%s", doc)
	}
	if syn := f.Prompt("synthesis/moderator"); !strings.Contains(syn, "FACT CHECK (by Parley, against the 20-F)") {
		t.Errorf("the moderator is not told the figures are the 20-F's:\n%s", syn)
	}
	prompt := f.Prompt("opening/bull")
	if !strings.Contains(prompt, "The company reports in EUR: state its amounts in EUR") {
		t.Errorf("the bull is not told the currency:\n%s", prompt)
	}
}

// TestForeignFilerDataOnly: with no model, the data-only agents argue a
// Taiwan-dollar filer's case from its figures in Taiwan dollars, and their
// own figures pass the fact check.
func TestForeignFilerDataOnly(t *testing.T) {
	o, rep := foreignOptions(t, "ifrstwd_CIK0009000022.json", "FNDY")
	s, doc := dataOnlyDebateOf(t, o, rep, o.Data)
	if s.Status != debate.StatusCompleted {
		t.Fatalf("status %s", s.Status)
	}
	for _, want := range []string{"No LLM was used", "Revenue: NT$2,894,300M in FY2024", "**Currency:** FNDY reports in TWD"} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "corrected:") || strings.Contains(doc, " $") {
		t.Errorf("the data-only agents' figures are corrected, or written in dollars:\n%s", doc)
	}
}

// TestCurrencyLine: the report's head names a foreign filer's currency,
// says which is read for a filer tagging two (a dollar filer's included),
// and says nothing for a filer in dollars alone.
func TestCurrencyLine(t *testing.T) {
	note := "X CO reports its revenue, net income or total assets in EUR as well as in USD; Parley reads its figures in USD"
	for _, tc := range []struct {
		o    bullbear.Options
		want string
	}{
		{bullbear.Options{Ticker: "X", Currency: "DKK"}, "X reports in DKK: its figures are read, shown and checked in DKK (DKK)"},
		{bullbear.Options{Ticker: "X", Currency: "CNY", CurrencyNote: note}, "checked in CNY (CNY), as its filings state them; Parley does not convert currencies, so an amount stated in another currency (US dollars included) is not checked against them. " + note},
		{bullbear.Options{Ticker: "X", CurrencyNote: note}, note},
		{bullbear.Options{Ticker: "X"}, ""},
	} {
		if got := tc.o.CurrencyLine(); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}
