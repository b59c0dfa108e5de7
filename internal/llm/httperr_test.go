package llm

import (
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestKindForStatus(t *testing.T) {
	cases := map[int]ErrorKind{
		400: ErrBadRequest, 401: ErrAuth, 403: ErrAuth, 404: ErrBadRequest, 422: ErrBadRequest,
		429: ErrRateLimited, 500: ErrServer, 502: ErrServer, 503: ErrOverloaded, 529: ErrOverloaded,
		504: ErrTimeout, 204: ErrBadRequest, 202: ErrBadRequest,
	}
	for code, want := range cases {
		if got := KindForStatus(code); got != want {
			t.Errorf("KindForStatus(%d) = %s, want %s", code, got, want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{" 1.5 ", 1500 * time.Millisecond},
		{"-1", 0},
		{"soon", 0},
		{now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{now.Add(-7 * time.Second).Format(http.TimeFormat), 0},
		// Past what a Duration holds: the longest wait, not an overflow
		// to a negative one, read as none.
		{"99999999999", math.MaxInt64},
		{"1" + strings.Repeat("0", 400), math.MaxInt64},
		// Not delay-seconds, though strconv reads them.
		{"NaN", 0},
		{"Inf", 0},
		{"1e3", 0},
		{"0x10", 0},
		{"1.", 1 * time.Second},
		{".5", 500 * time.Millisecond},
		{".", 0},
	}
	for _, c := range cases {
		if got := ParseRetryAfter(c.in, now); got != c.want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// A wait is said in units a reader takes in, however long the server
// asked for: a hostile Retry-After read "2562047h47m16s".
func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond:          "less than a second",
		7 * time.Second:                 "7s",
		5 * time.Minute:                 "5m",
		12*time.Minute + 30*time.Second: "12m30s",
		24 * time.Hour:                  "24h",
		3*time.Hour + 20*time.Minute:    "3h20m",
		4 * 24 * time.Hour:              "4 days",
		12 * 8766 * time.Hour:           "12 years",
		200 * 8766 * time.Hour:          "200 years",
		math.MaxInt64:                   "more than 292 years",
		DurationOf(1e12, time.Second):   "more than 292 years",
	} {
		if got := WaitText(d); got != want {
			t.Errorf("WaitText(%v) = %q, want %q", d, got, want)
		}
	}
}
