package openai_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/openai"
)

// A finish_reason Parley does not know (a newer API's, a compatible
// server's own word) ends the reply as "stop" does, and is said once per
// model and reason, so that a new meaning does not pass unseen; the words
// Parley reads are said nothing of.
func TestUnknownFinishReasonIsSaidOnce(t *testing.T) {
	for _, c := range []struct {
		finish string
		warn   bool
	}{
		{"other", true},
		{"compaction", true},
		{"LANGUAGE", true},
		{"stop", false},
		{"STOP", false},
		{"end_turn", false},
		{"eos_token", false},
		{"eos", false},
	} {
		t.Run(c.finish, func(t *testing.T) {
			body := chunk(c1) + chunk(c2) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+c.finish+`"}]}`) + done
			srv := httptest.NewServer(sse(body))
			defer srv.Close()
			var logs bytes.Buffer
			p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.URL + "/v1", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				r, err := ask(p)
				if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
					t.Fatalf("%+v %v", r, err)
				}
			}
			n := strings.Count(logs.String(), "which Parley does not know")
			if want := map[bool]int{true: 1, false: 0}[c.warn]; n != want || (c.warn && !strings.Contains(logs.String(), strings.ToLower(c.finish))) {
				t.Errorf("%d warnings, want %d: %s", n, want, logs.String())
			}
		})
	}
}
