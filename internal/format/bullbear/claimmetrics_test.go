package bullbear

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/factcheck"
)

// TestPromptClaimMetricsAreChecked: every metric the debaters' prompt
// lists for the claims block is one the fact check reads, its growth too
// where the prompt allows it, and every line the fact check holds is
// listed (a line it holds and the prompt leaves out is never declared).
func TestPromptClaimMetricsAreChecked(t *testing.T) {
	p, err := NewProtocol(Options{Ticker: "NVDA", Company: "NVIDIA"})
	if err != nil {
		t.Fatal(err)
	}
	sys := p.system()
	_, list, ok := strings.Cut(sys, "  metric: ")
	if !ok {
		t.Fatal("the prompt lists no claim metrics")
	}
	list, _, _ = strings.Cut(list, ", or any of")
	var names []string
	for _, n := range strings.Split(list, ",") {
		names = append(names, strings.TrimSpace(n))
	}
	table := &factcheck.Table{Company: "NVDA", LatestFY: 2026}
	for _, n := range names {
		for _, m := range []string{n, n + "_growth"} {
			if u := factcheck.UnitOf(factcheck.Metric(n)); u != factcheck.USD && u != factcheck.USDPerShare && u != factcheck.SharesUnit {
				if m != n {
					continue // a ratio's growth is not asked for
				}
			}
			f := table.CheckClaim(factcheck.Claim{Metric: m, Period: "FY2026", Value: "1", Unit: "percent"})
			if strings.Contains(f.Reason, "unknown metric") {
				t.Errorf("the prompt lists %q, which the fact check does not read: %s", m, f.Reason)
			}
		}
	}
	listed := map[string]bool{}
	for _, n := range names {
		listed[n] = true
	}
	for _, m := range []factcheck.Metric{factcheck.TotalAssets, factcheck.TotalLiabilities, factcheck.Equity, factcheck.PretaxIncome,
		factcheck.IncomeTax, factcheck.EffectiveTaxRate, factcheck.DividendsPerShare, factcheck.ROE, factcheck.ROA,
		// Lines and ratios the fact check came to hold later: each went
		// undeclared, its claims never made.
		factcheck.SGA, factcheck.OperatingExpenses, factcheck.Repurchases, factcheck.DilutedShares, factcheck.BasicShares,
		factcheck.PayoutRatio, factcheck.StatutoryTaxRate, factcheck.NetDebt, factcheck.NetCash, factcheck.CashAndInvestments,
		factcheck.ROAE, factcheck.ROAA, factcheck.DebtToEquity, factcheck.CurrentRatio, factcheck.CashConversion,
		factcheck.RDIntensity, factcheck.AssetTurnover, factcheck.CashTaxesPaid} {
		if !listed[string(m)] {
			t.Errorf("the prompt does not list %q, a line the fact check holds", m)
		}
	}
}
