package factcheck

import (
	"strings"
	"testing"
)

// TestOtherShapes: figures of filers and phrasings unlike the shipped
// ones, each case named by the cause it pins: a right figure verified, a
// wrong one corrected, and a figure the filings cannot settle unverified,
// never held to a metric it does not measure.
func TestOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		cause, file, text string
		want              []Status
		reason            string // part of the first finding's reason
	}{
		// A sign written as a word.
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was negative $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was minus $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was negative $12.9 million in 2024.", []Status{Corrected}, ""},
		{"sign word", "tiny_CIK0009000013.json", "The company reported negative operating cash flow of $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Net margin was negative 1025% in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Net margin was 1025% in 2024.", []Status{Corrected}, ""},
		// Adjusted (non-GAAP) figures are not the filings' GAAP figures.
		{"non-GAAP", "insurer_CIK0009000011.json", "Adjusted diluted EPS was $18.10 in 2024.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS (non-GAAP) was $18.10 in 2024.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $18.10 in 2024 on an adjusted basis.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $17.62 in 2024, while adjusted EPS was $18.10.", []Status{Verified, Unverified}, ""},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $17.26 in 2024, while adjusted EPS was $18.10.", []Status{Corrected, Unverified}, ""},
		// Measures the check does not hold are not the nearest metric's.
		{"other measure", "insurer_CIK0009000011.json", "Net premiums earned were $48.5 billion in 2024.", []Status{Unverified}, "Net premiums earned"},
		{"other measure", "insurer_CIK0009000011.json", "Net income was $5.3 billion in 2024 on net premiums earned of $48.5 billion.", []Status{Verified, Unverified}, ""},
		{"other measure", "insurer_CIK0009000011.json", "Net income was $6.3 billion in 2024 on net premiums earned of $48.5 billion.", []Status{Corrected, Unverified}, ""},
		{"other measure", "insurer_CIK0009000011.json", "Book value per share rose to $150.50 in 2024 while diluted EPS was $17.62.", []Status{Unverified, Verified}, ""},
		{"other measure", "reit_CIK0009000012.json", "Adjusted EBITDA of $2.9 billion on revenue of $4.1 billion in 2024.", []Status{Unverified, Verified}, "EBITDA"},
		{"other measure", "reit_CIK0009000012.json", "Adjusted EBITDA of $2.9 billion on revenue of $4.6 billion in 2024.", []Status{Unverified, Corrected}, ""},
		{"other measure", "reit_CIK0009000012.json", "Net operating income was $3.0 billion in 2024.", []Status{Unverified}, "Net operating income"},
		{"other measure", "reit_CIK0009000012.json", "Occupancy was 98.6% at year-end 2024 while revenue rose 5.1%.", []Status{Unverified, Verified}, "Occupancy"},
		{"other measure", "reit_CIK0009000012.json", "Diluted EPS was $0.98 and the dividend was $2.40 per share in 2024.", []Status{Verified, Unverified}, ""},
		// A quarter and its year in one token.
		{"quarter token", "insurer_CIK0009000011.json", "3Q25 net income was $1.1 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "3Q24 net income was $1.4 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "3Q24 net income was $1.1 billion.", []Status{Corrected}, "wrong period"},
		{"quarter token", "insurer_CIK0009000011.json", "Net income in Q3'24 was $1.4 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "Net income in 2Q 2025 was $1.5 billion.", []Status{Verified}, ""},
		// A count of shares written without "shares" after it.
		{"share count", "tiny_CIK0009000013.json", "Shares outstanding rose to 46 million in 2024.", []Status{Verified}, ""},
		{"share count", "tiny_CIK0009000013.json", "Shares outstanding rose to 56 million in 2024.", []Status{Corrected}, ""},
	} {
		fs := syntheticTable(t, tc.file).Check(tc.text)
		var got []Status
		for _, f := range fs {
			got = append(got, f.Status)
		}
		if !equalStatuses(got, tc.want) || tc.reason != "" && !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%s: %s %q → %s; want %v (%s)", tc.cause, tc.file, tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}

// TestDisplaySmallAmounts: a small filer's figures read as written in the
// filings' own scale, never "$0M".
func TestDisplaySmallAmounts(t *testing.T) {
	for v, want := range map[float64]string{452300: "$452,300", -12345000: "-$12.3M", 974e6: "$974M", 1.2e12: "$1.200T", 999: "$999"} {
		if got := Display(Revenue, v); got != want {
			t.Errorf("Display(%v) = %q, want %q", v, got, want)
		}
	}
	tb := syntheticTable(t, "tiny_CIK0009000013.json")
	fs := tb.Check("Revenue was $552 thousand in 2023.")
	if len(fs) != 1 || fs[0].Status != Corrected || !strings.Contains(fs[0].Per(), "$452,300") {
		t.Errorf("correction of a small figure: %s / %q", describe(fs), fs[0].Per())
	}
}
