package edgar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"
	"golang.org/x/time/rate"
)

// EnvUserAgent is the environment variable read when Config.UserAgent is empty.
const EnvUserAgent = "SEC_USER_AGENT"

// EnvBaseURL names the environment variable that points Parley at another
// address than the SEC's for both of EDGAR's hosts: a mirror or proxy that
// serves www.sec.gov's and data.sec.gov's paths (/files/company_tickers.json,
// /Archives/…, /submissions/…, /api/xbrl/companyfacts/…), or a test server.
// Filings are still cited at www.sec.gov.
const EnvBaseURL = "SEC_EDGAR_URL"

// Default endpoints and limits.
const (
	DefaultWWWBase  = "https://www.sec.gov"
	DefaultDataBase = "https://data.sec.gov"
	// MaxRequestsPerSecond is the SEC's fair-access ceiling we keep under
	// (the SEC allows 10; we leave headroom).
	MaxRequestsPerSecond = 8
	defaultMaxBody       = 128 << 20
	defaultAttemptLimit  = 5
	defaultMaxRetryAfter = 30 * time.Second
)

// Config configures a Client. The zero value, plus a User-Agent, talks to the
// real EDGAR.
type Config struct {
	// UserAgent declares who is calling, with a contact e-mail, as the SEC
	// requires: "Jane Doe jane@example.com". Empty means $SEC_USER_AGENT.
	UserAgent string
	// WWWBase serves company_tickers.json and filing archives
	// (default https://www.sec.gov).
	WWWBase string
	// DataBase serves submissions and companyfacts (default https://data.sec.gov).
	DataBase string
	// HTTPClient defaults to a client with a 60-second timeout.
	HTTPClient *http.Client
	// RequestsPerSecond is capped at MaxRequestsPerSecond, which is also the
	// default.
	RequestsPerSecond float64
	// Limiter, when set, spaces the requests instead of the Client's own
	// per-process limiter; pass a SharedLimiter so that the limit holds for
	// every process on the machine (see DefaultLimitFile).
	Limiter Limiter
	// MaxAttempts bounds tries per request, first try included (default 5).
	MaxAttempts int
	// InitialBackoff is the first retry delay before jitter (default 500ms).
	InitialBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After the client waits for; a longer
	// one ends the request with ErrUnreachable (default 30s).
	MaxRetryAfter time.Duration
	// Logger receives retry notices (default slog.Default()).
	Logger *slog.Logger
	// Now stamps provenance (default time.Now).
	Now func() time.Time
}

// Client talks to SEC EDGAR. One Client holds one rate limiter; use a single
// Client per process so that the fair-access limit holds process-wide, and
// give it a SharedLimiter (Config.Limiter) so that it holds machine-wide.
// A Client is safe for concurrent use.
type Client struct {
	ua            string
	www, data     string
	hc            *http.Client
	limiter       Limiter
	maxAttempts   int
	initial       time.Duration
	maxRetryAfter time.Duration
	log           *slog.Logger
	now           func() time.Time

	mu      sync.Mutex
	tickers *TickerIndex // fetched once, on first Lookup
}

var _ Source = (*Client)(nil)

// CheckUserAgent reports, wrapping ErrNoUserAgent, why ua (trimmed) is no
// User-Agent EDGAR accepts: it must give a contact e-mail. It does no I/O, so
// a caller can tell whether live EDGAR is usable before building a Client.
func CheckUserAgent(ua string) error {
	if ua == "" || !strings.Contains(ua, "@") {
		got := ""
		if ua != "" {
			got = fmt.Sprintf(" (got %q, which has no e-mail)", ua)
		}
		return fmt.Errorf("%w%s: SEC EDGAR requires a User-Agent naming you and giving a contact e-mail; "+
			"set %s, for example: export %s=\"Jane Doe jane@example.com\"", ErrNoUserAgent, got, EnvUserAgent, EnvUserAgent)
	}
	return nil
}

