package bullbear_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/sectools"
)

// TestFactsToolSplitAdjusted: the facts tool states per-share figures and
// share counts on the basis the fact check holds them to, restated for
// every later stock split as the later filings state the years they cover,
// with the figure as filed and the split beside it. It showed NVIDIA's
// fiscal 2022 diluted EPS as filed before its 2024 10-for-1 split ($3.85,
// beside fiscal 2023's restated $0.17), which the fact check corrects to
// $0.39: a debater quoting the tool faithfully was corrected. Every
// figure a share the tool now gives for fiscal 2022 to 2026 is verified by
// the fact check.
func TestFactsToolSplitAdjusted(t *testing.T) {
	r, _ := nvdaTools(t)
	table := nvdaFacts(t).Facts
	var out struct {
		Facts []sectools.Fact `json:"facts"`
	}
	call(t, r, sectools.NameFacts, `{"concepts":["EarningsPerShareDiluted","WeightedAverageNumberOfDilutedSharesOutstanding"],"limit":5}`, &out)
	byKey := map[string]sectools.Fact{}
	for _, f := range out.Facts {
		byKey[fmt.Sprintf("%s/%d", f.Concept, f.FiscalYear)] = f
	}
	eps22, sh22 := byKey["EarningsPerShareDiluted/2022"], byKey["WeightedAverageNumberOfDilutedSharesOutstanding/2022"]
	if math.Abs(eps22.Value-0.385) > 1e-9 || eps22.AsReported != 3.85 || !strings.Contains(eps22.Basis, "split-adjusted") || !strings.Contains(eps22.Basis, "10-for-1") {
		t.Errorf("FY2022 diluted EPS: %+v; want 0.385 split-adjusted, 3.85 as reported", eps22)
	}
	if math.Abs(sh22.Value-25.35e9) > 1 || sh22.AsReported != 2.535e9 || !strings.Contains(sh22.Basis, "split-adjusted") {
		t.Errorf("FY2022 diluted shares: %+v; want 25.35B split-adjusted, 2.535B as reported", sh22)
	}
	if eps26 := byKey["EarningsPerShareDiluted/2026"]; eps26.Value != 4.9 || eps26.AsReported != 0 || !strings.HasPrefix(eps26.Basis, "as reported") {
		t.Errorf("FY2026 diluted EPS: %+v; want 4.90 as reported, no later split", eps26)
	}
	for _, f := range out.Facts {
		if !strings.HasPrefix(f.Concept, "EarningsPerShareDiluted") {
			continue
		}
		c := factcheck.Claim{Metric: "eps_diluted", Period: fmt.Sprintf("FY%d", f.FiscalYear), Value: jsonNumber(f.Value), Unit: "usd_per_share"}
		if got := table.CheckClaim(c); got.Status != factcheck.Verified {
			t.Errorf("the tool's FY%d diluted EPS %v: %s (%s), want verified", f.FiscalYear, f.Value, got.Status, got.Reason)
		}
	}
}

func jsonNumber(v float64) json.Number { return json.Number(fmt.Sprint(v)) }
