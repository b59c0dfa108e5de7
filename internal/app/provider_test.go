package app

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/setup"
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

// TestMissingKeyNamesNoFlag: a provider whose key is missing is named as
// the provider, not as a --provider flag: the provider came from
// PARLEY_PROVIDER, the config file, a key's detection or a debate's record
// ("debate X was created with anthropic/…, and --provider anthropic:
// ANTHROPIC_API_KEY is not set" on a plain resume).
func TestMissingKeyNamesNoFlag(t *testing.T) {
	for _, p := range []string{"anthropic", "openai"} {
		_, _, err := ResolveCast(Models{}, func(k string) string { return map[string]string{"PARLEY_PROVIDER": p}[k] })
		if err == nil || strings.Contains(err.Error(), "--provider") || !strings.Contains(err.Error(), "_API_KEY is not set") {
			t.Errorf("PARLEY_PROVIDER=%s with no key: %v", p, err)
		}
	}
}

// TestModelNameWithSpaces: a model name no provider serves (a stray space
// from a paste, a blank PARLEY_MODEL) is refused as bad input naming where
// it came from, before a debate records it; it was sent to the provider.
func TestModelNameWithSpaces(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-x"}
	for _, c := range []struct {
		mf   Models
		env  map[string]string
		want string
	}{
		{Models{Model: "gpt-4.1 "}, env, `--model "gpt-4.1 ": a model name has no spaces`},
		{Models{Model: "gpt 4.1"}, env, `--model "gpt 4.1": a model name has no spaces`},
		{Models{Model: " "}, env, `--model " " is blank`},
		{Models{}, map[string]string{"OPENAI_API_KEY": "sk-x", "PARLEY_MODEL": "\t"}, `PARLEY_MODEL "\t" is blank`},
		{Models{ModelFor: []string{"moderator=openai/gpt-4.1\x1b"}}, env, `--model-for moderator "gpt-4.1\x1b": a model name has no spaces or control characters`},
		{Models{ModelFor: []string{"moderator=claude opus"}}, nil, `--model-for moderator "claude opus"`},
	} {
		_, _, err := ResolveCast(c.mf, func(k string) string { return c.env[k] })
		var ie *setup.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %v: error %v, want bad input %q", c.mf, c.env, err, c.want)
		}
	}
	if _, _, err := ResolveCast(Models{Model: "llama3.1:8b", ModelFor: []string{"moderator=openai/meta-llama/Llama-3.1-8B"}}, func(k string) string { return env[k] }); err != nil {
		t.Errorf("a model name with a colon or slashes: %v", err)
	}
}