// New returns a Client. It fails with ErrNoUserAgent when no User-Agent with a
// contact e-mail is configured.
func New(cfg Config) (*Client, error) {
	ua := strings.TrimSpace(cfg.UserAgent)
	if ua == "" {
		ua = strings.TrimSpace(os.Getenv(EnvUserAgent))
	}
	if err := CheckUserAgent(ua); err != nil {
		return nil, err
	}
	c := &Client{
		ua:            ua,
		www:           strings.TrimRight(cmpOr(cfg.WWWBase, DefaultWWWBase), "/"),
		data:          strings.TrimRight(cmpOr(cfg.DataBase, DefaultDataBase), "/"),
		hc:            cfg.HTTPClient,
		maxAttempts:   cfg.MaxAttempts,
		initial:       cfg.InitialBackoff,
		maxRetryAfter: cfg.MaxRetryAfter,
		log:           cfg.Logger,
		now:           cfg.Now,
	}
	for _, base := range []string{c.www, c.data} {
		if u, err := url.Parse(base); err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("invalid EDGAR base URL %q: want scheme and host, like https://data.sec.gov", base)
		}
	}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: 60 * time.Second}
	}
	rps := cfg.RequestsPerSecond
	if rps <= 0 || rps > MaxRequestsPerSecond {
		rps = MaxRequestsPerSecond
	}
	// Burst 1: requests are spaced evenly, so no one-second window ever holds
	// more than rps of them.
	c.limiter = cfg.Limiter
	if c.limiter == nil {
		c.limiter = rate.NewLimiter(rate.Limit(rps), 1)
	}
	if c.maxAttempts <= 0 {
		c.maxAttempts = defaultAttemptLimit
	}
	if c.initial <= 0 {
		c.initial = backoff.DefaultInitialInterval
	}
	if c.maxRetryAfter <= 0 {
		c.maxRetryAfter = defaultMaxRetryAfter
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Lookup resolves a ticker using company_tickers.json, fetched once per Client.
func (c *Client) Lookup(ctx context.Context, ticker string) (Company, error) {
	idx, err := c.Tickers(ctx)
	if err != nil {
		return Company{}, err
	}
	return idx.Lookup(ticker)
}

// Tickers returns the SEC ticker list, fetching it on first use.
func (c *Client) Tickers(ctx context.Context) (*TickerIndex, error) {
	c.mu.Lock()
	idx := c.tickers
	c.mu.Unlock()
	if idx != nil {
		return idx, nil
	}
	raw, err := c.get(ctx, c.www+"/files/company_tickers.json")
	if err != nil {
		return nil, fmt.Errorf("fetch ticker list: %w", err)
	}
	idx, err = ParseTickers(raw.Body)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.tickers = idx
	c.mu.Unlock()
	return idx, nil
}

// Submissions fetches a company's filing history: filings.recent and every
// older page listed in filings.files.
func (c *Client) Submissions(ctx context.Context, cik CIK) (*Submissions, error) {
	raw, err := c.get(ctx, fmt.Sprintf("%s/submissions/CIK%s.json", c.data, cik))
	if err != nil {
		return nil, fmt.Errorf("fetch submissions for CIK %s: %w", cik, err)
	}
	subs, pages, err := ParseSubmissions(raw.Body)
	if err != nil {
		return nil, err
	}
	for _, p := range pages {
		if !validPageName(p.Name) {
			return nil, fmt.Errorf("submissions for CIK %s list a malformed page name %q", cik, p.Name)
		}
		page, err := c.get(ctx, c.data+"/submissions/"+p.Name)
		if err != nil {
			return nil, fmt.Errorf("fetch submissions page %s: %w", p.Name, err)
		}
		older, err := ParseSubmissionsPage(page.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		subs.Filings = append(subs.Filings, older...)
	}
	sortNewestFirst(subs.Filings)
	subs.Provenance = raw.Provenance
	return subs, nil
}

// CompanyFacts fetches the XBRL companyfacts document, unparsed.
func (c *Client) CompanyFacts(ctx context.Context, cik CIK) (*Raw, error) {
	raw, err := c.get(ctx, fmt.Sprintf("%s/api/xbrl/companyfacts/CIK%s.json", c.data, cik))
	if err != nil {
		return nil, fmt.Errorf("fetch company facts for CIK %s: %w", cik, err)
	}
	return raw, nil
}

// Document fetches one file of a filing from the EDGAR archive.
func (c *Client) Document(ctx context.Context, cik CIK, accession, name string) (*Raw, error) {
	acc := strings.ReplaceAll(strings.TrimSpace(accession), "-", "")
	if len(acc) != 18 || strings.Trim(acc, "0123456789") != "" {
		return nil, fmt.Errorf("invalid accession number %q: want 18 digits, like 0000320193-25-000079", accession)
	}
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, fmt.Errorf("invalid filing document name %q", name)
	}
	u := fmt.Sprintf("%s/Archives/edgar/data/%d/%s/%s", c.www, int64(cik), acc, name)
	raw, err := c.get(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("fetch %s of filing %s: %w", name, accession, err)
	}
	return raw, nil
}

// statusError is a non-2xx answer.
type statusError struct {
	code       int
	retryAfter time.Duration
	snippet    string
}

func (e *statusError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.code, http.StatusText(e.code))
	if e.snippet != "" {
		s += ": " + e.snippet
	}
	return s
}

