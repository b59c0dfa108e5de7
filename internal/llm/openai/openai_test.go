package openai_test

import (
	"net/http"
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
