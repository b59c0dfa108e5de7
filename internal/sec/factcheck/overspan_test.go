package factcheck

import "testing"

// TestGrowthOverAmountsAfter: a growth or multiple followed in its clause
// by the amounts it is the change of, each with its year ("grown more
// than eightfold in three years, from $27.0 billion in fiscal 2023 to
// $215.9 billion in fiscal 2026"), is over the years they name; held to
// the nearer year's growth alone, a right one was corrected (NVIDIA's
// revenue 8.0x over fiscal 2023-2026, net income 27x; Apple's net income
// 1.95x over fiscal 2020-2025) and a wrong one could pass by chance
// (Alphabet's net income 1.74x over 2021-2025, not doubled, though 2021
// alone grew 89%).
func TestGrowthOverAmountsAfter(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		co, text string
		want     Status
	}{
		{"NVDA", "NVIDIA's revenue has grown more than eightfold in three years, from $27.0 billion in fiscal 2023 to $215.9 billion in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's revenue has grown twelvefold in three years, from $27.0 billion in fiscal 2023 to $215.9 billion in fiscal 2026.", Corrected},
		{"NVDA", "NVIDIA's net income has grown more than twentyfold in three years, from $4.4B in fiscal 2023 to $120.1B in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's revenue rose 700% in three years, from $27.0 billion in fiscal 2023 to $215.9 billion in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's revenue rose 400% in three years, from $27.0 billion in fiscal 2023 to $215.9 billion in fiscal 2026.", Corrected},
		{"AAPL", "Apple's net income doubled from $57.4 billion in fiscal 2020 to $112.0 billion in fiscal 2025.", Verified},
		{"AAPL", "Apple's net income tripled from $57.4 billion in fiscal 2020 to $112.0 billion in fiscal 2025.", Corrected},
		{"GOOGL", "Alphabet's net income doubled in four years, from $76.0 billion in 2021 to $132.2 billion in 2025.", Corrected},
		{"GOOGL", "Alphabet's revenue has more than doubled, from $182.5 billion in 2020 to $402.8 billion in 2025.", Verified},
	} {
		fs := ts[tc.co].Check(tc.text)
		if len(fs) == 0 || fs[0].Status != tc.want {
			t.Errorf("%s %q → %s; want the change %s", tc.co, tc.text, describe(fs), tc.want)
		}
	}
}

// TestMultiplesInWordsPastTwenty: a multiple in words past twenty
// ("fortyfold", "twenty-five-fold", "a hundredfold") is read as any other;
// the words stopped at twenty, and a wrong "fortyfold" went unread.
func TestMultiplesInWordsPastTwenty(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"NVIDIA's net income has grown fortyfold in three years, from $4.4B in fiscal 2023 to $120.1B in fiscal 2026.", Corrected},
		{"NVIDIA's net income has grown twenty-seven-fold in three years, from $4.4B in fiscal 2023 to $120.1B in fiscal 2026.", Verified},
		{"NVIDIA's net income has grown a hundredfold in three years, from $4.4B in fiscal 2023 to $120.1B in fiscal 2026.", Corrected},
		{"NVIDIA's net income has grown more than twentyfold in three years, from $4.4B in fiscal 2023 to $120.1B in fiscal 2026.", Verified},
	} {
		fs := ts["NVDA"].Check(tc.text)
		if len(fs) == 0 || fs[0].Status != tc.want {
			t.Errorf("%q → %s; want the multiple %s", tc.text, describe(fs), tc.want)
		}
	}
}
