package openai_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// A 429 that asks for a wait longer than a time.Duration holds, in any of
// the headers that say how long (Retry-After, Azure's retry-after-ms, the
// x-ratelimit-reset-* seconds), carries the longest wait, which the runner
// refuses to sleep and stops the debate on: it overflowed to a negative
// wait, read as none, and the call was retried at once.
func TestRateLimitWaitPastADuration(t *testing.T) {
	for name, header := range map[string]map[string]string{
		"Retry-After":    {"Retry-After": "99999999999"},
		"retry-after-ms": {"Retry-After-Ms": "99999999999999"},
		"x-ratelimit":    {"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "99999999999"},
	} {
		p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"message":"slow down","type":"requests"}}`))
		})
		_, err := ask(p)
		if !llm.IsRetryable(err) || llm.RetryAfterOf(err) != time.Duration(math.MaxInt64) {
			t.Errorf("%s: %v, RetryAfter %v; want the longest wait", name, err, llm.RetryAfterOf(err))
		}
	}
}
