package postgres

import (
	"net/url"
	"strings"
)

// Redact returns a database URL fit for messages and logs: its password,
// in the user part or as a password= parameter, replaced by xxxxx.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		// Show no part of a URL we cannot take apart: it may hold a
		// password anywhere.
		scheme, _, _ := strings.Cut(s, "://")
		return scheme + "://(a URL that does not parse)"
	}
	if q := u.Query(); q.Has("password") || q.Has("sslpassword") {
		for _, k := range []string{"password", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, "xxxxx")
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
