package server

import (
	"context"
	"net"
	"net/http"
	"time"
)

// ConnLimits bound what one client holds of the server: a connection
// that sends its request slowly, reads its answer slowly, or sits idle
// holds a goroutine and a file descriptor for as long, so that a few
// thousand such connections (slowloris) would starve everyone else.
// Event streams stay open as long as their debate runs: they are bounded
// by the time each write takes, not by their length.
type ConnLimits struct {
	// ReadHeader is the time from a request's first byte to the end of its
	// headers.
	ReadHeader time.Duration
	// Body is the time to send a request's body (at most MaxBody bytes),
	// from the end of its headers.
	Body time.Duration
	// Response is the time to write a response other than an event
	// stream, from the end of the request's headers (rendering included:
	// a long debate's PDF takes seconds).
	Response time.Duration
	// StreamWrite is the time each write of an event stream may take: a
	// client that stops reading (its buffers full) is cut after it.
	StreamWrite time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
	// MaxHeaderBytes bounds the request line and headers (a query string
	// included).
	MaxHeaderBytes int
	// Streams bounds the event streams open at once, over every client:
	// each holds a connection, two goroutines and a buffer for as long as
	// its debate runs, so that clients opening streams without end would
	// take every file descriptor the process may open, and the API's
	// other requests with them. Beyond it a stream is refused (503, with
	// Retry-After).
	Streams int
}

// DefaultConnLimits are the limits of `parley serve` and `parley worker`'s
// metrics: generous for any client on a slow network.
func DefaultConnLimits() ConnLimits {
	return ConnLimits{ReadHeader: 10 * time.Second, Body: 30 * time.Second, Response: 2 * time.Minute,
		StreamWrite: 30 * time.Second, Idle: 2 * time.Minute, MaxHeaderBytes: 64 << 10, Streams: 10000}
}

// orDefault fills the zero fields of l with the defaults.
func (l ConnLimits) orDefault() ConnLimits {
	d := DefaultConnLimits()
	for _, f := range []struct{ v, def *time.Duration }{{&l.ReadHeader, &d.ReadHeader}, {&l.Body, &d.Body},
		{&l.Response, &d.Response}, {&l.StreamWrite, &d.StreamWrite}, {&l.Idle, &d.Idle}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.Streams <= 0 {
		l.Streams = d.Streams
	}
	return l
}

// NewHTTPServer is the http.Server for h with lim's limits (zero fields:
// the defaults), its requests' contexts derived from ctx. It has no
// ReadTimeout or WriteTimeout, which would end event streams after that
// time whatever their client does: the body and response deadlines are set
// for each request instead (by the handler NewHTTPServer wraps h in), and
// an event stream sets its own for each write.
func NewHTTPServer(ctx context.Context, h http.Handler, lim ConnLimits) *http.Server {
	lim = lim.orDefault()
	return &http.Server{
		Handler:           deadlines(h, lim),
		ReadHeaderTimeout: lim.ReadHeader,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		// Requests end with the server: open event streams close at once.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
}

// deadlines sets each request's body and response deadlines.
func deadlines(next http.Handler, lim ConnLimits) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		now := time.Now()
		// Errors are ignored: a connection that takes no deadline (HTTP/2
		// over a proxy, a test's recorder) is served as before.
		_ = rc.SetWriteDeadline(now.Add(lim.Response))
		// net/http lifts the read deadline once the body has been read to
		// its end (to watch for the client going away while the handler
		// works, which a deadline would take for it), and sets its own for
		// the next request's headers.
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			_ = rc.SetReadDeadline(now.Add(lim.Body))
		}
		next.ServeHTTP(w, r)
	})
}
