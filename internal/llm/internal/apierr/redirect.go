package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// CheckRedirect is the redirect policy of the providers' own HTTP clients.
// A redirect within the server that keeps the call a POST (a 307 or 308,
// a path given a trailing slash) is followed. One to another server (a
// base URL with http:// that the server sends to https://, a moved host)
// or one that turns the POST into a GET (a 301, 302 or 303, which clients
// follow so) is not: the OpenAI SDK refuses the first, so that the key
// does not go elsewhere, as an obscure network error retried in vain, and
// the second reaches the API as a GET it refuses ("Method Not Allowed").
// The redirect is answered to the caller instead, which Redirected turns
// into an error naming where the server points.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	first := via[0]
	if req.Method != first.Method || !strings.EqualFold(req.URL.Scheme, first.URL.Scheme) || !strings.EqualFold(req.URL.Host, first.URL.Host) {
		return http.ErrUseLastResponse
	}
	return nil
}

// RedirectError is the error for a call answered with a redirect that
// CheckRedirect did not follow, or nil when res is not a redirect: a base
// URL to change, which waiting will not, so not retried.
func RedirectError(req *http.Request, res *http.Response) *llm.Error {
	if res == nil || res.StatusCode < 300 || res.StatusCode > 399 {
		return nil
	}
	to := "another address"
	if loc, err := res.Location(); err == nil {
		to = Detail(loc.Redacted())
	}
	return &llm.Error{Kind: llm.ErrBadRequest, StatusCode: res.StatusCode, Err: fmt.Errorf(
		"%s redirects (HTTP %d) to %s: set the base URL to the address it names, without the API's path; "+
			"Parley does not follow a redirect to another server or one that turns the call into a GET",
		req.URL.Redacted(), res.StatusCode, to)}
}

// RejectRedirect is an SDK middleware that fails a call answered with a
// redirect with RedirectError.
func RejectRedirect(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if e := RedirectError(req, res); err == nil && e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	return res, err
}
