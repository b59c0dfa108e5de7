package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// BenchmarkStream measures a 200-word streamed reply through the SDK against
// the fake server: the cost of reading the stream (the SDK's decoder and the
// line repairs in front of it).
func BenchmarkStream(b *testing.B) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: strings.Repeat("word ", 200)}}))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "ollama", BaseURL: srv.OpenAIURL()})
	if err != nil {
		b.Fatal(err)
	}
	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := llm.Collect(p.Stream(context.Background(), req)); err != nil {
			b.Fatal(err)
		}
	}
}
