package factcheck

import "testing"

// TestShorthandLines: compact notes name a line by a short form ("rev",
// "op margin") or its capitalised initials right before a figure of its
// unit ("GM 71.1%", "OM 60.4%", "NI $120.1B"); each figure was unread and
// unverified, right or wrong. Initials elsewhere are not read ("GM" is
// also a company). By the companyfacts JSON, NVIDIA's fiscal 2026: revenue
// $215.938B, gross margin 71.07%, operating margin 60.38%, net income
// $120.067B.
func TestShorthandLines(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "NVDA FY26: rev $215.9B, GM 71.1%, OM 60.4%, NI $120.1B.", []Status{Verified, Verified, Verified, Verified}},
		{ts["NVDA"], "NVDA FY26: rev $195.9B, GM 75.1%, OM 66.4%, NI $110.1B.", []Status{Corrected, Corrected, Corrected, Corrected}},
		{ts["NVDA"], "NVDA FY26 rev $215.9B (+75% Y/Y).", []Status{Verified, Corrected}},
		{ts["AAPL"], "Apple FY25 op margin 32.0%, op income $133.1B.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple FY25 op margin 35.0%.", []Status{Corrected}},
		{ts["AAPL"], "GM sold 6 million vehicles while Apple's revenue was $416.2 billion in fiscal 2025.", []Status{Unverified, Verified}},
	})
}