// Unwrap exposes a Retry-After hint to backoff.Retry.
func (e *statusError) Unwrap() error {
	if e.retryAfter > 0 {
		return &backoff.RetryAfterError{Duration: e.retryAfter}
	}
	return nil
}

// blockMarkers identify the SEC's automated-traffic block page.
var blockMarkers = []string{"Request Rate Threshold Exceeded", "Undeclared Automated Tool"}

// get fetches one URL under the rate limit, retrying 429, 5xx and network
// errors with jittered exponential backoff.
func (c *Client) get(ctx context.Context, u string) (*Raw, error) {
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = c.initial
	attempt := 0
	op := func() ([]byte, error) {
		attempt++
		if err := c.limiter.Wait(ctx); err != nil {
			return nil, backoff.Permanent(err)
		}
		return c.do(ctx, u)
	}
	body, err := backoff.Retry(ctx, op,
		backoff.WithBackOff(bo),
		backoff.WithMaxTries(uint(c.maxAttempts)),
		backoff.WithMaxElapsedTime(0),
		backoff.WithNotify(func(err error, d time.Duration) {
			c.log.LogAttrs(ctx, slog.LevelWarn, "edgar: retrying", slog.String("url", u),
				slog.Int("attempt", attempt), slog.Duration("wait", d), slog.String("error", err.Error()))
		}),
	)
	if err != nil {
		return nil, c.classify(ctx, u, attempt, err)
	}
	return &Raw{Body: body, Provenance: Provenance{Origin: "SEC EDGAR", URL: u, Retrieved: c.now()}}, nil
}

// classify turns the last attempt's error into one wrapping a typed error.
func (c *Client) classify(ctx context.Context, u string, attempts int, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	var se *statusError
	if errors.As(err, &se) {
		switch {
		case se.code == http.StatusForbidden && isBlockPage(se.snippet):
			return fmt.Errorf("%w: GET %s: the SEC refused the request as automated traffic (%s); "+
				"make sure %s names you with a contact e-mail, wait about 10 minutes, and keep under %d requests per second",
				ErrBlocked, u, se.snippet, EnvUserAgent, MaxRequestsPerSecond)
		case se.code == http.StatusNotFound:
			return fmt.Errorf("%w: GET %s", ErrNotFound, u)
		case se.code == http.StatusTooManyRequests || se.code >= 500:
			if se.retryAfter > c.maxRetryAfter {
				return fmt.Errorf("%w: GET %s: %v, and the server asked to wait %s", ErrUnreachable, u, se, se.retryAfter)
			}
			return fmt.Errorf("%w: GET %s: %v after %d attempts", ErrUnreachable, u, se, attempts)
		}
		return fmt.Errorf("GET %s: %w", u, err)
	}
	var ne *netError
	if errors.As(err, &ne) {
		return fmt.Errorf("%w: GET %s after %d attempts: %w", ErrUnreachable, u, attempts, ne.err)
	}
	return fmt.Errorf("GET %s: %w", u, err)
}

func isBlockPage(s string) bool {
	for _, m := range blockMarkers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// netError marks transport failures, which are retried.
type netError struct{ err error }

func (e *netError) Error() string { return e.err.Error() }
func (e *netError) Unwrap() error { return e.err }

// do performs one attempt. Errors that are not worth retrying are wrapped in
// backoff.Permanent.
func (c *Client) do(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, backoff.Permanent(err)
	}
	req.Header.Set("User-Agent", c.ua)
	req.Header.Set("Accept", "application/json, text/html;q=0.9, */*;q=0.5")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, backoff.Permanent(err)
		}
		return nil, &netError{err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		body, err := io.ReadAll(io.LimitReader(resp.Body, defaultMaxBody+1))
		if err != nil {
			return nil, &netError{err: fmt.Errorf("read body: %w", err)}
		}
		if len(body) > defaultMaxBody {
			return nil, backoff.Permanent(fmt.Errorf("response larger than %d bytes", defaultMaxBody))
		}
		return body, nil
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	se := &statusError{code: resp.StatusCode, snippet: snippet(head)}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		se.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.now())
		if se.retryAfter > c.maxRetryAfter {
			return nil, backoff.Permanent(se)
		}
		return nil, se
	default:
		return nil, backoff.Permanent(se)
	}
}

// snippet condenses an error page to something worth showing: the block
// marker if there is one, else the first text of the page.
func snippet(body []byte) string {
	for _, m := range blockMarkers {
		if bytes.Contains(body, []byte(m)) {
			return m
		}
	}
	s := strings.Join(strings.Fields(HTMLText(body)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 when absent or bad.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
