package anthropic_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
)

// A stop reason Parley does not know (a newer API's, a compatible
// server's own word) ends the reply as end_turn does, and is said once
// per model and reason, so that a new meaning does not pass unseen; the
// API's own reasons are said nothing of.
func TestUnknownStopReasonIsSaidOnce(t *testing.T) {
	for _, c := range []struct {
		stop string
		warn bool
	}{
		{"compaction", true},
		{"end_turn", false},
		{"stop_sequence", false},
	} {
		t.Run(c.stop, func(t *testing.T) {
			srv := httptest.NewServer(sse(start + text + delta(c.stop) + stopEv))
			defer srv.Close()
			var logs bytes.Buffer
			p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL,
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
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
			if want := map[bool]int{true: 1, false: 0}[c.warn]; n != want || (c.warn && !strings.Contains(logs.String(), c.stop)) {
				t.Errorf("%d warnings, want %d: %s", n, want, logs.String())
			}
		})
	}
}
