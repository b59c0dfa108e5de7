package factcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// syntheticTable builds the table of a fixture of
// ../xbrl/testdata/synthetic (see its README).
func syntheticTable(t *testing.T, name string) *Table {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "xbrl", "testdata", "synthetic", name))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := BuildTable(cf, "X", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestOtherFilers: figures of filers unlike the three shipped ones (a
// retailer naming its year for the year it begins, a June year, a bank, a
// loss-maker with negative equity, a tag switch with restatements) are
// held to their filings' figures for the period as the filer names it.
func TestOtherFilers(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       Status
	}{
		// The retailer's year to 2025-02-02 is its fiscal 2024.
		{"retail_CIK0009000005.json", "Revenue was $159.5 billion in fiscal 2024.", Verified},
		{"retail_CIK0009000005.json", "Revenue was $159.5 billion in FY24.", Verified},
		{"retail_CIK0009000005.json", "Revenue was $159.5 billion in 2024.", Verified},
		{"retail_CIK0009000005.json", "Revenue was $152.7 billion in fiscal 2024.", Corrected},
		{"retail_CIK0009000005.json", "Revenue was $152.7 billion in 2024.", Corrected},
		{"retail_CIK0009000005.json", "Revenue grew 4.5% in fiscal 2024.", Verified},
		{"retail_CIK0009000005.json", "Revenue fell 3% in fiscal 2023.", Verified},
		// A June year: fiscal 2024 ended 2024-06-30; Q2 FY2025 ended in December 2024.
		{"june_CIK0009000004.json", "Revenue was $230 billion in fiscal 2024.", Verified},
		{"june_CIK0009000004.json", "Revenue was $200 billion in fiscal 2024.", Corrected},
		{"june_CIK0009000004.json", "Revenue was $66 billion in Q2 FY2025.", Verified},
		{"june_CIK0009000004.json", "Revenue was $62 billion in Q2 FY2025.", Corrected},
		// A bank's revenue is its net revenue, not its interest income.
		{"bank_CIK0009000001.json", "Revenue was $12.0 billion in 2024.", Verified},
		{"bank_CIK0009000001.json", "Revenue was $19.0 billion in 2024.", Corrected},
		{"smallbank_CIK0009000002.json", "Revenue was $455 million in 2024.", Verified},
		// A bank tagging no revenue at all (net interest and noninterest
		// income only): its profit, EPS and interest income lines are
		// checked, its revenue is unverified. The check
		// refused the whole filer for want of revenue.
		{"norevbank_CIK0009000019.json", "Net income was $1.7 billion in 2024.", Verified},
		{"norevbank_CIK0009000019.json", "Net income was $2.7 billion in 2024.", Corrected},
		{"norevbank_CIK0009000019.json", "Diluted EPS was $3.75 in 2024.", Corrected},
		{"norevbank_CIK0009000019.json", "Revenue was $7.3 billion in 2024.", Unverified},
		{"norevbank_CIK0009000019.json", "Net interest income was $5.1 billion in 2024.", Verified},
		{"norevbank_CIK0009000019.json", "Net interest income was $4.9 billion in 2024.", Corrected},
		// Losses and negative equity.
		{"loss_CIK0009000006.json", "The net loss was $120 million in 2024.", Verified},
		{"loss_CIK0009000006.json", "Net income was $120 million in 2024.", Corrected},
		{"loss_CIK0009000006.json", "Net income was -$120 million in 2024.", Verified},
		{"loss_CIK0009000006.json", "Diluted EPS was $(0.62) in 2024.", Verified},
		{"loss_CIK0009000006.json", "Diluted EPS was $0.62 in 2024.", Corrected},
		{"loss_CIK0009000006.json", "Net margin was -16% in 2024.", Verified},
		{"loss_CIK0009000006.json", "Return on equity was 40% in 2024.", Unverified},
		{"loss_CIK0009000006.json", "Debt to equity was 3.3x in 2024.", Unverified},
		{"loss_CIK0009000006.json", "Revenue grew 6% in 2023.", Unverified},
		// Growth from a loss is undefined: net income went from -$60M to -$120M.
		{"loss_CIK0009000006.json", "Net income fell 100% in 2024.", Unverified},
		{"loss_CIK0009000006.json", "Revenue fell 6.25% in 2024.", Verified},
		// Restatements: the latest filing's figure is the right one.
		{"tagswitch_CIK0009000003.json", "Revenue was $1.395 billion in 2019.", Verified},
		{"tagswitch_CIK0009000003.json", "Revenue was $1.400 billion in 2019.", Corrected},
		{"tagswitch_CIK0009000003.json", "Revenue was $1.31 billion in 2018.", Verified},
	} {
		fs := syntheticTable(t, tc.file).Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%s %q → %s, want %s", tc.file, tc.text, describe(fs), tc.want)
		}
		if strings.Contains(tc.text, "fell 100%") && (len(fs) != 1 || !strings.Contains(fs[0].Reason, "FY2023's net income of -$60.0M is not meaningful")) {
			t.Errorf("%q: reason %s", tc.text, describe(fs))
		}
	}
}
