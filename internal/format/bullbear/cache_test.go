package bullbear_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

// TestPromptsShareCacheablePrefix: the bull and the bear send the same
// system prompt, and their rebuttals start with the same record (the
// openings, then the rebuttals so far, one message each, marked cacheable at
// the openings and the last two), so that the bear's rebuttal reads from the
// cache the prefix the bull's rebuttal wrote.
func TestPromptsShareCacheablePrefix(t *testing.T) {
	f := newFixture(t, nvdaOptions(t))
	s := f.MustRun()
	bull, bear := f.requestFor("rebuttal/1/bull"), f.requestFor("rebuttal/1/bear")
	if bull.System != bear.System || bull.System != f.requestFor("research/bull").System {
		t.Error("bull and bear turns do not share one system prompt")
	}
	// The bull's record is the openings; the bear's the openings and the
	// bull's rebuttal.
	if len(bull.Messages) != 2 || len(bear.Messages) != 3 || !bull.Messages[0].Cache || bull.Messages[0].Text != bear.Messages[0].Text ||
		!bear.Messages[0].Cache || !bear.Messages[1].Cache || !strings.Contains(bear.Messages[1].Text, "BULL REBUTTAL (round 1):") {
		t.Fatalf("rebuttals do not start with the same cacheable record:\nbull %+v\nbear %+v", bull.Messages, bear.Messages)
	}
	if last := bear.Messages[len(bear.Messages)-1]; last.Cache {
		t.Error("the bear's task is marked cacheable: only the shared record is")
	}
	// (The scripted provider caches a request's whole marked prefix or
	// nothing, so its usage cannot show the bear reading the openings the
	// bull's request cached, as a provider's longest-prefix match does: the
	// prefix is checked on the requests instead.)
	for _, r := range f.Tokens().PerRequest {
		if r.Tag == "rebuttal/1/bear" && r.Shared < len(bear.System)+len(bear.Messages[0].Text) {
			t.Errorf("bear rebuttal repeats %d bytes of an earlier request, want at least the system prompt and openings", r.Shared)
		}
	}
	// The bear's research, the second request with the shared system
	// prompt, reads it from the cache (the two run concurrently: either may
	// be first).
	rb, rr := s.Completed("research/bull").Usage, s.Completed("research/bear").Usage
	if rb.CacheReadTokens+rr.CacheReadTokens != script.EstimateTokens(bull.System) {
		t.Errorf("research cache reads %d + %d, want one read of the system prompt (%d)", rb.CacheReadTokens, rr.CacheReadTokens, script.EstimateTokens(bull.System))
	}
}
