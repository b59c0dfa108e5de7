package openai_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// OpenAI answers a request over its rate limit with no Retry-After but
// with the limits' state in x-ratelimit-* headers: the wait is read from
// the reset of the limit that is spent, so that the runner waits that
// long rather than retry at once into the same limit and give up.
func TestRateLimitHeaders(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "2",
		Message: "Rate limit reached for gpt-5.4 in organization org-x on requests per min (RPM): Limit 500, Used 500, Requested 1."}}}),
		fakellm.WithRateLimitHeaders())
	defer srv.Close()
	p, err := openai.New(openai.Config{APIKey: "k", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = llm.Collect(p.Stream(context.Background(), limited("gpt-5.4")))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrRateLimited || e.RetryAfter != 2*time.Second {
		t.Fatalf("%v (retry after %v), want a rate limit to wait 2s for", err, llm.RetryAfterOf(err))
	}
}
