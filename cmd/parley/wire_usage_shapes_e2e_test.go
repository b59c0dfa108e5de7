package main_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestWireUsageShapes: a debate against a server that reports its token
// counts in its own fields (DeepSeek's cache hits, Moonshot's counts in
// the finish chunk's choice, the reasoning a layer in front of Gemini
// leaves out of completion_tokens) closes with the tokens, cached tokens
// and cost the same debate has against OpenAI's shape of the same counts.
func TestWireUsageShapes(t *testing.T) {
	totals := regexp.MustCompile(`(?m)^Debate DEB-\S+: .*?(\d+ turns, .*)$`)
	// Servers cache only prompts of 1,024 tokens or more, and the fake
	// server counts as they do: openings this long make the later turns'
	// prompts long enough for their shared prefix to be read from the
	// cache.
	base := loadScript(t, "perspectives.yaml")
	opening := "Round one opening. " + strings.Repeat("Redis keeps hot keys in memory with sub-millisecond reads, while PostgreSQL adds a disk-backed round trip. ", 40)
	closing := func(t *testing.T, shape fakellm.UsageShape) string {
		sc, err := script.New(append([]script.Rule{{TagRegexp: "^r1/argument/", Reply: &script.Reply{Text: opening}}}, base.Rules...)...)
		if err != nil {
			t.Fatal(err)
		}
		srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"), fakellm.WithUsageShape(shape))
		defer srv.Close()
		dir := t.TempDir()
		r := mustParley(t, dir, openaiEnv(srv, filepath.Join(dir, "parley.db")), "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "gpt-5.5")
		m := totals.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("no closing line\nstderr:\n%s", r.stderr)
		}
		return m[1]
	}
	want := closing(t, fakellm.UsageOpenAI)
	t.Log(want)
	if !regexp.MustCompile(`[1-9][\d,]* cached`).MatchString(want) {
		t.Fatalf("OpenAI's shape: %q, want some prompt tokens read from the cache", want)
	}
	for name, shape := range map[string]fakellm.UsageShape{"DeepSeek": fakellm.UsageDeepSeek, "Moonshot": fakellm.UsageMoonshot, "Gemini": fakellm.UsageGemini} {
		if got := closing(t, shape); got != want {
			t.Errorf("%s: closing line %q, want %q", name, got, want)
		}
	}
}
