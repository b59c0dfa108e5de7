package openai_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// A stream held open after the finish_reason by chunks without any of the
// reply (the counts sent again and again, empty choices) ends about
// afterFinish (2 s) after the finish, its reply whole; those chunks held
// the call to its deadline, where it failed as a timeout and was retried.
// Chunks with more of the reply (a server that puts a finish_reason on
// every chunk) still hold it open.
func TestHeldOpenAfterTheFinish(t *testing.T) {
	every := func(s string) string { return strings.Replace(s, `"finish_reason":null`, `"finish_reason":"stop"`, 1) }
	word := `{"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop"}]}`
	cases := []struct {
		name  string
		first string
		again string
		times int // how many times again is sent, 0 for ever
		want  string
	}{
		{"counts again and again", chunk(c1) + chunk(c2) + chunk(stop) + chunk(use), chunk(use), 0, "Hello"},
		{"empty chunks again and again", chunk(c1) + chunk(c2) + chunk(stop), chunk(`{"choices":[]}`), 0, "Hello"},
		{"more of the reply, each with a finish_reason", chunk(every(c1)) + chunk(every(c2)), chunk(word), 6, "Hello!!!!!!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(c.first))
				w.(http.Flusher).Flush()
				for i := 0; c.times == 0 || i < c.times; i++ {
					select {
					case <-r.Context().Done():
						return
					case <-time.After(500 * time.Millisecond):
					}
					_, _ = w.Write([]byte(c.again))
					w.(http.Flusher).Flush()
				}
				_, _ = w.Write([]byte(done))
			})
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
			defer cancel()
			r, err := llm.Collect(p.Stream(ctx, llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
			if err != nil || r.Text != c.want || r.StopReason != llm.StopEnd {
				t.Fatalf("got %+v, %v; want %q whole", r, err, c.want)
			}
		})
	}
}
