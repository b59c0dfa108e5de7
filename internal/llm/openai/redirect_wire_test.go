package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A base URL whose server redirects to another (http:// sent to
// https://, a moved host) fails the call as a bad request naming where it
// points, which is not retried; the key is not sent there. The SDK
// refused the redirect as a network error, retried in vain, and a 301
// that turns the POST into a GET reached the API as a GET.
func TestRedirectToAnotherServer(t *testing.T) {
	target := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis."}}))
	defer target.Close()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "never"}}), fakellm.WithRedirect(status, target.URL))
		p, err := openai.New(openai.Config{APIKey: "sk-secret", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = llm.Collect(p.Stream(context.Background(), limited("m")))
		srv.Close()
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Retryable() || !strings.Contains(err.Error(), target.URL+"/v1/chat/completions") ||
			!strings.Contains(err.Error(), "set the base URL") {
			t.Errorf("%d: %v, want a bad request naming %s", status, err, target.URL)
		}
	}
	if n := len(target.Requests()); n != 0 {
		t.Errorf("the server redirected to got %d requests, want none", n)
	}
}
