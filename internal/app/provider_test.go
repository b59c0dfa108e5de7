package app

import (
	"strings"
	"testing"
)

// TestUnknownProviderNamesItsSource: an unknown provider is refused naming
// where the name came from: PARLEY_PROVIDER set by hand was reported as a
// --provider flag the user never passed.
func TestUnknownProviderNamesItsSource(t *testing.T) {
	for _, c := range []struct {
		mf   Models
		env  map[string]string
		want string
	}{
		{Models{Provider: "gemini"}, nil, `--provider "gemini": unknown provider; choose one of anthropic, ollama, openai`},
		{Models{}, map[string]string{"PARLEY_PROVIDER": "gemini", "OPENAI_API_KEY": "sk-x"}, `PARLEY_PROVIDER "gemini": unknown provider; choose one of anthropic, ollama, openai`},
		{Models{Provider: "Gemini"}, map[string]string{"PARLEY_PROVIDER": "openai"}, `--provider "gemini": unknown provider`},
	} {
		_, _, err := ResolveCast(c.mf, func(k string) string { return c.env[k] })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %v: error %v, want %q", c.mf, c.env, err, c.want)
		}
	}
	if err := CheckProvider("provider", "gemini"); err == nil || err.Error() != `provider "gemini": unknown provider; choose one of anthropic, ollama, openai` {
		t.Errorf("CheckProvider: %v", err)
	}
	for _, p := range []string{"anthropic", "openai", "ollama"} {
		if err := CheckProvider("provider", p); err != nil {
			t.Errorf("CheckProvider(%s): %v", p, err)
		}
	}
}
