package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// shortLimits are connection limits short enough for a test to wait out.
func shortLimits() ConnLimits {
	return ConnLimits{ReadHeader: 300 * time.Millisecond, Body: 300 * time.Millisecond, Response: time.Second,
		StreamWrite: 300 * time.Millisecond, Idle: 300 * time.Millisecond, MaxHeaderBytes: 16 << 10}
}

// limitedServer serves a memory store through NewHTTPServer with lim, as
// `parley serve` does; it returns the server, its address and its store.
func limitedServer(t *testing.T, lim ConnLimits) (*Server, string, debate.Store) {
	t.Helper()
	store := memstore.New()
	ctx, cancel := context.WithCancel(context.Background())
	a := &app.App{Store: store, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(string) string { return "" }, Now: time.Now, Notice: io.Discard}}
	srv, err := New(ctx, Config{App: a, Conn: lim})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = NewHTTPServer(ctx, srv.Handler(), lim)
	hs.Start()
	t.Cleanup(func() {
		cancel()
		hs.CloseClientConnections()
		hs.Close()
		srv.Wait()
		store.Close()
	})
	return srv, hs.Listener.Addr().String(), store
}

// closedWithin reports whether the server ends the connection (EOF or a
// reset, after any answer) within d.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) (bool, string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false, string(b)
	}
	return true, string(b)
}

// goroutinesIn counts the goroutines whose stack holds fn.
func goroutinesIn(fn string) int {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, fn) {
			n++
		}
	}
	return n
}

// waitGoroutines waits until no goroutine is in fn, failing after d.
func waitGoroutines(t *testing.T, fn string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for goroutinesIn(fn) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still in %s after %v", goroutinesIn(fn), fn, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// seedRunning stores a debate whose log says it runs: its event stream
// stays open.
func seedRunning(t *testing.T, store debate.Store, id string) {
	t.Helper()
	e, _ := debate.NewEvent(id, time.Now(), debate.Created{Format: "perspectives", Topic: "t", Limits: debate.DefaultLimits()})
	if _, err := store.Append(t.Context(), id, e); err != nil {
		t.Fatal(err)
	}
}

// TestSlowClientsAreCut: a client that sends its headers or its body a
// byte at a time (slowloris), keeps a connection idle, or stops reading an
// event stream is cut after the limit, not held for as long as it likes.
func TestSlowClientsAreCut(t *testing.T) {
	_, addr, store := limitedServer(t, shortLimits())
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// trickle writes one byte of s every 100 ms until the server cuts the
	// connection or s runs out.
	trickle := func(c net.Conn, s string) {
		for i := range len(s) {
			if _, err := c.Write([]byte{s[i]}); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	t.Run("headers", func(t *testing.T) {
		c := dial()
		go trickle(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "+strings.Repeat("a", 200)+"\r\n\r\n")
		if closed, got := closedWithin(t, c, 5*time.Second); !closed || strings.Contains(got, "200 OK") {
			t.Errorf("slow headers: closed %v, answer %q; want the connection cut, unanswered", closed, got)
		}
	})
	t.Run("body", func(t *testing.T) {
		c := dial()
		fmt.Fprintf(c, "POST /api/debates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n")
		go trickle(c, `{"topic":"`+strings.Repeat("a", 150)+`"}`)
		closed, got := closedWithin(t, c, 5*time.Second)
		if !closed || !strings.HasPrefix(got, "HTTP/1.1 408") || !strings.Contains(got, "did not arrive in time") {
			t.Errorf("slow body: closed %v, answer %q; want 408 and the connection cut", closed, got)
		}
	})
	t.Run("idle", func(t *testing.T) {
		c := dial()
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("healthz: %v %v", resp, err)
		}
		resp.Body.Close()
		if closed, _ := closedWithin(t, c, 5*time.Second); !closed {
			t.Error("an idle kept-alive connection is still open after 5 s (idle limit 300 ms)")
		}
	})
	t.Run("stream not read", func(t *testing.T) {
		seedRunning(t, store, "DEB-0000510e")
		c := dial()
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4 << 10) // fill up sooner
		}
		fmt.Fprintf(c, "GET /api/debates/DEB-0000510e/events HTTP/1.1\r\nHost: x\r\n\r\n")
		// Deltas until the socket's buffers are full; the client reads
		// nothing. The handler must give up within StreamWrite.
		text := strings.Repeat("x", 32<<10)
		for range 300 {
			e, _ := debate.NewEvent("DEB-0000510e", time.Now(), debate.TurnDelta{Turn: "t", Text: text})
			if _, err := store.Append(t.Context(), "DEB-0000510e", e); err != nil {
				t.Fatal(err)
			}
		}
		waitGoroutines(t, "(*Server).apiEvents", 5*time.Second)
	})
	t.Run("stream read", func(t *testing.T) {
		// A stream whose client reads it outlives the deadline of other
		// responses: each write has its own.
		seedRunning(t, store, "DEB-0000510f")
		resp, err := http.Get("http://" + addr + "/api/debates/DEB-0000510f/events")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got := make(chan int64, 100)
		go func() {
			defer close(got)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				var seq int64
				if _, err := fmt.Sscanf(sc.Text(), "id: %d", &seq); err == nil {
					got <- seq
				}
			}
		}()
		for i := range 25 { // 2.5 s, over Response (1 s)
			e, _ := debate.NewEvent("DEB-0000510f", time.Now(), debate.TurnDelta{Turn: "t", Text: "x"})
			seq, err := store.Append(t.Context(), "DEB-0000510f", e)
			if err != nil {
				t.Fatal(err)
			}
			for s := range got {
				if s == seq {
					break
				}
			}
			if i < 24 {
				time.Sleep(100 * time.Millisecond)
			}
		}
		select {
		case s, ok := <-got:
			if !ok {
				t.Fatal("the stream ended while its client read it")
			}
			t.Fatalf("unexpected event %d", s)
		default:
		}
	})
}

