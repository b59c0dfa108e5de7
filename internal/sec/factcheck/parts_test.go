package factcheck

import "testing"

// TestPartsOfTheCompany: a share of revenue is never read as revenue growth,
// a profit line "N% of revenue" is its margin, and a segment's, product's
// or region's figure is not held to the company total; the company's own
// figures still are.
func TestPartsOfTheCompany(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		ticker, text string
		status       Status
		metric       Metric
	}{
		{"NVDA", "China is 13% of sales.", Unverified, ""},
		{"NVDA", "Data Center accounted for 88% of revenue in fiscal 2026.", Unverified, ""},
		{"NVDA", "The top customer represented 12% of total revenue.", Unverified, ""},
		{"AAPL", "iPhone made up 52% of net sales in fiscal 2024.", Unverified, ""},
		// R&D "N% of revenue" is the analysis's R&D-to-revenue ratio (NVIDIA's
		// 10% is FY2025's, not the latest year's).
		{"NVDA", "Research and development was 10% of revenue.", Corrected, RDIntensity},
		{"GOOGL", "Google Cloud revenue rose 31% in 2024.", Unverified, revenueGrowth()},
		{"AAPL", "In fiscal 2024 the Services revenue grew 13%.", Unverified, revenueGrowth()},
		{"NVDA", "Operating income was 60.4% of revenue in FY2026.", Verified, OperatingMargin},
		{"NVDA", "Operating income was 45% of revenue in FY2026.", Corrected, OperatingMargin},
		{"NVDA", "Revenue grew 65.5% in FY2026.", Verified, revenueGrowth()},
		{"NVDA", "NVIDIA's revenue grew 65.5% in FY2026.", Verified, revenueGrowth()},
		{"NVDA", "Strong revenue growth of 65.5% in FY2026.", Verified, revenueGrowth()},
		{"NVDA", "Total revenue grew 13% in FY2026.", Corrected, revenueGrowth()},
	} {
		fs := ts[tc.ticker].Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.status || tc.metric != "" && fs[0].Metric != tc.metric {
			t.Errorf("%s %q → %s; want %s %s", tc.ticker, tc.text, describe(fs), tc.status, tc.metric)
		}
	}
}

func revenueGrowth() Metric { return Growth(Revenue) }

// TestChangeFromBase: in "fell to X from Y" with no period stated, Y is the
// year before's figure.
func TestChangeFromBase(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"Gross margin fell to 71.1% from 75.0%.", []Status{Verified, Verified}},
		{"Revenue rose to $215.9 billion from $130.5 billion.", []Status{Verified, Verified}},
		{"Revenue rose to $215.9 billion from $60.9 billion.", []Status{Verified, Corrected}},
		{"Data center revenue grew 142% in fiscal 2025.", []Status{Unverified}},
		{"Meanwhile revenue grew 65.5% in FY2026.", []Status{Verified}},
	} {
		fs := ts["NVDA"].Check(tc.text)
		got := statusesOf(fs)
		if len(got) != len(tc.want) || !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s; want %v", tc.text, describe(fs), tc.want)
		}
	}
}

// statusesOf lists the findings' statuses in order.
func statusesOf(fs []Finding) []Status {
	var out []Status
	for _, f := range fs {
		out = append(out, f.Status)
	}
	return out
}

func equalStatuses(a, b []Status) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
