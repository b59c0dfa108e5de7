package llm_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A sum of calls has the server's cost only when every call had one: a
// sum starts from the zero Usage, which is no call.
func TestUsageAddServerCost(t *testing.T) {
	costed := llm.Usage{InputTokens: 10, OutputTokens: 5, ServerCostUSD: 0.25, ServerCost: llm.ServerCostReported}
	plain := llm.Usage{InputTokens: 10, OutputTokens: 5}
	cases := []struct {
		name string
		sum  llm.Usage
		usd  float64
		ok   bool
	}{
		{"one call", llm.Usage{}.Add(costed), 0.25, true},
		{"two calls", llm.Usage{}.Add(costed).Add(costed), 0.5, true},
		{"one without", llm.Usage{}.Add(costed).Add(plain), 0, false},
		{"one without, first", llm.Usage{}.Add(plain).Add(costed), 0, false},
		{"unreported call", costed.Add(llm.Usage{Unreported: true}), 0, false},
		{"partial stays partial", costed.Add(plain).Add(costed), 0, false},
		{"none", plain.Add(plain), 0, false},
	}
	for _, c := range cases {
		if usd, ok := c.sum.ReportedCost(); ok != c.ok || (ok && usd != c.usd) {
			t.Errorf("%s: %+v gives %v %v, want %v %v", c.name, c.sum, usd, ok, c.usd, c.ok)
		}
	}
}
