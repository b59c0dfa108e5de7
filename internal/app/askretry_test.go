package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestAskRetries: a follow-up whose call is refused as overloaded or rate
// limited before any text is asked again; one that failed after its text
// was shown, or with an error retrying cannot mend, is not; nor past
// askAttempts calls.
func TestAskRetries(t *testing.T) {
	ok := script.Reply{Text: "The answer."}
	overloaded := script.Reply{Fault: &script.Fault{Status: 529}}
	cases := []struct {
		name    string
		replies []script.Reply
		calls   int
		err     string
	}{
		{"overloaded, then answered", []script.Reply{overloaded, {Fault: &script.Fault{Status: 429, RetryAfter: "0"}}, ok}, 3, ""},
		{"always overloaded", []script.Reply{overloaded, overloaded, overloaded, ok}, askAttempts, "overloaded"},
		// A server's invalid JSON is asked once more, not askAttempts
		// times (llm.Error.Tries).
		{"invalid JSON, then answered", []script.Reply{{Fault: &script.Fault{Stream: "malformed"}}, ok}, 2, ""},
		{"invalid JSON twice", []script.Reply{{Fault: &script.Fault{Stream: "malformed"}}, {Fault: &script.Fault{Stream: "malformed"}}, ok}, 2, "malformed"},
		{"bad request", []script.Reply{{Fault: &script.Fault{Status: 400, Message: "no such model"}}, ok}, 1, "no such model"},
		// A wait no rate limit means is said in years, and given up
		// at once (it read "2562047h47m16s").
		{"wait of 31,709 years", []script.Reply{{Fault: &script.Fault{Status: 429, RetryAfter: "1000000000000"}}, ok}, 1, "wait more than 292 years before trying again, which no rate limit means"},
		{"wait of an hour", []script.Reply{{Fault: &script.Fault{Status: 429, RetryAfter: "3600"}}, ok}, 1, "wait 1h before trying again: ask again after that"},
		{"cut after text", []script.Reply{{Text: "The ans", Fault: &script.Fault{Stream: "cut", After: 1}}, ok}, 1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := script.NewProvider(script.MustNew(script.Rule{Tag: "ask/1/bear", Replies: tc.replies}))
			var shown strings.Builder
			r, err := askWithRetries(context.Background(), p, llm.Request{Model: "m", Tag: "ask/1/bear", Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}},
				func(s string) { shown.WriteString(s) }, time.Millisecond, 0)
			if n := len(p.Requests()); n != tc.calls {
				t.Errorf("%d calls, want %d", n, tc.calls)
			}
			switch {
			case tc.name == "cut after text":
				if err == nil || !llm.IsRetryable(err) || shown.String() == "" {
					t.Errorf("cut after text: %v, shown %q: want the cut reported, not asked again under text already shown", err, shown.String())
				}
			case tc.err != "":
				var le *llm.Error
				if !errors.As(err, &le) || !strings.Contains(strings.ToLower(err.Error()), tc.err) {
					t.Errorf("error %v, want one saying %q", err, tc.err)
				}
			default:
				if err != nil || r.Text != "The answer." || shown.String() != "The answer." {
					t.Errorf("%q %v, shown %q", r.Text, err, shown.String())
				}
			}
		})
	}
}
