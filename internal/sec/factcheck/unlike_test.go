package factcheck

import (
	"fmt"
	"strings"
	"testing"
)

// jpyFiler is a 20-F filer under IFRS reporting in yen, its fiscal year
// ending 31 March (fiscal 2025 = April 2024 to March 2025): revenue
// ¥42.5 trillion in fiscal 2024 and ¥45.0 trillion in 2025, profit
// attributable to owners ¥4.4 and ¥4.8 trillion, diluted EPS ¥329 and
// ¥359, current assets ¥40 trillion over ¥32 trillion of current
// liabilities.
func jpyFiler(t *testing.T) *Table {
	t.Helper()
	var fs []xf
	for k, filed := range map[int]string{2024: "2024-06-25", 2025: "2025-06-24"} {
		accn := fmt.Sprintf("0009000092-%d-000001", k%100)
		for y := k - 1; y <= k; y++ {
			start, end := fmt.Sprintf("%d-04-01", y-1), fmt.Sprintf("%d-03-31", y)
			i := float64(y - 2023)
			add := func(tag, unit string, v float64) {
				fs = append(fs, xf{tax: "ifrs-full", tag: tag, unit: unit, start: start, end: end, val: v, form: "20-F", filed: filed, accn: accn})
			}
			add("Revenue", "JPY", 40e12+i*2.5e12)
			add("ProfitLossAttributableToOwnersOfParent", "JPY", 4e12+i*0.4e12)
			add("ProfitLoss", "JPY", 4.2e12+i*0.4e12)
			add("BasicEarningsLossPerShare", "JPY/shares", 300+i*30)
			add("DilutedEarningsLossPerShare", "JPY/shares", 299+i*30)
			add("CostOfSales", "JPY", 32e12+i*2e12)
			add("ProfitLossFromOperatingActivities", "JPY", 5e12+i*0.3e12)
			fs = append(fs, xf{tax: "ifrs-full", tag: "Assets", unit: "JPY", end: end, val: 90e12 + i*5e12, form: "20-F", filed: filed, accn: accn},
				xf{tax: "ifrs-full", tag: "Equity", unit: "JPY", end: end, val: 35e12 + i*2e12, form: "20-F", filed: filed, accn: accn},
				xf{tax: "ifrs-full", tag: "CurrentAssets", unit: "JPY", end: end, val: 40e12, form: "20-F", filed: filed, accn: accn},
				xf{tax: "ifrs-full", tag: "CurrentLiabilities", unit: "JPY", end: end, val: 32e12, form: "20-F", filed: filed, accn: accn})
		}
	}
	return cfTable(t, "SYNTHETIC MOTOR KK", fs)
}

// biotech is a loss-making biotech with no revenue: R&D $400M in 2024
// and $450M in 2025, an operating loss of $480M and $540M, a net loss of
// $460M and $520M ($4.50 and $5.00 a share), operating cash flow of
// -$430M and -$480M, capex $10M, cash $900M and $600M, current assets
// $1.0B and $700M over $150M of current liabilities, basic shares 110M
// and 120M.
func biotech(t *testing.T) *Table {
	t.Helper()
	var fs []xf
	for k, filed := range map[int]string{2024: "2025-02-25", 2025: "2026-02-24"} {
		accn := fmt.Sprintf("0009000093-%d-000001", k%100)
		for y := k - 1; y <= k; y++ {
			start, end := fmt.Sprintf("%d-01-01", y), fmt.Sprintf("%d-12-31", y)
			i := float64(y - 2023)
			add := func(tag, unit string, v float64) {
				fs = append(fs, xf{tag: tag, unit: unit, start: start, end: end, val: v, form: "10-K", filed: filed, accn: accn})
			}
			inst := func(tag string, v float64) {
				fs = append(fs, xf{tag: tag, unit: "USD", end: end, val: v, form: "10-K", filed: filed, accn: accn})
			}
			add("Revenues", "USD", 0)
			add("ResearchAndDevelopmentExpense", "USD", 350e6+i*50e6)
			add("OperatingIncomeLoss", "USD", -420e6-i*60e6)
			add("NetIncomeLoss", "USD", -400e6-i*60e6)
			add("EarningsPerShareBasicAndDiluted", "USD/shares", -4.00-i*0.5)
			add("NetCashProvidedByUsedInOperatingActivities", "USD", -380e6-i*50e6)
			add("PaymentsToAcquirePropertyPlantAndEquipment", "USD", 10e6)
			add("WeightedAverageNumberOfSharesOutstandingBasic", "shares", 100e6+i*10e6)
			inst("CashAndCashEquivalentsAtCarryingValue", 1.2e9-i*0.3e9)
			inst("AssetsCurrent", 1.3e9-i*0.3e9)
			inst("LiabilitiesCurrent", 150e6)
			inst("Assets", 1.4e9-i*0.3e9)
			inst("Liabilities", 200e6)
			inst("StockholdersEquity", 1.2e9-i*0.3e9)
		}
	}
	return cfTable(t, "SYNTHETIC THERAPEUTICS INC", fs)
}

