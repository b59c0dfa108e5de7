package factcheck

import "testing"

// TestYearCountedBackFromLastYear: "the year before" after "last year"
// counts back from it. "Last year" that opens the sentence is the latest
// fiscal year, as alone; after a figure of the latest it is the year
// before, and "the year before" then the year before that. Each relative
// year was counted from the latest alone, and a right figure corrected.
// Alphabet's diluted EPS: $10.81 in 2025, $8.04 in 2024, $5.80 in 2023;
// NVIDIA's revenue $215.9B in fiscal 2026, $130.5B in 2025, $60.9B in 2024.
func TestYearCountedBackFromLastYear(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["GOOGL"], "Last year's EPS of $10.81 was up 34% from $8.04 the year before.", []Status{Verified, Verified, Verified}},
		{ts["GOOGL"], "Last year's EPS of $8.04 was up 39% from $5.80 the year before.", []Status{Corrected, Corrected, Corrected}},
		{ts["NVDA"], "Revenue last year was $215.9 billion, up from $130.5 billion the year before.", []Status{Verified, Verified}},
		// The first figure nearer the year counted back than "last year"
		// (NVIDIA's free cash flow: $96.7B in fiscal 2026, $60.9B in 2025).
		{ts["NVDA"], "Last year NVIDIA's free cash flow was $96.7 billion, up from $60.9 billion the year before.", []Status{Verified, Verified}},
		{ts["NVDA"], "Last year NVIDIA's free cash flow was $96.7 billion, up from $50.9 billion the year before.", []Status{Verified, Corrected}},
		{ts["GOOGL"], "EPS was $10.81, compared with $8.04 last year and $5.80 the year before.", []Status{Verified, Verified, Verified}},
		{ts["GOOGL"], "EPS was $10.81, compared with $8.04 last year and $8.04 the year before.", []Status{Verified, Verified, Corrected}},
	})
}

// TestYearCountedBackAcrossSentences: a year counted back ("a year
// earlier", "the prior year") with no period in its sentence to count
// from counts from the period of the paragraph's sentence before; with
// none, from the latest fiscal year or the year in progress. It was
// counted from the latest fiscal year alone, and a right figure of the
// year before the one the text was about was corrected. Apple: FY2024
// revenue $391.035B, FY2023 $383.285B; Q1 FY2026 $143.756B, Q1 FY2025
// $124.300B.
func TestYearCountedBackAcrossSentences(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple's revenue was $391.0 billion in fiscal 2024. A year earlier, revenue was $383.3 billion.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's revenue was $391.0 billion in fiscal 2024. A year earlier, revenue was $391.0 billion.", []Status{Verified, Corrected}},
		{ts["AAPL"], "Apple's Q1 FY2026 revenue was $143.8 billion. A year earlier, revenue was $124.3 billion.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's revenue was $391.0 billion in fiscal 2024.\n\nA year earlier, revenue was $383.3 billion.", []Status{Verified, Corrected}},
		{ts["AAPL"], "The previous year, revenue was $416.2 billion.", []Status{Verified}},
		{ts["AAPL"], "The previous year, revenue was $383.3 billion.", []Status{Corrected}},
	})
}

// TestFromToOneLine: the amount a line moved to is of the line it moved
// from, whatever is named after it: read by the nearest name, Alphabet's
// right 2025 capex ($91.4B; $52.5B in 2024) was corrected as free cash
// flow.
func TestFromToOneLine(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["GOOGL"], "Alphabet's capex rose from $52.5 billion in 2024 to $91.4 billion in 2025, cutting free cash flow growth to under 1%.", []Status{Verified, Verified, Verified}},
		{ts["GOOGL"], "Alphabet's capex rose from $52.5 billion in 2024 to $81.4 billion in 2025, cutting free cash flow growth to under 1%.", []Status{Verified, Corrected, Verified}},
	})
}

