package anthropic_test

import (
	"net/http"
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
