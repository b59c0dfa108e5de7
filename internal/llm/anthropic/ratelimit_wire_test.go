package anthropic_test

import (
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A 429 that says when to try again only in anthropic-ratelimit-*
// headers (a gateway that passes them on without Retry-After) is waited
// out until the spent limit resets, not retried at once by the backoff.
func TestRateLimitHeaders(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "30",
		Message: "This request would exceed the rate limit for your organization of 50 requests per minute."}}}),
		fakellm.WithRateLimitHeaders())
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ask(p)
	var e *llm.Error
	// The reset is a time to the second: up to a second less than asked.
	if !errors.As(err, &e) || e.Kind != llm.ErrRateLimited || e.RetryAfter < 28*time.Second || e.RetryAfter > 30*time.Second {
		t.Fatalf("%v (retry after %v), want a rate limit to wait about 30s for", err, llm.RetryAfterOf(err))
	}
	if h := srv.Requests(); len(h) != 1 {
		t.Errorf("%d requests, want 1", len(h))
	}
}