// TestCompaniesUnlikeTheShipped: claims a debater makes of filers unlike
// Apple, NVIDIA and Alphabet (a yen IFRS 20-F filer with a March year, a
// biotech with no revenue, a loss-maker with negative equity, banks, a
// figure in thousands): every wrong figure is corrected, every right one
// verified, and a figure the filings cannot settle, or that has no
// meaning for the company, is unverified saying why. A return or a
// leverage ratio on negative equity, a margin of no revenue and a bank's
// current ratio read as missing data, and a stockholders' deficit was
// not read at all, nor a bank's interest income.
func TestCompaniesUnlikeTheShipped(t *testing.T) {
	jp, bio := jpyFiler(t), biotech(t)
	loss := syntheticTable(t, "loss_CIK0009000006.json")
	bank := syntheticTable(t, "bank_CIK0009000001.json")
	sbank := syntheticTable(t, "smallbank_CIK0009000002.json")
	for _, c := range []struct {
		tb     *Table
		text   string
		want   Status
		reason string
	}{
		{jp, "Revenue was ¥45.0 trillion in fiscal 2025.", Verified, ""},
		{jp, "Revenue was 45 trillion yen in fiscal 2025.", Verified, ""},
		{jp, "Revenue was JPY 45.0tn in fiscal 2025.", Verified, ""},
		{jp, "Revenue was ¥45.0 trillion in 2025.", Verified, ""},
		{jp, "Revenue was ¥42.5 trillion in fiscal 2025.", Corrected, "FY2024's"},
		{jp, "Revenue was ¥45.0 trillion in fiscal 2024.", Corrected, "FY2025's"},
		{jp, "Revenue was $45.0 trillion in fiscal 2025.", Unverified, "does not convert currencies"},
		{jp, "Net income was ¥4.8 trillion in fiscal 2025.", Verified, ""},
		{jp, "Net income was ¥5.0 trillion in fiscal 2025.", Corrected, ""},
		{jp, "Diluted EPS was ¥359 in fiscal 2025.", Verified, ""},
		{jp, "Diluted EPS was ¥390 in fiscal 2025.", Corrected, ""},
		{jp, "Revenue grew 5.9% in fiscal 2025.", Verified, ""},
		{jp, "Revenue grew 9% in fiscal 2025.", Corrected, ""},
		{jp, "Operating margin was 12.4% in fiscal 2025.", Verified, ""},
		{jp, "The current ratio was 1.25 in fiscal 2025.", Verified, ""},
		{jp, "The current ratio was 1.3 in fiscal 2025.", Verified, ""},
		{jp, "The current ratio was 1.6 in fiscal 2025.", Corrected, ""},
		{bio, "R&D expense was $450 million in 2025.", Verified, ""},
		{bio, "R&D expense was $400 million in 2025.", Corrected, "FY2024's"},
		{bio, "R&D grew 12.5% in 2025.", Verified, ""},
		{bio, "R&D grew 16.7% in 2025.", Corrected, ""},
		{bio, "The net loss was $520 million in 2025.", Verified, ""},
		{bio, "Net income was $520 million in 2025.", Corrected, "sign is wrong"},
		{bio, "The loss per share was $5.00 in 2025.", Verified, ""},
		{bio, "The loss per share was $4.50 in 2025.", Corrected, ""},
		{bio, "Free cash flow was -$490 million in 2025.", Verified, ""},
		{bio, "Free cash flow was -$540 million in 2025.", Corrected, ""},
		{bio, "The current ratio was 4.7 in 2025.", Verified, ""},
		{bio, "The current ratio was 8.7 in 2025.", Corrected, ""},
		{bio, "Basic shares were 120 million in 2025.", Verified, ""},
		{bio, "Basic shares were 110 million in 2025.", Corrected, ""},
		{bio, "Gross margin was 60% in 2025.", Unverified, "revenue was nil"},
		{bio, "Operating margin was -100% in 2025.", Unverified, "revenue was nil"},
		{bio, "Revenue grew 20% in 2025.", Unverified, "not meaningful"},
		{loss, "Return on equity was 40% in 2024.", Unverified, "not meaningful in FY2024: stockholders' equity was -$300M"},
		{loss, "Debt to equity was -3.3x in 2024.", Unverified, "not meaningful"},
		{loss, "Stockholders' equity was -$300 million at the end of 2024.", Verified, ""},
		{loss, "The stockholders' deficit was $300 million at the end of 2024.", Verified, ""},
		{loss, "The stockholders' deficit was $100 million at the end of 2024.", Corrected, ""},
		{loss, "Stockholders' equity was $300 million at the end of 2024.", Corrected, "stockholders' deficit"},
		{bank, "The current ratio was 1.1 in 2024.", Unverified, "an unclassified balance sheet"},
		{sbank, "Net income was $66 million in 2024.", Verified, ""},
		{sbank, "Net income was $66,000 thousand in 2024.", Verified, ""},
		{sbank, "Net income was $66,000K in 2024.", Verified, ""},
		{sbank, "Net income was $60,000 thousand in 2024.", Corrected, ""},
		{sbank, "Interest income was $455 million in 2024.", Verified, ""},
		{sbank, "Interest income grew 11% in 2024.", Verified, ""},
		{sbank, "Interest income was $410 million in 2024.", Corrected, "FY2023's"},
		{bank, "Interest income was $19.0 billion in 2024.", Verified, ""},
		{bank, "Net interest income was $7.0 billion in 2024.", Unverified, "no net interest income"},
	} {
		fs := c.tb.Check(c.text)
		if len(fs) != 1 || fs[0].Status != c.want || !strings.Contains(fs[0].Reason, c.reason) {
			t.Errorf("%q → %s, want one %s (%q)", c.text, describe(fs), c.want, c.reason)
		}
		if len(fs) == 1 && fs[0].Status == Corrected && (fs[0].Actual == nil || fs[0].Correction() == "") {
			t.Errorf("%q: corrected with no correction: %s", c.text, describe(fs))
		}
	}
}
