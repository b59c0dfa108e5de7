package bullbear_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

// TestPromptsShareCacheablePrefix: the bull and the bear send the same
// system prompt, and their rebuttals start with the same openings record
// marked cacheable, so that the bear's rebuttal reads from the cache the
// prefix the bull's rebuttal wrote.
func TestPromptsShareCacheablePrefix(t *testing.T) {
	f := newFixture(t, nvdaOptions(t))
	s := f.MustRun()
	bull, bear := f.requestFor("rebuttal/1/bull"), f.requestFor("rebuttal/1/bear")
	if bull.System != bear.System || bull.System != f.requestFor("research/bull").System {
		t.Error("bull and bear turns do not share one system prompt")
	}
	if len(bull.Messages) < 2 || len(bear.Messages) < 2 || !bull.Messages[0].Cache || bull.Messages[0].Text != bear.Messages[0].Text || !bear.Messages[0].Cache {
		t.Fatalf("rebuttals do not start with the same cacheable record:\nbull %+v\nbear %+v", bull.Messages, bear.Messages)
	}
	for i, m := range bear.Messages[1:] {
		if m.Cache {
			t.Errorf("bear rebuttal message %d is marked cacheable: only the shared record is", i+2)
		}
	}
	prefix := script.EstimateTokens(bear.System) + script.EstimateTokens(bear.Messages[0].Text)
	if u := s.Completed("rebuttal/1/bear").Usage; u.CacheReadTokens != prefix {
		t.Errorf("bear rebuttal read %d tokens from the cache, want the %d of the system prompt and openings", u.CacheReadTokens, prefix)
	}
	// The bear's research, the second request with the shared system
	// prompt, reads it from the cache (the two run concurrently: either may
	// be first).
	rb, rr := s.Completed("research/bull").Usage, s.Completed("research/bear").Usage
	if rb.CacheReadTokens+rr.CacheReadTokens != script.EstimateTokens(bull.System) {
		t.Errorf("research cache reads %d + %d, want one read of the system prompt (%d)", rb.CacheReadTokens, rr.CacheReadTokens, script.EstimateTokens(bull.System))
	}
}
