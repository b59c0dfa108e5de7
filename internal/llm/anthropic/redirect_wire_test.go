package anthropic_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A base URL whose server redirects to another fails the call as a bad
// request naming where it points, not retried, and the key (x-api-key,
// which Go's client does not drop on such a redirect) is not sent there.
// A 301 or 302 turned the POST into a GET, which the API refused as a
// method it does not allow; a 307 carried the key to the other server.
func TestRedirectToAnotherServer(t *testing.T) {
	target := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis."}}))
	defer target.Close()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "never"}}), fakellm.WithRedirect(status, target.URL))
		p, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-secret", BaseURL: srv.AnthropicURL()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", MaxTokens: 100, Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
		srv.Close()
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Retryable() || !strings.Contains(err.Error(), target.URL+"/v1/messages") ||
			!strings.Contains(err.Error(), "set the base URL") {
			t.Errorf("%d: %v, want a bad request naming %s", status, err, target.URL)
		}
	}
	if n := len(target.Requests()); n != 0 {
		t.Errorf("the server redirected to got %d requests, want none", n)
	}
}
