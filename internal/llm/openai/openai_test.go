package openai_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/openai"
)

func TestConformance(t *testing.T) {
	llmtest.Run(t, func(t *testing.T, baseURL, key string, hc *http.Client) llm.Provider {
		p, err := openai.New(openai.Config{APIKey: key, BaseURL: baseURL, HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}, llmtest.Options{Wire: llmtest.OpenAI, APIKey: "sk-test"})
}

// A local server (Ollama, llama.cpp) takes no key.
func TestConformanceWithoutKey(t *testing.T) {
	llmtest.Run(t, func(t *testing.T, baseURL, _ string, hc *http.Client) llm.Provider {
		p, err := openai.New(openai.Config{Name: "ollama", BaseURL: baseURL, LegacyMaxTokens: true, HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}, llmtest.Options{Wire: llmtest.OpenAI})
}

// TestNewRefusesAnAddressWithoutHTTP: a base URL that is not an http:// or
// https:// address ("localhost:8000/v1" parses, its scheme "localhost") is
// refused at once, naming the variable to correct; every call failed,
// retried, with "unsupported protocol scheme".
func TestNewRefusesAnAddressWithoutHTTP(t *testing.T) {
	for _, base := range []string{"localhost:8000/v1", "htp://localhost:8000/v1", "http:///v1"} {
		_, err := openai.New(openai.Config{APIKey: "k", BaseURL: base})
		if err == nil || !strings.Contains(err.Error(), "OPENAI_BASE_URL") || !strings.Contains(err.Error(), "http://") {
			t.Errorf("base URL %q: %v; want it refused naming OPENAI_BASE_URL", base, err)
		}
	}
	for _, base := range []string{"http://localhost:8000/v1", "https://NAME.openai.azure.com/openai/deployments/D?api-version=2024-10-21"} {
		if _, err := openai.New(openai.Config{APIKey: "k", BaseURL: base}); err != nil {
			t.Errorf("base URL %q: %v", base, err)
		}
	}
}
