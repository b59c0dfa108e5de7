package llm

import (
	"fmt"
	"math"
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
	case code >= 200 && code < 300:
		// A success with no reply in it (204 No Content, 202 Accepted
		// and nothing after), where the API streams one: the address
		// answers so every time, and a 202's request may be running,
		// paid for, on the server. Not a cut stream to ask again.
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
	if delaySeconds(v) {
		secs, _ := strconv.ParseFloat(v, 64)
		return DurationOf(secs, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// delaySeconds reports whether v is delay-seconds: digits, with a fraction
// as some servers send. strconv.ParseFloat also reads "NaN", "Inf" and
// "1e9", which no server means as a delay.
func delaySeconds(v string) bool {
	digits, frac, _ := strings.Cut(v, ".")
	if digits+frac == "" {
		return false
	}
	for _, c := range digits + frac {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// DurationOf is n units as a time.Duration, for a wait a server asks
// for: 0 when n is not above 0 (or not a number), and the longest
// Duration when n units are longer. Converted as it is, a hostile
// "Retry-After: 99999999999" overflowed to a negative wait, which callers
// read as none and retried at once.
func DurationOf(n float64, unit time.Duration) time.Duration {
	switch d := n * float64(unit); {
	case !(d > 0):
		return 0
	case d >= math.MaxInt64:
		return math.MaxInt64
	default:
		return time.Duration(d)
	}
}

// LongestMeantWait is the longest wait a server's Retry-After (or
// rate-limit reset) can mean: a spent monthly quota resets within a
// month. A longer one, up to the "Retry-After: 1000000000000" of a broken
// or hostile server, is no wait to resume after, only a refusal.
const LongestMeantWait = 366 * 24 * time.Hour

// WaitText says how long a wait a server asked for is, in the units a
// reader takes in at once: "45s", "12m30s", "3h20m", "4 days", "12
// years"; "more than 292 years" for the longest Duration, which stands
// for any longer wait (see DurationOf). A time.Duration's own text of a
// hostile wait was "2562047h47m16s".
func WaitText(d time.Duration) string {
	const day, year = 24 * time.Hour, 36525 * 24 * time.Hour / 100
	switch {
	case d == math.MaxInt64:
		return fmt.Sprintf("more than %s years", thousands(int64(d/year)))
	case d < time.Second:
		return "less than a second"
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		s := d.Round(time.Second).String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		return s
	case d < 2*day:
		s := strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	case d < year:
		return fmt.Sprintf("%d days", (d+day/2)/day)
	}
	return fmt.Sprintf("%s years", thousands(int64((d+year/2)/year)))
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
