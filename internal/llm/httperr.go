package llm

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// KindForStatus classifies an HTTP error status the same way for every
// provider, so that the runner's retry policy does not depend on which API
// answered.
func KindForStatus(code int) ErrorKind {
	switch {
	case code == http.StatusTooManyRequests:
		return ErrRateLimited
	case code == 529 || code == http.StatusServiceUnavailable || code == 498:
		// 529 is Anthropic's "overloaded"; 503 is what proxies and local
		// servers send when they shed load; 498 is Groq's flex tier at
		// capacity ("capacity_exceeded"), which its docs say to retry
		// with backoff. They clear up by waiting.
		return ErrOverloaded
	case code == http.StatusGatewayTimeout || code == http.StatusRequestTimeout:
		return ErrTimeout
	case code == http.StatusConflict:
		// The request met a lock on the server's side (OpenAI's "another
		// request is being processed"): both official SDKs retry it, as
		// it clears up by waiting. It is not the request's to fix.
		return ErrServer
	case code >= 500:
		return ErrServer
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return ErrAuth
	case code >= 400:
		// 400, 404, 413, 422 and the rest: sending the same request again
		// cannot help.
		return ErrBadRequest
	}
	return ErrServer
}

// ParseRetryAfter reads a Retry-After header value, given either as
// delta-seconds or as an HTTP date (RFC 9110 §10.2.3), relative to now. It
// returns 0 when v is empty, unparsable or in the past, so that callers fall
// back to their own backoff.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