// TestStreamsEndWithTheirClients: hundreds of clients following a running
// debate, gone at once, leave no goroutine behind (stream, heartbeat, the
// hub's feed) and no feed in the hub.
func TestStreamsEndWithTheirClients(t *testing.T) {
	srv, addr, store := limitedServer(t, DefaultConnLimits())
	seedRunning(t, store, "DEB-00000ea5")
	seedRunning(t, store, "DEB-00000ea6")
	const clients = 300
	tr := &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	open := make(chan error, clients)
	for i := range clients {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/api/debates/DEB-00000ea%d/events", addr, 5+i%2), nil)
			resp, err := client.Do(req)
			if err != nil {
				open <- err
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			_, err = br.ReadString('\n') // "retry: 2000"
			open <- err
			_, _ = io.Copy(io.Discard, br)
		}()
	}
	for range clients {
		if err := <-open; err != nil {
			t.Fatalf("open a stream: %v", err)
		}
	}
	if n := goroutinesIn("(*Server).apiEvents("); n != clients {
		t.Fatalf("%d streams served, want %d", n, clients)
	}
	cancel()
	for _, fn := range []string{"(*Server).apiEvents", "(*hub).run"} {
		waitGoroutines(t, fn, 10*time.Second)
	}
	srv.hub.mu.Lock()
	feeds := len(srv.hub.feeds)
	srv.hub.mu.Unlock()
	if feeds != 0 {
		t.Errorf("%d feeds left in the hub with no client", feeds)
	}
}

