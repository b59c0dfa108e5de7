package factcheck

import (
	"strings"
	"testing"
)

// TestMarketFiguresOfAnotherDate: a recorded multiple or price is the one
// at the recorded close (2026-07-07 here, P/E (TTM) 24.3x on NVIDIA's
// trailing earnings). A multiple is held to the precision it is written
// with: "a P/E of 24" is 24.3 rounded, "26" is not. A multiple or price the
// sentence dates to another time ("at the end of fiscal 2024", "a year
// ago", "as of January 2025", "on March 3, 2026") or puts on another year's
// figures ("on fiscal 2025 earnings") is not the recorded one, right or
// wrong: once corrected against the recorded close, it stays market data,
// listed with the unverified figures, saying why. With no price recorded a
// multiple is never verified.
func TestMarketFiguresOfAnotherDate(t *testing.T) {
	tb := tables(t)["NVDA"]
	_, priced := nvdaValuations(t)
	if pe := figure(t, priced, "pe_ttm"); pe.Display != "24.3x" {
		t.Fatalf("recorded P/E %s, want 24.3x", pe.Display)
	}
	rec := &Recorded{Valuations: []Valuation{priced}}
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"NVIDIA trades at a P/E of 24.", []Status{Verified}},
		{"NVIDIA trades at a P/E of 24x.", []Status{Verified}},
		{"NVIDIA trades at a P/E of 26.", []Status{Corrected}},
		{"NVIDIA trades at a P/E of about 25x.", []Status{Verified}},
		{"NVIDIA trades at a P/E of 28x.", []Status{Corrected}},
		{"NVIDIA trades at a P/E of 24x on trailing earnings after revenue of $215.9 billion in fiscal 2026.", []Status{Verified, Verified}},
		{"At the end of fiscal 2024 NVIDIA traded at a P/E of 40x.", []Status{MarketData}},
		{"In 2023 the stock traded at 200 times earnings.", []Status{MarketData}},
		{"NVIDIA traded at a P/E of 40x as of January 2025.", []Status{MarketData}},
		{"A year ago NVIDIA traded at a P/E of 40x.", []Status{MarketData}},
		{"NVIDIA's P/E fell from 60x to 24x.", []Status{MarketData, Verified}},
		{"NVIDIA's P/E fell from 60x to 30x.", []Status{MarketData, Corrected}},
		{"NVIDIA trades at a P/E of 40 on fiscal 2025 earnings.", []Status{MarketData}},
		{"The share price closed at $190.00 on March 3, 2025.", []Status{MarketData}},
		{"The share price closed at $190.00 on March 3, 2026.", []Status{MarketData}},
		{"The share price closed at $160.40 on July 7, 2026.", []Status{Verified}},
		{"The share price closed at $170.00 on July 7, 2026.", []Status{Corrected}},
		{"The share price closed at $170.00 on 2026-07-07.", []Status{Corrected}},
	} {
		fs := tb.CheckWith(tc.text, rec)
		if got := statusesOf(fs); !equalStatuses(got, tc.want) {
			t.Errorf("%q: %v, want %v\n%s", tc.text, got, tc.want, describe(fs))
			continue
		}
		for _, f := range fs {
			if f.Status == MarketData && (f.Market != nil || !strings.Contains(f.Reason, "2026-07-07")) {
				t.Errorf("%q: %s %q (market %+v); want the reason to name the recorded close's date", tc.text, f.Text, f.Reason, f.Market)
			}
		}
	}
	// No price recorded: never verified, never corrected.
	for _, text := range []string{"NVIDIA trades at a P/E of 24.", "NVIDIA trades at a P/E of 90x."} {
		if f := only(t, tb, text, nil); f.Status != MarketData || !strings.Contains(f.Reason, "not checked") {
			t.Errorf("%q with no price: %s (%s), want market data, not checked", text, f.Status, f.Reason)
		}
	}
}

// TestPEOnDilutedEPS: a P/E is as often the price over diluted EPS (TTM)
// as the market cap over net income, which the valuation records; the two
// differ by the weighted diluted shares against the cover's count (NVIDIA
// at the $160.40 close: 24.3x on its market cap, 24.6x on its TTM diluted
// EPS of $6.53). Right by either reading, a P/E is verified; right by
// none, it is corrected against the recorded one. "24.6x" and "25" were
// corrected.
func TestPEOnDilutedEPS(t *testing.T) {
	tb := tables(t)["NVDA"]
	_, priced := nvdaValuations(t)
	rec := &Recorded{Valuations: []Valuation{priced}}
	for _, tc := range []struct {
		text string
		want Status
		fig  string // the recorded or computed figure's label
	}{
		{"NVIDIA trades at a P/E of 24.3x.", Verified, "P/E (TTM)"},
		{"NVIDIA trades at a P/E of 24.6x.", Verified, "P/E (TTM, price ÷ diluted EPS)"},
		{"NVIDIA trades at a P/E of 25.", Verified, "P/E (TTM, price ÷ diluted EPS)"},
		{"NVIDIA trades at a P/E of 24.9x.", Corrected, "P/E (TTM)"},
		{"NVIDIA trades at 26 times earnings.", Corrected, "P/E (TTM)"},
	} {
		f := only(t, tb, tc.text, rec)
		if f.Status != tc.want || f.Market == nil || f.Market.Label != tc.fig {
			t.Errorf("%q: %s (%s) against %+v, want %s against %s", tc.text, f.Status, f.Reason, f.Market, tc.want, tc.fig)
			continue
		}
		if tc.want == Verified && tc.fig != "P/E (TTM)" && (!strings.Contains(f.Market.Source, "2026-07-07") || !strings.Contains(f.Market.Source, "diluted EPS")) {
			t.Errorf("%q: source %q names not the close and the EPS", tc.text, f.Market.Source)
		}
	}
}
