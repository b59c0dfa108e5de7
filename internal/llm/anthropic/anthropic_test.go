package anthropic_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/llmtest"
)

func TestConformance(t *testing.T) {
	for _, mode := range []anthropic.StructuredMode{anthropic.StructuredOutputFormat, anthropic.StructuredForcedTool} {
		t.Run(string(mode), func(t *testing.T) {
			llmtest.Run(t, func(t *testing.T, baseURL, key string, hc *http.Client) llm.Provider {
				p, err := anthropic.New(anthropic.Config{APIKey: key, BaseURL: baseURL, Structured: mode, HTTPClient: hc})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}, llmtest.Options{Wire: llmtest.Anthropic, APIKey: "sk-ant-test"})
		})
	}
}

// TestNewRefusesAnAddressWithoutHTTP: a base URL that is not an http:// or
// https:// address is refused at once, naming ANTHROPIC_BASE_URL; every
// call failed, retried, with "unsupported protocol scheme".
func TestNewRefusesAnAddressWithoutHTTP(t *testing.T) {
	for _, base := range []string{"localhost:8080", "htp://localhost:8080", "http://"} {
		_, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: base})
		if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_BASE_URL") {
			t.Errorf("base URL %q: %v; want it refused naming ANTHROPIC_BASE_URL", base, err)
		}
	}
	if _, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: "http://localhost:8080/"}); err != nil {
		t.Errorf("http://localhost:8080/: %v", err)
	}
}