// TestHostileRequests: what a hostile client sends is refused with a short
// answer that says what to send instead: headers and query strings over the
// limit, a query value quoted back clipped, a body that is not JSON by its
// media type, a login form over the body limit; OPTIONS and HEAD are
// answered without a body and nothing grants another origin a read (CORS).
func TestHostileRequests(t *testing.T) {
	_, addr, _ := limitedServer(t, shortLimits())
	base := "http://" + addr
	// do sends a safe request (GET, HEAD, OPTIONS).
	do := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		// From another origin: answered, but no read granted to it.
		req.Header.Set("Origin", "https://evil.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("%s %s grants origin %q a read", method, path, v)
		}
		return resp, string(b)
	}
	if resp, _ := do("GET", "/api/debates?status="+strings.Repeat("a", 20<<10)); resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 20 KiB query string (limit 16 KiB): %d, want 431", resp.StatusCode)
	}
	resp, out := do("GET", "/api/debates?status="+strings.Repeat("é", 4<<10))
	if resp.StatusCode != http.StatusBadRequest || len(out) > 1024 || !strings.Contains(out, "…") {
		t.Errorf("an 8 KiB status: %d, %d bytes (%.120s…); want 400 quoting it clipped", resp.StatusCode, len(out), out)
	}
	for _, ct := range []string{"application/jsonx", "application/json-seq", "text/plain", "application/x-www-form-urlencoded", "json"} {
		// From no Origin: the cross-origin check is not what refuses it.
		req, _ := http.NewRequest("POST", base+"/api/debates", strings.NewReader(`{"topic":"t"}`))
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType || !strings.Contains(string(b), "Content-Type: application/json") {
			t.Errorf("Content-Type %s: %d %s, want 415 naming the type to send", ct, resp.StatusCode, b)
		}
	}
	req, _ := http.NewRequest("POST", base+"/api/debates", strings.NewReader(`{"topic":""}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode == http.StatusUnsupportedMediaType {
		t.Errorf("Content-Type with a charset: %v %v, want it read", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}
	req, _ = http.NewRequest("POST", base+"/login", strings.NewReader("token="+strings.Repeat("a", MaxBody+1)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a login form over %d bytes: %v %v, want 413", MaxBody, resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}
	// An id is a key in the store, never a path: whatever it holds, no
	// debate by it, and the static files stay in theirs.
	for _, path := range []string{"/api/debates/..%2F..%2Fetc%2Fpasswd", "/api/debates/%2e%2e%2f%2e%2e%2fparley.db/export?as=md",
		"/api/debates/..%5C..%5Cwindows/events", "/debates/%2e%2e%2fstatic%2fapp.js", "/static/..%2fserver.go", "/static/%2e%2e/templates/list.html"} {
		if resp, out := do("GET", path); resp.StatusCode != http.StatusNotFound || strings.Contains(out, "package server") || strings.Contains(out, "root:") {
			t.Errorf("GET %s: %d %.80s; want 404", path, resp.StatusCode, out)
		}
	}
	if resp, out := do("OPTIONS", "/api/debates"); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") == "" || !strings.Contains(out, "takes only") {
		t.Errorf("OPTIONS /api/debates: %d Allow %q %s; want 405 naming the methods", resp.StatusCode, resp.Header.Get("Allow"), out)
	}
	for _, path := range []string{"/api/debates", "/metrics", "/healthz", "/"} {
		if resp, out := do("HEAD", path); resp.StatusCode != http.StatusOK || out != "" {
			t.Errorf("HEAD %s: %d with %d bytes of body, want 200 and none", path, resp.StatusCode, len(out))
		}
	}
}

// TestStreamsAreBounded: event streams beyond ConnLimits.Streams, over
// every client, are refused (503 with Retry-After, saying what to do)
// rather than each taking a connection and goroutines for as long as the
// debate runs; a stream that ends gives its place back. HEAD, which opens
// no stream, is answered all along.
func TestStreamsAreBounded(t *testing.T) {
	lim := DefaultConnLimits()
	lim.Streams = 3
	_, addr, store := limitedServer(t, lim)
	seedRunning(t, store, "DEB-0000b0d5")
	url := "http://" + addr + "/api/debates/DEB-0000b0d5/events"
	open := func() (*http.Response, context.CancelFunc) {
		t.Helper()
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); resp.Body.Close() })
		return resp, cancel
	}
	var first context.CancelFunc
	for i := range 3 {
		resp, cancel := open()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d of 3: %d", i+1, resp.StatusCode)
		}
		if i == 0 {
			first = cancel
		}
	}
	resp, _ := open()
	var b []byte
	if resp.StatusCode != http.StatusOK { // a stream would not end
		b, _ = io.ReadAll(resp.Body)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), "reconnect in a while") {
		t.Errorf("a 4th stream: %d, Retry-After %q, %s; want 503 saying to reconnect later", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if resp, err := http.Head(url); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD with every stream taken: %v %v, want 200", resp.StatusCode, err)
	}
	// /metrics says so: an operator sees the bound reached before the
	// pages stop following their debates.
	metrics := func() string {
		t.Helper()
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	m := metrics()
	for _, want := range []string{"# TYPE parley_event_streams_open gauge\nparley_event_streams_open 3\n", "parley_event_streams_max 3\n",
		"# TYPE parley_event_streams_refused_total counter\nparley_event_streams_refused_total 1\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics with 3 streams open of 3 and 1 refused lacks %q:\n%s", want, m)
		}
	}
	first()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, _ := open()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stream after one ended: %d, want its place back", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The ended stream gave its place back; HEAD took none.
	if m := metrics(); !strings.Contains(m, "parley_event_streams_open 3\n") {
		t.Errorf("/metrics after one stream ended and another opened:\n%s", m)
	}
}
