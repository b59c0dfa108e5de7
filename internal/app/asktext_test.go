package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

// TestAskAnswerWithNUL: a follow-up answer with a NUL character in it (a
// JSON "\u0000" from the server) is saved without it, as a turn's text
// is: PostgreSQL's text refuses NUL, and the answer, already shown, was
// lost with "save the follow-up" failing.
func TestAskAnswerWithNUL(t *testing.T) {
	stores := map[string]func(t *testing.T) debate.Store{
		"memstore": func(t *testing.T) debate.Store { return memstore.New() },
		"postgres": func(t *testing.T) debate.Store {
			st, err := postgres.Open(t.Context(), pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			srv := fakeServer(t, "council.yaml",
				script.Rule{Tag: "ask/1/sentiment", Reply: &script.Reply{Text: "Churn\x00 above 5%\x00."}})
			env := map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
			store := open(t)
			t.Cleanup(func() { store.Close() })
			a := &App{Store: store, Formats: DefaultFormats(), Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now}}
			s, _ := runCouncil(ctx, t, a)
			fu, err := a.Ask(ctx, AskRequest{ID: s.ID, Agent: "sentiment", Question: "What would prove you right?"})
			if err != nil {
				t.Fatal(err)
			}
			if tc, err := fu.Answer(ctx, nil); err != nil || tc.Text != "Churn above 5%." {
				t.Fatalf("saved %q, %v; want the answer without its NUL characters", tc.Text, err)
			}
			st, _, err := a.Load(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if c := st.Completed("ask/1/sentiment"); c == nil || strings.Contains(c.Text, "\x00") {
				t.Errorf("the log holds %+v", c)
			}
		})
	}
}
