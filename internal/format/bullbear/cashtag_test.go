package bullbear_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
)

// TestCashtag: a ticker written as a cashtag ("$NVDA", as finance sites
// and posts write one) is a stock debate on that ticker; it was debated
// as a question. A "$" before anything else is left as typed.
func TestCashtag(t *testing.T) {
	for _, c := range []struct {
		topic, ticker string
		ok            bool
	}{
		{"$NVDA", "NVDA", true},
		{" $nvda ", "NVDA", true},
		{"$BRK.B", "BRK.B", true},
		{"NVDA", "NVDA", true},
		{"$5 billion question", "$5 billion question", false},
		{"$", "$", false},
		{"$$NVDA", "$$NVDA", false},
	} {
		ticker, ok := bullbear.Ticker(c.topic)
		if ticker != c.ticker || ok != c.ok {
			t.Errorf("Ticker(%q) = %q, %v; want %q, %v", c.topic, ticker, ok, c.ticker, c.ok)
		}
		if got := (bullbear.Format{}).Implied(&setup.Request{Topic: c.topic}); got != c.ok {
			t.Errorf("Implied(%q) = %v, want %v", c.topic, got, c.ok)
		}
	}
	if got := (bullbear.Format{}).NormalizeTopic("$nvda"); got != "NVDA" {
		t.Errorf("NormalizeTopic($nvda) = %q, want NVDA", got)
	}
	if got := (bullbear.Format{}).NormalizeTopic("$5 billion"); got != "$5 billion" {
		t.Errorf("NormalizeTopic($5 billion) = %q, want it as typed", got)
	}
}