// TestGrowthBetweenYears: a growth rate after the amounts of its line in
// two consecutive years may be either year's, whichever is named nearer
// it; right of either, it is not wrong. Apple's net income:
// $112.0B in fiscal 2025 (+19.5%), $93.7B in fiscal 2024 (-3.4%).
func TestGrowthBetweenYears(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple's fiscal 2025 net income ($112.0 billion) exceeded its fiscal 2024 figure ($93.7 billion) by 19.5%.", []Status{Verified, Verified, Verified}},
		{ts["AAPL"], "Apple's fiscal 2025 net income ($112.0 billion) exceeded its fiscal 2024 figure ($93.7 billion) by 29.5%.", []Status{Verified, Verified, Corrected}},
		{ts["AAPL"], "Net income was $93.7 billion in fiscal 2024, down 3.4%, and $112.0 billion in fiscal 2025.", []Status{Verified, Verified, Verified}},
		{ts["AAPL"], "In fiscal 2024 net income was $93.7 billion, down 3.4%, and in fiscal 2025 it was $112.0 billion.", []Status{Verified, Verified, Verified}},
		{ts["AAPL"], "In fiscal 2024 net income was $93.7 billion, down 9.4%, and in fiscal 2025 it was $112.0 billion.", []Status{Verified, Corrected, Verified}},
	})
}

// TestPercentOfAPeriod: "the 62.4% of fiscal 2025" names the figure's
// period, not a whole it is a share of; read as a share, a wrong margin
// was unverified. "30% of the year's total" stays a share. NVIDIA's
// operating margin: 60.4% in fiscal 2026, 62.4% in fiscal 2025.
func TestPercentOfAPeriod(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "NVIDIA's operating margin of 60.4% in fiscal 2026 was below the 62.4% of fiscal 2025.", []Status{Verified, Verified}},
		{ts["NVDA"], "NVIDIA's operating margin of 60.4% in fiscal 2026 was below the 65.4% of fiscal 2025.", []Status{Verified, Corrected}},
		{ts["NVDA"], "NVIDIA's operating margin of 60.4% in fiscal 2026 was below the 65.4% of the prior year.", []Status{Verified, Corrected}},
	})
}

// TestRateBeforeItsLine: a percentage with its line right after it, as an
// adjective ("a 49% net margin"), is that line's, though another is named
// nearer before it ("of revenue, a 49% net margin" was read as revenue
// growth and corrected). NVIDIA's fiscal 2024: net income $29.8B on
// revenue $60.9B, a 48.9% net margin.
func TestRateBeforeItsLine(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "In fiscal 2024 NVIDIA earned $29.8 billion on $60.9 billion of revenue, a 49% net margin.", []Status{Verified, Verified, Verified}},
		{ts["NVDA"], "In fiscal 2024 NVIDIA earned $29.8 billion on $60.9 billion of revenue, a 59% net margin.", []Status{Verified, Verified, Corrected}},
	})
}

// TestPeriodOfTheNextClause: a period after a figure that opens the next
// clause with a figure of its own is that figure's, when the first has a
// period of its own before it. NVIDIA's net income: $31.9B in Q3 FY2026,
// $26.4B in Q2 FY2026; read by nearness, the first was held to Q2.
func TestPeriodOfTheNextClause(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "NVIDIA's Q3 FY2026 net income was $31.9 billion and its Q2 FY2026 net income $26.4 billion.", []Status{Verified, Verified}},
		{ts["NVDA"], "NVIDIA's Q3 FY2026 net income was $26.4 billion, and its Q2 FY2026 net income was $26.4 billion.", []Status{Corrected, Verified}},
		// With no period of its own before it, the figure takes the one after.
		{ts["NVDA"], "NVIDIA's net income was $31.9 billion in Q3 FY2026 and $26.4 billion in Q2 FY2026.", []Status{Verified, Verified}},
	})
}

// TestGrewToLevel: the amount a line grew to ("grew 6% last year to $416
// billion") is that line's, whatever is named after it. Apple's fiscal
// 2025: revenue $416.2B (+6.4%), net income $112.0B (+19.5%).
func TestGrewToLevel(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple's revenue grew 6% last year to $416 billion, with net income up 19% to $112 billion.", []Status{Verified, Verified, Verified, Verified}},
		{ts["AAPL"], "Apple's revenue grew 6% last year to $436 billion, with net income up 19% to $112 billion.", []Status{Verified, Corrected, Verified, Verified}},
	})
}
