package app

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

// TestAskCutAnswerIsMarked: a follow-up answer cut at the token limit, or
// declined, is saved as far as it came and marked, as a debate's turn is,
// and the document says so; it was saved and shown as the whole answer.
func TestAskCutAnswerIsMarked(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "council.yaml",
		script.Rule{Tag: "ask/1/sentiment", Reply: &script.Reply{Text: "Churn above 5% a month would", StopReason: "max_tokens"}},
		script.Rule{Tag: "ask/2/sentiment", Reply: &script.Reply{Text: "I can't help with that.", StopReason: "refusal"}})
	a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	s, _ := runCouncil(ctx, t, a)
	for _, c := range []struct{ text, invalid string }{
		{"Churn above 5% a month would", "token limit"},
		{"I can't help with that.", "declined"},
	} {
		fu, err := a.Ask(ctx, AskRequest{ID: s.ID, Agent: "sentiment", Question: "What would prove you right?"})
		if err != nil {
			t.Fatal(err)
		}
		tc, err := fu.Answer(ctx, nil)
		if err != nil || tc.Text != c.text || !strings.Contains(tc.Invalid, c.invalid) {
			t.Errorf("saved %q marked %q, %v; want %q marked as %s", tc.Text, tc.Invalid, err, c.text, c.invalid)
		}
	}
	st, format, err := a.Load(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := RenderDoc(format, st, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(doc, "*Not a complete answer: "); n != 2 || !strings.Contains(doc, "token limit") {
		t.Errorf("the document marks %d answers, want 2:\n%s", n, doc)
	}
}
