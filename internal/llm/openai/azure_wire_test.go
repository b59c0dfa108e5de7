package openai_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// An Azure OpenAI deployment URL, as the portal gives it, is a base URL:
// calls go to the deployment's path with its API version, the key in the
// api-key header, and Azure's first chunk (prompt filter results, no
// choice) is no part of the reply.
func TestAzureDeployment(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hello there"}}), fakellm.WithAPIKey("az-key"))
	defer srv.Close()
	p, err := openai.New(openai.Config{APIKey: "az-key", BaseURL: srv.AzureURL("gpt4o-prod", "2024-10-21")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.Collect(p.Stream(context.Background(), limited("gpt-4o")))
	if err != nil || r.Text != "Hello there" || r.Usage.OutputTokens == 0 || r.Usage.Unreported {
		t.Fatalf("%+v %v", r, err)
	}
	rec := srv.Requests()[0]
	if rec.Path != "/openai/deployments/gpt4o-prod/chat/completions" || rec.Parsed.Model != "gpt4o-prod" ||
		rec.Header.Get("Api-Key") != "az-key" || rec.Header.Get("Authorization") != "" {
		t.Errorf("sent %s (model %s) with api-key %q, Authorization %q", rec.Path, rec.Parsed.Model, rec.Header.Get("Api-Key"), rec.Header.Get("Authorization"))
	}

	// A wrong key is named as the variable to check; a URL without its
	// API version is Azure's 404, said as such.
	p, _ = openai.New(openai.Config{APIKey: "wrong", BaseURL: srv.AzureURL("gpt4o-prod", "2024-10-21")})
	_, err = llm.Collect(p.Stream(context.Background(), limited("gpt-4o")))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrAuth || !strings.Contains(err.Error(), "OPENAI_API_KEY") || !strings.Contains(err.Error(), "Access denied") {
		t.Errorf("wrong key: %v", err)
	}
	p, _ = openai.New(openai.Config{APIKey: "az-key", BaseURL: strings.Split(srv.AzureURL("gpt4o-prod", "x"), "?")[0]})
	_, err = llm.Collect(p.Stream(context.Background(), limited("gpt-4o")))
	if !errors.As(err, &e) || e.StatusCode != 404 || !strings.Contains(err.Error(), "Resource not found") {
		t.Errorf("no api-version: %v", err)
	}
}

func TestIsAzure(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://contoso.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21": true,
		"https://contoso.openai.azure.com/openai/v1":                                       true,
		"https://contoso.cognitiveservices.azure.com/openai/v1":                            true,
		"https://contoso.services.ai.azure.com/models":                                     true,
		"https://apim.contoso.com/openai/deployments/gpt4o":                                true,
		"https://api.openai.com/v1":                                                        false,
		"http://localhost:8000/v1":                                                         false,
		"https://openai.azure.com.evil.io/v1":                                              false,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := openai.IsAzure(u); got != want {
			t.Errorf("%s: %v, want %v", raw, got, want)
		}
	}
}
