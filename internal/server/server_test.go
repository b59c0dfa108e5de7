package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/render/pdf"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

type testServer struct {
	*Server
	URL    string
	client *http.Client
	token  string
}

// newTestServer serves a memory store; env is the environment the
// application layer sees (models, keys).
func newTestServer(t *testing.T, env map[string]string, token string) *testServer {
	t.Helper()
	return newTestServerOn(t, memstore.New(), env, token)
}

// newTestServerOn is newTestServer serving store, which it closes.
func newTestServerOn(t *testing.T, store debate.Store, env map[string]string, token string) *testServer {
	t.Helper()
	return newTestServerWith(t, store, app.DefaultFormats(), env, token)
}

// newTestServerWith is newTestServerOn with the formats of reg.
func newTestServerWith(t *testing.T, store debate.Store, reg *debate.Formats, env map[string]string, token string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a := &app.App{Store: store, Formats: reg, Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now, Notice: io.Discard}}
	srv, err := New(ctx, Config{App: a, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Config.BaseContext = nil
	hs.Start()
	t.Cleanup(func() {
		cancel()
		hs.CloseClientConnections()
		hs.Close()
		srv.Wait()
		store.Close()
	})
	return &testServer{Server: srv, URL: hs.URL, client: hs.Client(), token: token}
}

// fakeModel is the environment of a server whose models are the in-repo
// fake server playing a script from cmd/parley/testdata.
func fakeModel(t *testing.T, name string, opts ...fakellm.Option) map[string]string {
	t.Helper()
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, append([]fakellm.Option{fakellm.WithAPIKey("test-key")}, opts...)...)
	t.Cleanup(srv.Close)
	return map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
}

func (ts *testServer) do(t *testing.T, method, path, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if ts.token != "" {
		req.Header.Set("Authorization", "Bearer "+ts.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (ts *testServer) create(t *testing.T, body string) string {
	t.Helper()
	resp, out := ts.do(t, "POST", "/api/debates", body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/debates %s: %d %s", body, resp.StatusCode, out)
	}
	var c struct{ ID string }
	if err := json.Unmarshal([]byte(out), &c); err != nil || c.ID == "" {
		t.Fatalf("create answer %q: %v", out, err)
	}
	return c.ID
}

// waitFor polls the debate until cond holds.
func (ts *testServer) waitFor(t *testing.T, id string, what string, cond func(DebateView) bool) DebateView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, out := ts.do(t, "GET", "/api/debates/"+id, "")
		var v DebateView
		if resp.StatusCode == http.StatusOK && json.Unmarshal([]byte(out), &v) == nil && cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("debate %s never %s; last: %d %.400s", id, what, resp.StatusCode, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCreateRunsOfflineDebateAndExports(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	v := ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	if v.Format != "bullbear" || v.Running {
		t.Fatalf("view %+v: want a completed bullbear debate no longer running", v.Summary)
	}
	resp, out := ts.do(t, "GET", "/api/debates?status=completed&format=bullbear", "")
	if resp.StatusCode != 200 || !strings.Contains(out, id) {
		t.Fatalf("list: %d %s", resp.StatusCode, out)
	}
	// A data-only debate: the API tells it from a free model run, and the
	// pages show no model rather than $0.0000.
	for _, want := range []string{`"cost_usd":0`, `"llm_turns":0`} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %s: %s", want, out)
		}
	}
	if _, page := ts.do(t, "GET", "/", ""); !strings.Contains(page, "<td>no model</td>") || strings.Contains(page, "$0.0000") {
		t.Errorf("list page: want the cost cell to say no model:\n%s", page)
	}
	if _, page := ts.do(t, "GET", "/debates/"+id+"/panel", ""); !strings.Contains(page, "no cost (no model used)") {
		t.Errorf("panel: want no cost (no model used):\n%s", page)
	}
	if _, out := ts.do(t, "GET", "/api/debates?status=running", ""); strings.Contains(out, id) {
		t.Fatalf("status filter: a completed debate listed as running: %s", out)
	}
	for as, want := range map[string]string{"md": "text/markdown", "json": "application/json", "pdf": "application/pdf"} {
		resp, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as="+as, "")
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), want) || len(out) < 200 {
			t.Errorf("export as %s: %d %s, %d bytes", as, resp.StatusCode, resp.Header.Get("Content-Type"), len(out))
		}
	}
	if resp, _ := ts.do(t, "GET", "/api/debates/"+id+"/export?as=docx", ""); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("export as docx: %d, want 400", resp.StatusCode)
	}
	for _, path := range []string{"/", "/new", "/debates/" + id, "/debates/" + id + "/panel", "/debates/" + id + "/report", "/api/openapi.json"} {
		resp, out := ts.do(t, "GET", path, "")
		if resp.StatusCode != 200 || len(out) == 0 {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
}

func TestBadRequests(t *testing.T) { testBadRequests(t, newTestServer(t, nil, "")) }

func testBadRequests(t *testing.T, ts *testServer) {
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	big := `{"topic":"` + strings.Repeat("x", MaxBody) + `"}`
	for _, tc := range []struct {
		method, path, body string
		code               int
		says               string
		header             []string
	}{
		{"POST", "/api/debates", `{"topic":""}`, 400, "topic is empty", nil},
		// A body the decoder refuses is told in the API's terms (its
		// fields, JSON's types), never Go's, with what to send instead.
		{"POST", "/api/debates", `{"topic":"x","bogus":1}`, 400, `unknown field \"bogus\": the fields are format, topic, perspectives`, nil},
		{"POST", "/api/debates", `{"topic":"x"} {}`, 400, "more than one", nil},
		{"POST", "/api/debates", `not json`, 400, "the body is not valid JSON (at byte 2: invalid character", nil},
		{"POST", "/api/debates", `{"topic":`, 400, "the body is not valid JSON (it ends too early): send one JSON object with the fields format, topic", nil},
		{"POST", "/api/debates", ``, 400, "the body is empty: send one JSON object with the fields format, topic", nil},
		{"POST", "/api/debates", `[]`, 400, "the body is an array, not an object", nil},
		{"POST", "/api/debates", ` null `, 400, "the body is null, not an object: send one JSON object with the fields format, topic", nil},
		{"POST", "/api/debates", `{"topic":5}`, 400, `\"topic\" is a number: give a string"`, nil},
		// A whole number is taken in any JSON spelling (1e3, 1000.0; see
		// TestWholeNumbersInAnySpelling), not a fraction nor one no
		// integer holds.
		{"POST", "/api/debates", `{"topic":"x","turn_budget":1.5}`, 400, `\"turn_budget\" is 1.5, not a whole number: give a whole number"`, nil},
		{"POST", "/api/debates", `{"topic":"x","max_rounds":2.5e0}`, 400, `\"max_rounds\" is 2.5e0, not a whole number`, nil},
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true,"debate_budget":-5}`, 400, `the debate budget -5 is negative: give 0 (unlimited) or a number of tokens`, nil},
		{"POST", "/api/debates", `{"topic":"x","max_rounds":1e30}`, 400, `\"max_rounds\" is 1e30, too large: give a smaller whole number"`, nil},
		{"POST", "/api/debates", `{"topic":"x","max_rounds":99999999999999999999}`, 400, `\"max_rounds\" is 99999999999999999999, too large`, nil},
		{"POST", "/api/debates", `{"topic":"x","hints":"look at margins"}`, 400, `\"hints\" is a string: give an array of strings"`, nil},
		{"POST", "/api/debates", `{"topic":"x","deep":"yes"}`, 400, `\"deep\" is a string: give true or false"`, nil},
		// A field given twice is refused: decoders disagree on which one
		// counts (Go's takes the last, others the first or refuse), so a
		// proxy that checked one value may pass the other.
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true,"topic":"x"}`, 400, `\"topic\" is given twice: give each field once`, nil},
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true,"model_for":[{"a":1,"a":2}]}`, 400, `\"model_for[0].a\" is given twice`, nil},
		// A field named in another case is refused, not taken for the
		// field (Go's decoder folds case, others do not), nor counted
		// after the field as its second value.
		{"POST", "/api/debates", `{"TOPIC":"NVDA","offline":true}`, 400, `unknown field \"TOPIC\": the fields' names are matched exactly; write \"topic\"`, nil},
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true,"Offline":false}`, 400, `unknown field \"Offline\"`, nil},
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true,"ſnapshot":true}`, 400, `unknown field \"ſnapshot\": the fields' names are matched exactly; write \"snapshot\"`, nil},
		{"POST", "/api/debates/" + id + "/hints", `{"target":"bull","Text":"x"}`, 400, `write \"text\"`, nil},
		// Invalid UTF-8 would be stored as U+FFFD without a word.
		{"POST", "/api/debates", "{\"topic\":\"NVDA \xff\xfe\",\"offline\":true}", 400, "the body is not valid UTF-8 (at byte 16): send text as UTF-8", nil},
		{"POST", "/api/debates", `{"topic":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, 400, "the body is not valid JSON (at byte 10009: invalid character '[' exceeded max depth)", nil},
		{"POST", "/api/debates/" + id + "/hints", ``, 400, "the body is empty: send one JSON object with the fields target, text", nil},
		{"POST", "/api/debates", big, 413, "bytes", nil},
		{"POST", "/api/debates", `{"topic":"x"}`, 415, "JSON", []string{"Content-Type", "text/plain"}},
		{"POST", "/api/debates", `{"topic":"Redis or Postgres?"}`, 422, "needs a language model", nil},
		{"POST", "/api/debates", `{"topic":"x","format":"chess"}`, 400, "chess", nil},
		// An option of another format is refused, not ignored.
		{"POST", "/api/debates", `{"topic":"Is Bitcoin digital gold?","agents":["saylor","hayes"]}`, 400, `{"error":"\"agents\": with no \"format\" this debate is perspectives, which has no \"agents\" (council and crux take it)`, nil},
		{"POST", "/api/debates", `{"topic":"Is it?","format":"council","rounds":3}`, 400, `the council format has no \"rounds\" (formal takes it)`, nil},
		// A request names no file: an unknown persona is told without the
		// command line's --personas FILE.
		{"POST", "/api/debates", `{"topic":"Is Bitcoin digital gold?","format":"crux","agents":["saylor","nobody"]}`, 400, `{"error":"\"agents\": no persona \"nobody\"; known: buffett, dalio, hayes, saylor, taleb, wood"}`, nil},
		{"POST", "/api/debates", `{"topic":"ZZZZZ","offline":true}`, 400, "ZZZZZ", nil},
		// The pages' forms are text: bytes that are not UTF-8, and NUL,
		// are refused before anything else, not stored as U+FFFD.
		{"POST", "/debates/" + id + "/hints", "target=bull&text=a%FFb", 400, "is not text (bytes that are not UTF-8, or NUL): send it from the page", []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{"POST", "/debates/" + id + "/checkpoint", "action=guide&guidance=%C3%28", 400, "&#34;guidance&#34; is not text", []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{"POST", "/new", "format=bullbear&topic=NVDA&offline=on&model=a%00b", 400, "&#34;model&#34; is not text", []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{"GET", "/api/debates/DEB-00000000", "", 404, "no such debate", nil},
		{"GET", "/api/debates/DEB-00000000/events", "", 404, "no such debate", nil},
		{"POST", "/api/debates/DEB-00000000/resume", "", 404, "no such debate: GET /api/debates lists them", nil},
		{"POST", "/debates/DEB-00000000/resume", "", 404, "No such debate.", nil},
		{"GET", "/api/debates/" + id + "/events?after=x", "", 400, "sequence number", nil},
		{"GET", "/api/debates/" + id + "/events?after=99999", "", 400, "after 99999: debate " + id + " has ", nil},
		{"GET", "/api/debates/" + id + "/events", "", 400, "Last-Event-ID 99999: debate " + id + " has ", []string{"Last-Event-ID", "99999"}},
		{"GET", "/api/debates/" + id + "/events", "", 400, `Last-Event-ID \"x\": give the sequence number`, []string{"Last-Event-ID", "x"}},
		{"GET", "/api/debates/" + id + "/export?as=md&summary=yes", "", 400, `summary=\"yes\": give summary=true`, nil},
		{"POST", "/api/debates/" + id + "/hints", `{"target":"bull","text":"x"}`, 409, "not running", nil},
		{"POST", "/api/debates/" + id + "/pause", ``, 409, "not running", nil},
		{"POST", "/api/debates/" + id + "/resume", ``, 409, "completed", nil},
		{"POST", "/api/debates/" + id + "/checkpoint", `{"action":"continue"}`, 409, "no checkpoint", nil},
		{"POST", "/api/debates/" + id + "/checkpoint", `{"action":"dance"}`, 400, "continue, guide or end", nil},
		{"POST", "/api/debates/" + id + "/checkpoint", `{"action":"guide"}`, 400, "needs guidance", nil},
		// A state-changing request from another origin is refused.
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true}`, 403, "", []string{"Sec-Fetch-Site", "cross-site"}},
		{"POST", "/api/debates", `{"topic":"NVDA","offline":true}`, 403, `{"error":"a request from another origin`, []string{"Origin", "https://evil.example"}},
		// What the router refuses under /api/ is answered as every API
		// error is, in JSON.
		{"GET", "/api/nope", "", 404, `{"error":"no such API path`, nil},
		{"DELETE", "/api/debates", "", 405, `{"error":"this path takes only GET, HEAD, POST"}`, nil},
		{"POST", "/api/debates/" + id + "/events", "", 405, `{"error":"this path takes only GET, HEAD"}`, nil},
		// What it refuses elsewhere is answered with a page, as the pages'
		// own errors are, not the mux's plain text.
		{"GET", "/nope", "", 404, `<p class="error" role="alert">No such page.</p>`, nil},
		{"POST", "/debates/" + id + "/dance", "", 404, `<p class="error" role="alert">No such page.</p>`, nil},
		{"DELETE", "/new", "", 405, `<p class="error" role="alert">This page takes only GET, HEAD, POST.</p>`, nil},
	} {
		resp, out := ts.do(t, tc.method, tc.path, tc.body, tc.header...)
		if resp.StatusCode != tc.code || !strings.Contains(out, tc.says) {
			t.Errorf("%s %s %.60s: %d %.200s; want %d saying %q", tc.method, tc.path, tc.body, resp.StatusCode, out, tc.code, tc.says)
		}
	}
	if _, out := ts.do(t, "GET", "/api/debates", ""); strings.Count(out, `"id"`) != 1 {
		t.Fatalf("refused requests created debates: %s", out)
	}
}

// TestWrongTokensArePaced: wrong tokens beyond a burst are answered 429
// with Retry-After (a dictionary is not tried at the network's speed),
// on the API and the sign-in form alike, while the right token is served
// all along.
func TestWrongTokensArePaced(t *testing.T) {
	ts := newTestServer(t, nil, "s3cret-token")
	// The server's burst, refilled too slowly to matter however slow the
	// machine running the test.
	ts.guesses = rate.NewLimiter(rate.Every(time.Hour), guessBurst)
	limited := 0
	for i := range 3 * guessBurst {
		resp, out := ts.do(t, "GET", "/api/debates", "", "Authorization", fmt.Sprint("Bearer guess-", i))
		switch resp.StatusCode {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			limited++
			if resp.Header.Get("Retry-After") == "" || !strings.Contains(out, "wrong token") {
				t.Fatalf("429 without Retry-After or a word of why: %v %s", resp.Header, out)
			}
		default:
			t.Fatalf("guess %d: %d %s", i, resp.StatusCode, out)
		}
		if resp, _ := ts.do(t, "GET", "/api/debates", "", "Authorization", "Bearer s3cret-token"); resp.StatusCode != http.StatusOK {
			t.Fatalf("the right token after %d guesses: %d, want 200", i+1, resp.StatusCode)
		}
	}
	if limited != 2*guessBurst {
		t.Errorf("%d of %d wrong tokens were paced, want all but the burst of %d", limited, 3*guessBurst, guessBurst)
	}
	resp, err := ts.client.PostForm(ts.URL+"/login", url.Values{"token": {"guess"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a wrong token at the sign-in form after the burst: %d, want 429", resp.StatusCode)
	}
}

func TestTokenRequired(t *testing.T) {
	ts := newTestServer(t, nil, "s3cret-token")
	for _, tc := range []struct {
		path, auth string
		code       int
	}{
		{"/api/debates", "", 401},
		{"/api/debates", "Bearer wrong", 401},
		{"/api/debates", "Bearer s3cret-token", 200},
		// The scheme is case-insensitive.
		{"/api/debates", "bearer s3cret-token", 200},
		{"/api/debates", "BEARER  s3cret-token", 200},
		{"/api/debates", "Basic s3cret-token", 401},
		{"/api/debates", "Bearers3cret-token", 401},
		{"/static/style.css", "", 200},
		{"/login", "", 200},
	} {
		resp, out := ts.do(t, "GET", tc.path, "", "Authorization", tc.auth)
		if resp.StatusCode != tc.code {
			t.Errorf("GET %s with %q: %d, want %d", tc.path, tc.auth, resp.StatusCode, tc.code)
		}
		// A wrong token is told so, not that one is required.
		if tc.auth == "Bearer wrong" && !strings.Contains(out, "not this server's") {
			t.Errorf("GET %s with %q: %s, want it to say the token is not the server's", tc.path, tc.auth, out)
		}
	}
	// The browser is sent to the sign-in form, which sets an HttpOnly,
	// SameSite=Strict cookie for the right token only.
	noRedirect := *ts.client
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := noRedirect.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Fatalf("page without a token: %d to %q, want a redirect to /login", resp.StatusCode, resp.Header.Get("Location"))
	}
	for token, code := range map[string]int{"wrong": 401, "s3cret-token": 303} {
		resp, err := noRedirect.PostForm(ts.URL+"/login", url.Values{"token": {token}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Fatalf("login with %q: %d, want %d", token, resp.StatusCode, code)
		}
		if code == 303 {
			c := resp.Cookies()
			if len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
				t.Fatalf("cookie %+v: want one HttpOnly SameSite=Strict cookie", c)
			}
			req, _ := http.NewRequest("GET", ts.URL+"/", nil)
			req.AddCookie(c[0])
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("page with the cookie: %d", resp.StatusCode)
			}
		}
	}
}

func TestCheckBind(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:7878": true, "localhost:1": true, "[::1]:7878": true, "0.0.0.0:7878": false, ":7878": false, "10.0.0.5:80": false, "nonsense": false} {
		if err := CheckBind(addr, ""); (err == nil) != ok {
			t.Errorf("CheckBind(%q) without a token: %v", addr, err)
		}
	}
	if err := CheckBind("0.0.0.0:7878", "t"); err != nil {
		t.Errorf("with a token: %v", err)
	}
	// A port no server can listen on is refused as such, token or not:
	// ":99999" was told to add a token, then refused for its port.
	for _, addr := range []string{":99999", "0.0.0.0:-1", "127.0.0.1:port"} {
		for _, token := range []string{"", "t"} {
			err := CheckBind(addr, token)
			if err == nil || !strings.Contains(err.Error(), "give a port from 0 to 65535") || strings.Contains(err.Error(), "token") {
				t.Errorf("CheckBind(%q, %q): %v, want the port refused", addr, token, err)
			}
		}
	}
}

// sseEvents reads server-sent events until n have arrived or the stream
// ends, returning their sequence numbers.
func sseEvents(t *testing.T, ts *testServer, id string, lastID string, n int) []int64 {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/api/debates/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := ts.client.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var seqs []int64
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var idLine int64 = -1
	for sc.Scan() && (n <= 0 || len(seqs) < n) {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			fmt.Sscan(strings.TrimPrefix(line, "id: "), &idLine)
		case strings.HasPrefix(line, "data: "):
			var e struct {
				Seq  int64
				Type string
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
				t.Fatalf("data %q: %v", line, err)
			}
			if e.Seq != idLine {
				t.Fatalf("event id %d, data seq %d", idLine, e.Seq)
			}
			seqs = append(seqs, e.Seq)
		}
	}
	return seqs
}

// TestEventsReconnect disconnects mid-debate and reconnects with
// Last-Event-ID: every event arrives exactly once, in order.
func TestEventsReconnect(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "perspectives.yaml", fakellm.WithTokenDelay(2*time.Millisecond)), "")
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?","no_checkpoints":true}`)
	first := sseEvents(t, ts, id, "", 25)
	if len(first) != 25 {
		t.Fatalf("first connection got %d events", len(first))
	}
	rest := sseEvents(t, ts, id, fmt.Sprint(first[len(first)-1]), 0) // to the end of the debate
	all := append(first, rest...)
	for i, seq := range all {
		if seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: lost or repeated across the reconnect (%v)", i+1, seq, all)
		}
	}
	v := ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	if int64(len(all)) != v.LastSeq {
		t.Fatalf("received %d events, the log has %d", len(all), v.LastSeq)
	}
}

// TestNewFormKeepsWhatWasEntered: a new-debate form refused (here: a topic
// that is no ticker) comes back with every field as entered, not only the
// topic: resubmitted after fixing the topic it asks for the same debate
// (offline stays offline, and costs nothing).
func TestNewFormKeepsWhatWasEntered(t *testing.T) {
	ts := newTestServer(t, nil, "")
	form := url.Values{"topic": {"ZZZQ"}, "format": {"bullbear"}, "offline": {"on"}, "deep": {"on"},
		"framework": {"altman"}, "hints": {`bear: "margins" <b>`}, "provider": {"openai"}, "model": {"m-1"}}
	resp, out := ts.do(t, "POST", "/new", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a topic that is no ticker: %d", resp.StatusCode)
	}
	for _, want := range []string{
		`name="offline" checked`, `name="deep" checked`, `<option selected>altman</option>`,
		`value="bear: &#34;margins&#34; &lt;b&gt;"`, `<option selected>openai</option>`, `value="m-1"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the form shown again lacks %s", want)
		}
	}
	for _, not := range []string{`name="bullbear_snapshot" checked`, `name="no_checkpoints" checked`, `<option selected>piotroski</option>`} {
		if strings.Contains(out, not) {
			t.Errorf("the form shown again has %s, not entered", not)
		}
	}
}

// TestNoModelWordedForTheAPI: a debate that needs a model, asked of a
// server with none, is refused in the API's terms (its request fields and
// the server's environment), not the command line's flags; the
// dashboard's form in its own (its Model fields, which have no "model_for").
func TestNoModelWordedForTheAPI(t *testing.T) {
	ts := newTestServer(t, nil, "")
	resp, out := ts.do(t, "POST", "/api/debates", `{"topic":"Redis or Postgres?"}`)
	form := url.Values{"topic": {"Redis or Postgres?"}, "format": {"perspectives"}}
	presp, page := ts.do(t, "POST", "/new", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	_, page, _ = strings.Cut(page, `<p class="error" role="alert">`)
	page, _, _ = strings.Cut(page, "</p>")
	for _, r := range []struct {
		what     string
		code     int
		body     string
		want     []string
		notNamed []string
	}{
		{"API", resp.StatusCode, out, []string{`"provider"`, `"model"`, `"model_for"`}, []string{"“Model”"}},
		{"form", presp.StatusCode, html.UnescapeString(page), []string{"Choose a provider", "“Model”"}, []string{`"model_for"`, `"provider"`}},
	} {
		if r.code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d, want 422", r.what, r.code)
		}
		for _, want := range append([]string{"perspectives format needs a language model", "OLLAMA_HOST"}, r.want...) {
			if !strings.Contains(strings.ReplaceAll(r.body, `\"`, `"`), want) {
				t.Errorf("%s: the refusal lacks %s: %s", r.what, want, r.body)
			}
		}
		for _, not := range append([]string{"--provider", "--model", "--model-for"}, r.notNamed...) {
			if strings.Contains(strings.ReplaceAll(r.body, `\"`, `"`), not) {
				t.Errorf("%s: the refusal names %s: %s", r.what, not, r.body)
			}
		}
	}
}

// TestFormErrorsNameItsLabels: the new-debate form's refusals name the
// field as the form labels it for the chosen format (the council's rounds
// are its "Rounds" slider, named council_max_rounds in the form and
// max_rounds in the API), never the API's field names or the flags.
func TestFormErrorsNameItsLabels(t *testing.T) {
	ts := newTestServer(t, nil, "")
	for _, c := range []struct {
		form url.Values
		says string
		not  string
	}{
		{url.Values{"format": {"council"}, "topic": {"Acme"}, "council_max_rounds": {"9"}}, "“Rounds” 9: the council debates 1 to 5 rounds", "max_rounds"},
		{url.Values{"format": {"council"}, "topic": {"Acme"}, "council_agents": {"bob"}}, "“Agents”: the council needs", `"agents"`},
		{url.Values{"format": {"crux"}, "topic": {"Is X?"}, "crux_agents": {"zz,yy"}}, "“Personas”: no persona", `"agents"`},
		{url.Values{"format": {"formal"}, "topic": {"Is X?"}, "rounds": {"99"}}, "“Rounds” 99: choose 1 to 10", `"rounds"`},
		{url.Values{"format": {"bullbear"}, "topic": {"NVDA"}, "offline": {"on"}, "hints": {"nobody: x"}}, "“Hint” \"nobody: x\": unknown agent", `"hints"`},
	} {
		_, page := ts.do(t, "POST", "/new", c.form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
		_, msg, _ := strings.Cut(page, `<p class="error" role="alert">`)
		msg, _, _ = strings.Cut(msg, "</p>")
		msg = html.UnescapeString(msg)
		if !strings.Contains(msg, c.says) || strings.Contains(msg, c.not) || strings.Contains(msg, "--") {
			t.Errorf("form %v: the refusal %q does not say %q (or names %s or a flag)", c.form, msg, c.says, c.not)
		}
	}
}

// TestFormRoundsAreTheFormats: the form's round fields start at the
// formats' defaults and go up to their maxima, so that a debate started
// from the form with a field left as it is runs as long as one started
// without the flag (perspectives' form used to start at 3 of the spec's 5
// and stop at 10 of 20, formal's at 6 of 10).
func TestFormRoundsAreTheFormats(t *testing.T) {
	ts := newTestServer(t, nil, "")
	_, page := ts.do(t, "GET", "/new", "")
	for _, want := range []string{
		fmt.Sprintf(`name="perspectives_max_rounds" min="1" max="%d" value="%d"`, perspectives.MaxMaxRounds, perspectives.DefaultMaxRounds),
		fmt.Sprintf(`name="council_max_rounds" id="f-council_max_rounds" min="1" max="%d" value="%d"`, council.MaxMaxRounds, council.DefaultMaxRounds),
		fmt.Sprintf(`name="rounds" min="1" max="%d" value="%d"`, formal.MaxRounds, formal.DefaultRounds),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
}

// TestEventsReconnectAfterTheEnd: a client that reconnects with the last
// event's id once the debate has completed is answered 204 No Content (an
// EventSource then stops reconnecting), not held open for ever.
func TestEventsReconnectAfterTheEnd(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	v := ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/debates/"+id+"/events", nil)
	req.Header.Set("Last-Event-ID", fmt.Sprint(v.LastSeq))
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("reading the stream after the last event: %v (the stream did not end)", err)
	}
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Errorf("reconnect after the last event: %d %q; want 204 and no body", resp.StatusCode, body)
	}
	if all := sseEvents(t, ts, id, "", 0); int64(len(all)) != v.LastSeq {
		t.Errorf("a fresh stream of the completed debate got %d events, the log has %d", len(all), v.LastSeq)
	}
}

// TestEventsHeadOfARunningDebate: HEAD on a running debate's events is
// answered with the stream's headers and ends, not held open as the
// stream is.
func TestEventsHeadOfARunningDebate(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "perspectives.yaml"), "")
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?"}`)
	ts.waitFor(t, id, "at its checkpoint", func(v DebateView) bool { return v.Checkpoint != nil })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "HEAD", ts.URL+"/api/debates/"+id+"/events", nil)
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatalf("HEAD of a running debate's events: %v (held open?)", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("HEAD of a running debate's events: %v (held open?)", err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") || len(body) != 0 {
		t.Errorf("HEAD: %d %q %q; want 200, text/event-stream and no body", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/checkpoint", `{"action":"end"}`); resp.StatusCode >= 300 {
		t.Fatalf("ending the debate: %d %s", resp.StatusCode, out)
	}
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
}

// TestCheckpointGuideHintPause runs a perspectives debate with checkpoints
// through the API: answer the first with guidance, pause, resume, end.
func TestCheckpointGuideHintPause(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "perspectives.yaml"), "")
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?"}`)
	v := ts.waitFor(t, id, "at its checkpoint", func(v DebateView) bool { return v.Checkpoint != nil })
	if !v.Running || len(v.Agents) < 2 {
		t.Fatalf("at the checkpoint: running %v, agents %v", v.Running, v.Agents)
	}
	// The API takes a target and a text as fields: its errors say so, not
	// the shell's "AGENT: TEXT".
	for body, want := range map[string]string{
		`{"target":"nobody","text":"x"}`:               `no agent \"nobody\" in this debate: the target is one of ` + strings.Join(v.Agents, ", ") + ", or all",
		`{"target":"` + v.Agents[0] + `","text":"  "}`: "a hint needs a non-empty text",
		`{"text":"x"}`: "a hint needs a target (" + strings.Join(v.Agents, ", ") + ", or all) and a non-empty text",
	} {
		resp, out := ts.do(t, "POST", "/api/debates/"+id+"/hints", body)
		if resp.StatusCode != 400 || strings.Contains(out, "AGENT: TEXT") || !strings.Contains(out, want) {
			t.Fatalf("hint %s: %d %s", body, resp.StatusCode, out)
		}
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/hints", `{"target":"`+v.Agents[0][:4]+`","text":"cite a benchmark"}`); resp.StatusCode != 202 {
		t.Fatalf("hint by prefix: %d %s", resp.StatusCode, out)
	}
	// Pause while it waits, then answer: the answer resumes it.
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/pause", ""); resp.StatusCode != 202 {
		t.Fatalf("pause: %d %s", resp.StatusCode, out)
	}
	v = ts.waitFor(t, id, "paused at its checkpoint", func(v DebateView) bool { return v.Status == debate.StatusPaused && v.Checkpoint != nil })
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/checkpoint", `{"action":"guide","guidance":"Weigh the on-call cost in hours per month."}`); resp.StatusCode != 202 {
		t.Fatalf("guide: %d %s", resp.StatusCode, out)
	}
	v = ts.waitFor(t, id, "completed", func(v DebateView) bool {
		return v.Status == debate.StatusCompleted || v.Checkpoint != nil && v.Checkpoint.Round > 1
	})
	if v.Checkpoint != nil {
		if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/checkpoint", `{"action":"end"}`); resp.StatusCode != 202 {
			t.Fatalf("end: %d %s", resp.StatusCode, out)
		}
		ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	}
	_, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as=json", "")
	if !strings.Contains(out, "Weigh the on-call cost") || !strings.Contains(out, "cite a benchmark") {
		t.Fatalf("the guidance and the hint are not in the log: %s", out)
	}
}

// TestListPageNamesUnpricedModels: a debate whose model has no price lists
// as unknown, and the note under the table names the model once, escaped.
func TestListPageNamesUnpricedModels(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ctx := t.Context()
	const id, model = "DEB-00000001", "openai/<b>my-finetune</b>"
	var evs []debate.Event
	for i, p := range []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "a", Agent: "pro", Role: "advocate", Round: 1}, Text: "a",
			Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}, Model: model},
	} {
		e, err := debate.NewEvent(id, time.Unix(int64(i+1), 0), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := ts.app.Store.Append(ctx, id, evs...); err != nil {
		t.Fatal(err)
	}
	_, page := ts.do(t, "GET", "/", "")
	if !strings.Contains(page, "<td>unknown</td>") || strings.Count(page, "no price for openai/&lt;b&gt;my-finetune&lt;/b&gt;") != 1 || strings.Contains(page, "<b>") {
		t.Errorf("list page: want the cost unknown and the model without a price named once, escaped:\n%s", page)
	}
}

// TestPanelCounts: the debate page's header writes its token count with
// thousands separators, as the documents do, and one tool call in the
// singular.
func TestPanelCounts(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ctx := t.Context()
	const id = "DEB-00000002"
	turn := debate.TurnRef{ID: "research/bull", Agent: "bull", Role: "bull"}
	var evs []debate.Event
	for i, p := range []debate.Payload{
		debate.Created{Format: "bullbear", Topic: "NVDA"},
		debate.TurnStarted{Turn: turn, Attempt: 1},
		debate.ToolCalled{Turn: turn.ID, Call: llm.ToolCall{ID: "c1", Name: "xbrl_facts", Args: []byte(`{}`)}},
		debate.ToolResult{Turn: turn.ID, CallID: "c1", Name: "xbrl_facts", Content: "Revenues"},
		debate.TurnCompleted{Turn: turn, Text: "Revenue grew.", Usage: llm.Usage{InputTokens: 12000, OutputTokens: 345}, Model: "openai/gpt-4.1"},
	} {
		e, err := debate.NewEvent(id, time.Unix(int64(i+1), 0), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := ts.app.Store.Append(ctx, id, evs...); err != nil {
		t.Fatal(err)
	}
	_, page := ts.do(t, "GET", "/debates/"+id, "")
	if !strings.Contains(page, "· 12,345 tokens ·") || !strings.Contains(page, "· 1 tool call</p>") {
		t.Errorf("debate page: want 12,345 tokens and 1 tool call in its header:\n%s", page)
	}
}

// TestFormalMapAndBadges: a formal debate's panel draws its argument map as
// SVG with each argument's score, and turns carry their move badges.
func TestFormalMapAndBadges(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "formal.yaml"), "")
	id := ts.create(t, `{"format":"formal","topic":"Should we adopt a monorepo?","rounds":2}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted || v.Status == debate.StatusFailed })
	_, panel := ts.do(t, "GET", "/debates/"+id+"/panel", "")
	if !strings.Contains(panel, `<svg class="argmap"`) || strings.Count(panel, "<circle") < 2 || !strings.Contains(panel, `class="edge`) {
		t.Fatalf("no argument map with nodes and edges in the panel: %.3000s", panel)
	}
	if !strings.Contains(panel, `class="badge"`) {
		t.Errorf("no move badges in the panel")
	}
}

func TestLinkAccessions(t *testing.T) {
	in := "10-K 0001045810-26-000021 [x](https://www.sec.gov/Archives/edgar/data/1045810/000104581026000019/0001045810-26-000019-index.htm) `0001045810-26-000052`"
	got := linkAccessions(in, "0001045810")
	want := "10-K [0001045810-26-000021](https://www.sec.gov/Archives/edgar/data/1045810/000104581026000021/0001045810-26-000021-index.htm) [x](https://www.sec.gov/Archives/edgar/data/1045810/000104581026000019/0001045810-26-000019-index.htm) `0001045810-26-000052`"
	if got != want {
		t.Fatalf("linkAccessions:\n got %s\nwant %s", got, want)
	}
}

// TestHealthzAndMetrics: /healthz answers without the token (for load
// balancers), /metrics with it, in the Prometheus text format.
func TestHealthzAndMetrics(t *testing.T) {
	ts := newTestServer(t, nil, "tok")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	if resp, out := ts.do(t, "GET", "/healthz", "", "Authorization", ""); resp.StatusCode != 200 || strings.TrimSpace(out) != "ok" {
		t.Fatalf("/healthz: %d %q", resp.StatusCode, out)
	}
	if resp, _ := ts.do(t, "GET", "/metrics", "", "Authorization", ""); resp.StatusCode != 401 {
		t.Fatalf("/metrics without the token: %d", resp.StatusCode)
	}
	resp, out := ts.do(t, "GET", "/metrics", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{`parley_debates{status="completed"} 1`, "parley_turns_completed_total 7", "# TYPE parley_cost_usd_total counter", `parley_debates_by_format{format="bullbear"} 1`} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, out)
		}
	}
}

// TestFormFaultsAreTheSenders: a form the dashboard cannot use is refused
// as the sender's fault, with the page saying what is wrong: a field that
// is no number or a form that cannot be parsed is 400, a form over MaxBody
// 413, never 500 (the server's own failure).
func TestFormFaultsAreTheSenders(t *testing.T) {
	ts := newTestServer(t, nil, "")
	const form = "application/x-www-form-urlencoded"
	big := "format=perspectives&topic=" + strings.Repeat("a", MaxBody)
	for _, c := range []struct {
		path, body string
		code       int
		says       string
	}{
		{"/new", url.Values{"format": {"perspectives"}, "topic": {"Redis or Postgres?"}, "perspectives_max_rounds": {"abc"}}.Encode(), http.StatusBadRequest, `“Max rounds” "abc" is not a whole number`},
		{"/new", url.Values{"format": {"formal"}, "topic": {"Redis or Postgres?"}, "rounds": {"2.5"}}.Encode(), http.StatusBadRequest, `“Rounds” "2.5" is not a whole number`},
		{"/new", url.Values{"format": {"formal"}, "topic": {"Redis or Postgres?"}, "rounds": {"1e2"}}.Encode(), http.StatusBadRequest, `“Rounds” 100: choose 1 to 10`},
		{"/new", url.Values{"format": {"formal"}, "topic": {"Redis or Postgres?"}, "rounds": {"two"}}.Encode(), http.StatusBadRequest, `“Rounds” "two" is not a whole number`},
		{"/new", "topic=%zz", http.StatusBadRequest, "the form could not be read"},
		{"/new", big, http.StatusRequestEntityTooLarge, fmt.Sprintf("over %d bytes", MaxBody)},
		{"/debates/DEB-00000000/hints", "target=all&text=%zz", http.StatusBadRequest, "the form could not be read"},
		{"/debates/DEB-00000000/hints", "target=all&text=" + strings.Repeat("a", MaxBody), http.StatusRequestEntityTooLarge, fmt.Sprintf("over %d bytes", MaxBody)},
	} {
		resp, page := ts.do(t, "POST", c.path, c.body, "Content-Type", form)
		if resp.StatusCode != c.code {
			t.Errorf("POST %s (%.40s…): %d, want %d", c.path, c.body, resp.StatusCode, c.code)
		}
		if !strings.Contains(html.UnescapeString(page), c.says) {
			t.Errorf("POST %s (%.40s…): the page does not say %q:\n%.600s", c.path, c.body, c.says, page)
		}
	}
}

// TestListFilterNamesWhatItTakes: a list filter that names no status or
// format is refused with the values it takes, on the API and on the
// dashboard's list: answered with an empty list, a typo ("complete") read
// as "no such debates".
func TestListFilterNamesWhatItTakes(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	for _, c := range []struct {
		query string
		code  int
		says  []string
	}{
		{"status=complete", http.StatusBadRequest, []string{`status=\"complete\"`, "completed", "interrupted"}},
		{"format=bullbeer", http.StatusBadRequest, []string{`format=\"bullbeer\"`, "bullbear", "perspectives"}},
		{"status=completed&format=bullbear", http.StatusOK, []string{id}},
		{"status=checkpoint", http.StatusOK, []string{`"debates":[]`}},
		{"", http.StatusOK, []string{id}},
	} {
		resp, out := ts.do(t, "GET", "/api/debates?"+c.query, "")
		if resp.StatusCode != c.code {
			t.Errorf("GET /api/debates?%s: %d, want %d: %s", c.query, resp.StatusCode, c.code, out)
		}
		for _, want := range c.says {
			if !strings.Contains(out, want) {
				t.Errorf("GET /api/debates?%s does not say %s: %s", c.query, want, out)
			}
		}
	}
	if resp, page := ts.do(t, "GET", "/?status=complete", ""); resp.StatusCode != http.StatusBadRequest || !strings.Contains(html.UnescapeString(page), "completed") {
		t.Errorf("the dashboard's list with status=complete: %d:\n%.400s", resp.StatusCode, page)
	}
}

// TestUnknownQueryParameters: an API route refuses a query parameter it
// does not take (400), naming it, the one it was probably meant to be and
// those it takes: a misspelt one was ignored, so that ?limt=1 listed every
// debate and ?stauts=running filtered nothing. Values stay checked by the
// route (status=runing names the statuses); the dashboard's pages take a
// parameter they do not know.
func TestUnknownQueryParameters(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	for _, c := range []struct {
		method, path string
		code         int
		says         []string
	}{
		{"GET", "/api/debates?limt=1", 400, []string{`unknown query parameter \"limt\" (did you mean limit?): GET /api/debates takes status, format, limit, cursor`}},
		{"GET", "/api/debates?stauts=running", 400, []string{`\"stauts\" (did you mean status?)`}},
		{"GET", "/api/debates?status=runing", 400, []string{`status=\"runing\": filter by one of`, "running"}},
		{"GET", "/api/debates?limit=1&status=completed", 200, []string{id}},
		{"HEAD", "/api/debates?q=x", 400, nil},
		{"GET", "/api/debates/" + id + "?verbose=1", 400, []string{`unknown query parameter \"verbose\" (a cache-buster is taken when its name starts with _, ?_=1): GET /api/debates/{id} takes none`}},
		// A cache-buster (jQuery's ?_=…, or any name starting with _)
		// is ignored on every route, read or write.
		{"GET", "/api/debates/" + id + "?_=1700000000", 200, []string{id}},
		{"GET", "/api/debates?_=1&_cb=x&limit=1", 200, []string{id}},
		{"GET", "/api/debates/" + id + "/export?as=md&_=2", 200, nil},
		{"GET", "/api/openapi.json?_=3", 200, nil},
		{"POST", "/api/debates/" + id + "/pause?_=4", 409, []string{"not running"}},
		{"GET", "/api/debates/" + id + "?v=2", 400, []string{`unknown query parameter \"v\" (a cache-buster is taken when its name starts with _`}},
		{"GET", "/api/debates/" + id + "/export?as=pdf&sumary=true", 400, []string{`\"sumary\" (did you mean summary?)`, "takes as, summary"}},
		{"GET", "/api/debates/" + id + "/export?as=pdff", 400, []string{`as=\"pdff\": export as md, json or pdf`}},
		{"GET", "/api/debates/" + id + "/export?as=md&summary=true", 200, nil},
		{"GET", "/api/debates/" + id + "/events?afterr=3", 400, []string{`\"afterr\" (did you mean after?): GET /api/debates/{id}/events takes after`}},
		{"POST", "/api/debates/" + id + "/pause?now=1", 400, []string{`POST /api/debates/{id}/pause takes none`}},
		{"GET", "/debates/" + id + "?utm_source=mail", 200, nil},
		{"GET", "/?utm_source=mail", 200, nil},
	} {
		resp, out := ts.do(t, c.method, c.path, "")
		if resp.StatusCode != c.code {
			t.Errorf("%s %s: %d, want %d: %.300s", c.method, c.path, resp.StatusCode, c.code, out)
		}
		for _, want := range c.says {
			if !strings.Contains(out, want) {
				t.Errorf("%s %s does not say %s: %s", c.method, c.path, want, out)
			}
		}
	}
}

// TestRefusalsNameTheFields: a create request refused by the command
// line's checks names the request's field to fix, not the command line's
// flag: the caller of the API has no --max-rounds.
func TestRefusalsNameTheFields(t *testing.T) {
	env := fakeModel(t, "perspectives.yaml")
	ts := newTestServer(t, env, "")
	for body, field := range map[string]string{
		`{"topic":"Redis or Postgres?","model":"m","max_rounds":-1}`:          `"max_rounds"`,
		`{"topic":"Redis or Postgres?","model":"m","perspectives":9}`:         `"perspectives"`,
		`{"topic":"Redis or Postgres?","model":"m","model_for":["nobody=x"]}`: `"model_for"`,
		`{"topic":"Redis or Postgres?","format":"council","risk":"yolo"}`:     `"risk"`,
		`{"topic":"Redis or Postgres?","format":"formal","perspective":"x"}`:  `"perspective"`,
		`{"topic":"NVDA","offline":true,"framework":"nope"}`:                  `"framework"`,
		`{"topic":"NVDA","offline":true,"hints":["no target here"]}`:          `"hints"`,
		`{"topic":"Redis or Postgres?","provider":"nope"}`:                    `"provider"`,
	} {
		resp, out := ts.do(t, "POST", "/api/debates", body)
		var e APIError
		if err := json.Unmarshal([]byte(out), &e); err != nil || resp.StatusCode/100 != 4 {
			t.Errorf("%s: %d %s", body, resp.StatusCode, out)
			continue
		}
		if strings.Contains(e.Error, "--") {
			t.Errorf("%s: the refusal names a command-line flag: %s", body, e.Error)
		}
		if !strings.Contains(e.Error, field) {
			t.Errorf("%s: the refusal does not name the field %s: %s", body, field, e.Error)
		}
	}
	if got := ts.flagsAsFields("--max-rounds 0 and --context FILE, pass --format perspectives; x--model"); got != `"max_rounds" 0 and --context FILE, pass "format" perspectives; x--model` {
		t.Errorf("flagsAsFields: %s", got)
	}
}

// TestUnknownPageAction: a form posted to an action the debate page does
// not have is a page that does not exist (404), not a request that does
// not fit the debate's state (409).
func TestUnknownPageAction(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	if resp, _ := ts.do(t, "POST", "/debates/"+id+"/bogus", "x=1", "Content-Type", "application/x-www-form-urlencoded"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST /debates/ID/bogus: %d, want 404 (no such page)", resp.StatusCode)
	}
}

// TestHintRefusalExample: a hint without AGENT: is refused with an example
// of a hint, not of the field: the flag named twice in the command line's
// wording became `for example "hints" "bull: …"` in the API's.
func TestHintRefusalExample(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "perspectives.yaml"), "")
	resp, out := ts.do(t, "POST", "/api/debates", `{"topic":"NVDA","offline":true,"hints":["no target here"]}`)
	var e APIError
	if err := json.Unmarshal([]byte(out), &e); err != nil || resp.StatusCode != 400 {
		t.Fatalf("%d %s", resp.StatusCode, out)
	}
	if strings.Count(e.Error, `"hints"`) != 1 || !strings.Contains(e.Error, `for example "bull: mention their new AI chip"`) {
		t.Errorf("the refusal's example is not a hint: %s", e.Error)
	}
}

// TestListIsLimited: the dashboard's list shows the newest pageListLimit
// debates and links to more, rather than every debate of a busy database
// (tens of thousands: megabytes of HTML); the API lists apiListLimit of
// them unless given a limit, and says whether more match; no page lists
// more than maxListLimit, whatever limit it is given, and a limit that is
// not a number of 1 or more is refused.
func TestListIsLimited(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ctx := t.Context()
	n := maxListLimit + 5
	for i := range n {
		id := fmt.Sprintf("DEB-%08x", i+1)
		e, err := debate.NewEvent(id, time.Unix(int64(1000+i), 0), debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.app.Store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
	}
	newest, oldest := fmt.Sprintf("DEB-%08x", n), "DEB-00000001"
	_, page := ts.do(t, "GET", "/?format=perspectives", "")
	if got := strings.Count(page, `<a href="/debates/DEB-`); got != pageListLimit || !strings.Contains(page, newest) || strings.Contains(page, oldest) {
		t.Errorf("the list page shows %d debates (newest %v, oldest %v), want the %d newest", got, strings.Contains(page, newest), strings.Contains(page, oldest), pageListLimit)
	}
	// The page after goes on from the last debate shown, with a link back
	// to the newest.
	cursor := app.Cursor(debate.Summary{ID: fmt.Sprintf("DEB-%08x", n-pageListLimit+1), Created: time.Unix(int64(1000+n-pageListLimit), 0)})
	more := `<a href="/?cursor=` + cursor + `&amp;format=perspectives" data-more>Show more</a>`
	if !strings.Contains(page, more) {
		t.Errorf("the list page does not link to more (%s):\n%s", more, page[strings.LastIndex(page, "</table>"):])
	}
	if _, page := ts.do(t, "GET", "/?cursor="+cursor+"&format=perspectives&limit=1000", ""); strings.Count(page, `<a href="/debates/DEB-`) != n-pageListLimit || !strings.Contains(page, oldest) ||
		strings.Contains(page, "Show more") || !strings.Contains(page, `<a href="/?format=perspectives&amp;limit=1000">Back to the newest</a>`) {
		t.Errorf("the page after the first does not show the %d oldest, or links to more, or not to the newest:\n%.300s", n-pageListLimit, page[strings.Index(page, "<main>"):])
	}
	if _, page := ts.do(t, "GET", "/?limit=100000", ""); strings.Count(page, `<a href="/debates/DEB-`) != maxListLimit || !strings.Contains(page, "Show more") {
		t.Errorf("the list page with limit=100000 does not show %d debates and link to more", maxListLimit)
	}
	type listAnswer struct {
		Debates []debate.Summary
		More    bool
		Next    string
		Limit   int
	}
	for _, c := range []struct {
		query        string
		count, limit int
		more         bool
	}{{"", apiListLimit, apiListLimit, true}, {"limit=", apiListLimit, apiListLimit, true}, {"limit=3", 3, 3, true}, {"limit=1000", maxListLimit, maxListLimit, true},
		{fmt.Sprintf("limit=%d", n), maxListLimit, maxListLimit, true}, {"limit=99999999999999999999", maxListLimit, maxListLimit, true},
		{fmt.Sprintf("limit=1000&cursor=%s", app.Cursor(debate.Summary{ID: fmt.Sprintf("DEB-%08x", 6), Created: time.Unix(1005, 0)})), 5, maxListLimit, false}} {
		var got listAnswer
		resp, out := ts.do(t, "GET", "/api/debates?"+c.query, "")
		if err := json.Unmarshal([]byte(out), &got); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/debates?%s: %d %v %.200s", c.query, resp.StatusCode, err, out)
		}
		if len(got.Debates) != c.count || got.More != c.more || got.Limit != c.limit {
			t.Errorf("GET /api/debates?%s: %d debates, more %v, limit %d; want %d, %v, %d", c.query, len(got.Debates), got.More, got.Limit, c.count, c.more, c.limit)
		}
		if c.more && got.Debates[0].ID != newest {
			t.Errorf("GET /api/debates?%s: first %s, want %s", c.query, got.Debates[0].ID, newest)
		}
	}
	// The default pages, walked by their cursors, list every debate once.
	seen := map[string]bool{}
	for path, pages := "/api/debates", 0; path != ""; pages++ {
		if pages > n/apiListLimit+1 {
			t.Fatalf("more than %d pages of %d", pages, apiListLimit)
		}
		var got listAnswer
		if _, out := ts.do(t, "GET", path, ""); json.Unmarshal([]byte(out), &got) != nil {
			t.Fatalf("GET %s: %.200s", path, out)
		}
		for _, d := range got.Debates {
			seen[d.ID] = true
		}
		path = ""
		if got.Next != "" {
			path = "/api/debates?cursor=" + got.Next
		}
	}
	if len(seen) != n {
		t.Errorf("the default pages list %d debates, want %d", len(seen), n)
	}
	for _, bad := range []string{"0", "-1", "ten", "1.5", "-99999999999999999999", "1e3"} {
		if resp, out := ts.do(t, "GET", "/api/debates?limit="+bad, ""); resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "limit=") || !strings.Contains(out, "from 1 to 1000") {
			t.Errorf("GET /api/debates?limit=%s: %d %s, want 400 naming the limit and its range", bad, resp.StatusCode, out)
		}
	}
}

// TestListPages: the API's list is walked page by page with its next
// cursor (in the body and the Link header), filters kept, every debate
// once, newest first, ties in creation time by id; a debate created
// meanwhile does not shift the pages; a cursor the server did not give is
// refused (400), on the dashboard too.
func TestListPages(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ctx := t.Context()
	var want []string // newest first
	for i := range 23 {
		id := fmt.Sprintf("DEB-%08x", i+1)
		format := "perspectives"
		if i%4 == 0 {
			format = "council"
		}
		// Three debates to a second: ties broken by id.
		e, err := debate.NewEvent(id, time.Unix(int64(1000+i/3), 0), debate.Created{Format: format, Topic: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.app.Store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
		if format == "perspectives" {
			want = append([]string{id}, want...)
		}
	}
	type page struct {
		Debates []debate.Summary
		More    bool
		Next    string
	}
	var got []string
	path := "/api/debates?format=perspectives&limit=5"
	for i := 0; path != ""; i++ {
		if i == 10 {
			t.Fatalf("more than 10 pages: %v", got)
		}
		resp, out := ts.do(t, "GET", path, "")
		var p page
		if err := json.Unmarshal([]byte(out), &p); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v %.200s", path, resp.StatusCode, err, out)
		}
		for _, d := range p.Debates {
			got = append(got, d.ID)
		}
		if i == 0 {
			e, _ := debate.NewEvent("DEB-ffffffff", time.Unix(5000, 0), debate.Created{Format: "perspectives", Topic: "new"})
			if _, err := ts.app.Store.Append(ctx, "DEB-ffffffff", e); err != nil {
				t.Fatal(err)
			}
		}
		link := resp.Header.Get("Link")
		if p.More != (p.Next != "") || (p.Next == "") != (link == "") {
			t.Fatalf("GET %s: more %v, next %q, Link %q: want all three or none", path, p.More, p.Next, link)
		}
		path = ""
		if p.Next != "" {
			if want := "</api/debates?cursor=" + p.Next + `&format=perspectives&limit=5>; rel="next"`; link != want {
				t.Errorf("Link %s, want %s", link, want)
			}
			path = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the pages list %v, want %v", got, want)
	}
	for _, bad := range []string{"", "x", "bm9wZQ", strings.Repeat("A", 600)} {
		if resp, out := ts.do(t, "GET", "/api/debates?cursor="+bad, ""); resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "not one this server gave") {
			t.Errorf("GET /api/debates?cursor=%.20s: %d %s, want 400 saying what to pass", bad, resp.StatusCode, out)
		}
	}
	if resp, page := ts.do(t, "GET", "/?cursor=x", ""); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "not one this server gave") {
		t.Errorf("the list page with a bad cursor: %d, want 400 saying so", resp.StatusCode)
	}
}

// TestPDFLaidOutOnceForConcurrentReaders: requests for a PDF not in the
// cache yet, sent at once, share one layout rather than each laying it out
// (seconds of CPU for a long debate); a request whose client goes away
// meanwhile returns, and the layout still reaches the cache.
func TestPDFLaidOutOnceForConcurrentReaders(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	var layouts atomic.Int64
	release := make(chan struct{})
	ts.renderPDF = func(id string, d pdf.Document) ([]byte, error) {
		layouts.Add(1)
		<-release // a long debate's layout, until every request has come
		return app.RenderPDF(id, d)
	}
	const readers = 10
	var wg sync.WaitGroup
	bodies := make(chan string, readers)
	for range readers {
		wg.Go(func() {
			resp, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as=pdf", "")
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(out, "%PDF-") {
				t.Errorf("export as pdf: %d %.100q", resp.StatusCode, out)
			}
			bodies <- out
		})
	}
	// One more, whose client gives up while the layout runs.
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/debates/"+id+"/export?as=pdf", nil)
		resp, err := ts.client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		gone <- err
	}()
	// Every request waits in the layout's flight, or has not reached it.
	for deadline := time.Now().Add(10 * time.Second); goroutinesIn("(*Server).exportPDF(") < readers+1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests waiting for the PDF, want %d", goroutinesIn("(*Server).exportPDF("), readers+1)
		}
	}
	cancel()
	if err := <-gone; err == nil {
		t.Error("the request given up was answered")
	}
	close(release)
	wg.Wait()
	close(bodies)
	first := <-bodies
	for b := range bodies {
		if b != first {
			t.Error("the readers got different PDFs")
		}
	}
	// The reader after them is served from the cache.
	if resp, _ := ts.do(t, "GET", "/api/debates/"+id+"/export?as=pdf", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("export as pdf after: %d", resp.StatusCode)
	}
	if n := layouts.Load(); n != 1 {
		t.Errorf("%d readers at once, and one after: the PDF laid out %d times, want once", readers+1, n)
	}
}

// TestIdempotencyKey: a create request sent again with its Idempotency-Key
// (a client retrying after a timeout, or sending twice at once) is answered
// with the debate the first created (200), not a second debate; the key
// given with another request is refused (422), a malformed key too (400).
func TestIdempotencyKey(t *testing.T) {
	ts := newTestServer(t, nil, "")
	const body = `{"topic":"NVDA","offline":true}`
	const key = "5b0c1f3e-retry-me"
	var wg sync.WaitGroup
	codes, ids := make([]int, 8), make([]string, 8)
	for i := range codes {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", ts.URL+"/api/debates", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", key)
			resp, err := ts.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var c struct{ ID string }
			_ = json.NewDecoder(resp.Body).Decode(&c)
			codes[i], ids[i] = resp.StatusCode, c.ID
		})
	}
	wg.Wait()
	created := 0
	for i, code := range codes {
		if code == http.StatusCreated {
			created++
		} else if code != http.StatusOK {
			t.Errorf("request %d with the key: %d", i, code)
		}
		if ids[i] != ids[0] || ids[i] == "" {
			t.Errorf("requests with one key answered with debates %v", ids)
			break
		}
	}
	if created != 1 {
		t.Errorf("%d requests created a debate, want 1 (the others answered 200 with it): %v", created, codes)
	}
	ts.waitFor(t, ids[0], "completed", func(v DebateView) bool { return v.Status == "completed" })
	// Sent again after the run: the same debate, whatever the spacing.
	if resp, out := ts.do(t, "POST", "/api/debates", `{ "offline": true, "topic": "NVDA" }`, "Idempotency-Key", key); resp.StatusCode != http.StatusOK || !strings.Contains(out, ids[0]) {
		t.Errorf("sent again: %d %s, want 200 with %s", resp.StatusCode, out, ids[0])
	}
	for _, c := range []struct {
		body, key string
		code      int
		says      string
	}{
		{`{"topic":"AAPL","offline":true}`, key, http.StatusUnprocessableEntity, "was created with this key"},
		{body, " ", http.StatusBadRequest, "Idempotency-Key"},
		{body, strings.Repeat("k", 256), http.StatusBadRequest, "1 to 255 printable ASCII characters"},
		{body, "clé", http.StatusBadRequest, "Idempotency-Key"},
	} {
		if resp, out := ts.do(t, "POST", "/api/debates", c.body, "Idempotency-Key", c.key); resp.StatusCode != c.code || !strings.Contains(out, c.says) {
			t.Errorf("key %.20q with %s: %d %s, want %d saying %q", c.key, c.body, resp.StatusCode, out, c.code, c.says)
		}
	}
	// Without a key each request is a debate of its own.
	a, b := ts.create(t, body), ts.create(t, body)
	if a == b || a == ids[0] {
		t.Errorf("requests without a key: %s, %s (keyed %s)", a, b, ids[0])
	}
	// The dashboard's form carries a key of its own: sent twice, it opens
	// the debate it started; changed and sent again with it (after Back),
	// it starts another.
	_, page := ts.do(t, "GET", "/new", "")
	m := regexp.MustCompile(`name="request_key" value="([0-9a-f]{32})"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the new-debate form has no request key:\n%s", page)
	}
	post := func(topic string) string {
		form := url.Values{"topic": {topic}, "format": {"bullbear"}, "offline": {"on"}, "request_key": {m[1]}}
		resp, _ := ts.do(t, "POST", "/new", form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/debates/DEB-") {
			t.Fatalf("the form sent: %d at %s", resp.StatusCode, resp.Request.URL)
		}
		return resp.Request.URL.Path
	}
	first, twice, changed := post("GOOGL"), post("GOOGL"), post("AAPL")
	if first != twice || changed == first {
		t.Errorf("the form sent twice opened %s and %s; changed, %s", first, twice, changed)
	}
	var list struct{ Debates []debate.Summary }
	_, out := ts.do(t, "GET", "/api/debates", "")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Debates) != 5 {
		t.Errorf("debates: %d, %v; want 5 (one keyed, two not, two from the form)", len(list.Debates), err)
	}
}

// TestDeleteDebate: DELETE refuses a debate this server runs (409, saying
// to pause it first), deletes it once paused (204, then 404 for it and for
// a second DELETE), and the list no longer has it.
func TestDeleteDebate(t *testing.T) {
	ts := newTestServer(t, fakeModel(t, "perspectives.yaml"), "")
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?"}`)
	ts.waitFor(t, id, "at its checkpoint", func(v DebateView) bool { return v.Checkpoint != nil })
	if resp, out := ts.do(t, "DELETE", "/api/debates/"+id, ""); resp.StatusCode != http.StatusConflict ||
		!strings.Contains(out, "pause it first, then delete it") {
		t.Fatalf("DELETE of a running debate: %d %s; want 409 saying to pause it first", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/pause", ""); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("pause: %d %s", resp.StatusCode, out)
	}
	ts.waitFor(t, id, "paused", func(v DebateView) bool { return v.Status == debate.StatusPaused })
	if resp, out := ts.do(t, "DELETE", "/api/debates/"+id, ""); resp.StatusCode != http.StatusNoContent || out != "" {
		t.Fatalf("DELETE of a paused debate: %d %q; want 204", resp.StatusCode, out)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if resp, out := ts.do(t, m, "/api/debates/"+id, ""); resp.StatusCode != http.StatusNotFound || !strings.Contains(out, "no such debate") {
			t.Errorf("%s after the delete: %d %s; want 404", m, resp.StatusCode, out)
		}
	}
	if _, out := ts.do(t, "GET", "/api/debates", ""); strings.Contains(out, id) {
		t.Errorf("the deleted debate is still listed: %s", out)
	}
}

// TestDeleteFromThePanel: a finished debate's panel offers Delete behind a
// box to tick; the form without it deletes nothing (400, saying to tick
// it), with it deletes the debate and goes back to the list.
func TestDeleteFromThePanel(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	if _, page := ts.do(t, "GET", "/debates/"+id+"/panel", ""); !strings.Contains(page, `action="/debates/`+id+`/delete"`) ||
		!strings.Contains(page, `name="confirm" value="yes" required`) {
		t.Fatalf("a finished debate's panel has no Delete form behind a box to tick:\n%s", page)
	}
	form := []string{"Content-Type", "application/x-www-form-urlencoded"}
	if resp, page := ts.do(t, "POST", "/debates/"+id+"/delete", "x=1", form...); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "tick the box") {
		t.Fatalf("Delete without the box ticked: %d\n%s", resp.StatusCode, page)
	}
	if resp, _ := ts.do(t, "GET", "/api/debates/"+id, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("the debate went without the box ticked: %d", resp.StatusCode)
	}
	resp, _ := ts.do(t, "POST", "/debates/"+id+"/delete", "confirm=yes", form...)
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/" {
		t.Fatalf("Delete with the box ticked: %d at %s; want the list", resp.StatusCode, resp.Request.URL)
	}
	if resp, _ := ts.do(t, "GET", "/api/debates/"+id, ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET after the delete: %d, want 404", resp.StatusCode)
	}
}

// TestPDFExportIsCached: the same document asked again is served from the
// cache, byte for byte; another document (the summary) is laid out anew.
func TestPDFExportIsCached(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	get := func(q string) string {
		resp, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as=pdf"+q, "")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(out, "%PDF-") {
			t.Fatalf("export as pdf%s: %d %.100q", q, resp.StatusCode, out)
		}
		return out
	}
	first, again := get(""), get("")
	if first != again || ts.pdfs.renders != 1 {
		t.Errorf("the same PDF asked twice: laid out %d times, same bytes %v; want once", ts.pdfs.renders, first == again)
	}
	if summary := get("&summary=true"); summary == first || ts.pdfs.renders != 2 {
		t.Errorf("the summary's PDF: laid out %d times in all, want 2, and another document", ts.pdfs.renders)
	}
}

// TestPDFLayoutsAreBounded: PDFs of different debates asked for at once
// are laid out a slot's worth at a time, a bounded number wait for a slot,
// and beyond them an export as PDF is refused (503 with Retry-After)
// rather than each taking a core and its memory; a reader of a PDF being
// laid out shares its layout even then, and the waiting ones are served.
func TestPDFLayoutsAreBounded(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ts.renders = newRenderSlots(1, 2)
	var ids []string
	for range 4 {
		id := ts.create(t, `{"topic":"NVDA","offline":true}`)
		ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
		ids = append(ids, id)
	}
	var running, most, started atomic.Int64
	release := make(chan struct{})
	ts.renderPDF = func(id string, d pdf.Document) ([]byte, error) {
		started.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		return app.RenderPDF(id, d)
	}
	export := func(id string) (*http.Response, string) {
		return ts.do(t, "GET", "/api/debates/"+id+"/export?as=pdf", "")
	}
	var wg sync.WaitGroup
	for _, id := range append(ids[:3:3], ids[0]) {
		wg.Go(func() {
			if resp, out := export(id); resp.StatusCode != http.StatusOK || !strings.HasPrefix(out, "%PDF-") {
				t.Errorf("export of %s as pdf: %d %.200q", id, resp.StatusCode, out)
			}
		})
	}
	// One laid out, two waiting for the slot (the second reader of the
	// first shares its layout).
	for deadline := time.Now().Add(10 * time.Second); started.Load() != 1 || ts.renders.waiting.Load() != 2 || goroutinesIn("(*Server).exportPDF(") < 4; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d layouts started and %d waiting, want 1 and 2", started.Load(), ts.renders.waiting.Load())
		}
	}
	resp, out := export(ids[3])
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(out, "export as md or json meanwhile") {
		t.Errorf("a 4th debate's PDF with 1 laid out and 2 waiting: %d, Retry-After %q, %s; want 503 saying to ask again", resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	close(release)
	wg.Wait()
	if m := most.Load(); m != 1 {
		t.Errorf("%d PDFs laid out at once, want at most 1", m)
	}
	// The slots came back: the 4th is served now.
	if resp, _ := export(ids[3]); resp.StatusCode != http.StatusOK {
		t.Errorf("the 4th debate's PDF after the others: %d", resp.StatusCode)
	}
}

// TestOpenAPIQueryParameters: the OpenAPI document names each API route's
// query parameters as the router takes them, and their refusal (400):
// since the routes refuse a parameter they do not take, a client built from
// the document that lacked one (export's as, events' after) could not ask
// for a PDF or resume a stream, and one that sent an undocumented one was
// refused without the document saying it could be.
func TestOpenAPIQueryParameters(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	_, body := ts.do(t, "GET", "/api/openapi.json", "")
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	type operation struct {
		Parameters []struct{ Name, In string }
		Responses  map[string]any
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	takes := regexp.MustCompile(`: \S+ \S+ takes (none|.*)$`)
	for path, ops := range doc.Paths {
		var shared []struct{ Name, In string } // the path's, for each of its operations
		if raw, ok := ops["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		for method, raw := range ops {
			if method == "parameters" { // the path's, not an operation
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			var documented []string
			for _, p := range append(op.Parameters, shared...) {
				if p.In == "query" {
					documented = append(documented, p.Name)
				}
			}
			slices.Sort(documented)
			route := strings.ToUpper(method) + " " + path
			resp, got := ts.do(t, strings.ToUpper(method), strings.ReplaceAll(path, "{id}", id)+"?zzz=1", "")
			var e struct{ Error string }
			_ = json.Unmarshal([]byte(got), &e)
			m := takes.FindStringSubmatch(e.Error)
			if resp.StatusCode != http.StatusBadRequest || m == nil {
				t.Errorf("%s?zzz=1: %d %s; want 400 naming what the route takes", route, resp.StatusCode, got)
				continue
			}
			var taken []string
			if m[1] != "none" {
				taken = strings.Split(m[1], ", ")
			}
			slices.Sort(taken)
			if !slices.Equal(documented, taken) {
				t.Errorf("%s: the document names the query parameters %q, the route takes %q", route, documented, taken)
			}
			if _, ok := op.Responses["400"]; !ok {
				t.Errorf("%s: the document does not say it answers 400 (a query parameter it does not take)", route)
			}
		}
	}
}

// TestWholeNumbersInAnySpelling: JSON has one number type, and many
// encoders write whole numbers as floats (1e3, 1000.0): a whole number in
// any spelling is taken into a whole-number field, as its value.
func TestWholeNumbersInAnySpelling(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true,"turn_budget":1e3,"debate_budget":2.5E+4}`)
	events, err := ts.app.Store.Load(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := debate.Fold(events)
	if err != nil {
		t.Fatal(err)
	}
	if st.Limits.TurnBudget != 1000 || st.Limits.DebateBudget != 25000 {
		t.Errorf("turn budget %d, debate budget %d; want 1000 and 25000", st.Limits.TurnBudget, st.Limits.DebateBudget)
	}
}

func TestIntegralLiteral(t *testing.T) {
	for lit, want := range map[string]string{
		"1e3": "1000", "1E3": "1000", "1e+3": "1000", "1000.0": "1000", "1.5e2": "150", "-2.0": "-2", "-0.0": "0",
		"0.0e5": "0", "12.300e1": "123", "100e-2": "1", "0.5e1": "5", "1e19": "10000000000000000000",
		// Not whole, too long, or plain already: left as written.
		"1.5": "", "1e-3": "", "15e-1": "", "1e21": "", "1e99999999999": "", "1e-99999999999": "", "42": "", "-7": "",
	} {
		got, ok := integralLiteral(lit)
		if ok != (want != "") || got != want {
			t.Errorf("integralLiteral(%s) = %q, %v; want %q", lit, got, ok, want)
		}
	}
	// Only numbers are rewritten, where they are; strings stay as sent.
	in := `{"topic":"1e3 or 1.0?","a":[1e2,{"b":-3.0}],"c":1.5,"d":"2.0"}`
	if got, want := string(plainIntegers([]byte(in))), `{"topic":"1e3 or 1.0?","a":[100,{"b":-3}],"c":1.5,"d":"2.0"}`; got != want {
		t.Errorf("plainIntegers:\n got %s\nwant %s", got, want)
	}
}

// TestOpenAPIDocumentsNoSuchDebate: every route of a debate answers a
// debate that is not there with 404, and the OpenAPI document says so for
// each (export and events did not), so that a client built from it
// expects the answer.
func TestOpenAPIDocumentsNoSuchDebate(t *testing.T) {
	ts := newTestServer(t, nil, "")
	_, body := ts.do(t, "GET", "/api/openapi.json", "")
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{"checkpoint": `{"action":"continue"}`, "hints": `{"target":"bull","text":"x"}`}
	n := 0
	for path, ops := range doc.Paths {
		if !strings.Contains(path, "{id}") {
			continue
		}
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct{ Responses map[string]any }
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			resp, out := ts.do(t, strings.ToUpper(method), strings.ReplaceAll(path, "{id}", "DEB-00000000"), bodies[path[strings.LastIndex(path, "/")+1:]])
			n++
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s of no debate: %d %s, want 404", method, path, resp.StatusCode, out)
			}
			if _, ok := op.Responses["404"]; !ok {
				t.Errorf("%s %s: the document does not say it answers 404 (no such debate)", strings.ToUpper(method), path)
			}
		}
	}
	if n < 8 {
		t.Errorf("%d routes of a debate documented, want every one", n)
	}
}

// TestDownloadLinksAnswerWithPages: the dashboard's download links lead to
// the document, and an export refused (a PDF while the server lays out as
// many as it takes, a debate deleted since the page was drawn) is answered
// with a page a person reads, linking back to the debate: it was a line of
// bare JSON from the API's route. The API keeps answering JSON.
func TestDownloadLinksAnswerWithPages(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	_, panel := ts.do(t, "GET", "/debates/"+id+"/panel", "")
	for _, as := range []string{"md", "json", "pdf"} {
		link := "/debates/" + id + "/export?as=" + as
		if !strings.Contains(panel, `href="`+link+`"`) {
			t.Errorf("the panel has no link to %s:\n%s", link, panel)
		}
		resp, out := ts.do(t, "GET", link, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") || out == "" {
			t.Errorf("GET %s: %d %q", link, resp.StatusCode, resp.Header.Get("Content-Disposition"))
		}
	}
	ts.renders = newRenderSlots(1, 0)
	hold, err := ts.renders.acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	for _, c := range []struct {
		path, says string
		code       int
		back       string
	}{
		{"/debates/" + id + "/export?as=pdf&summary=true", "Try again in a few seconds, or download the Markdown or the JSON meanwhile.", http.StatusServiceUnavailable, "/debates/" + id},
		{"/debates/DEB-00000000/export?as=md", "No such debate.", http.StatusNotFound, "/"},
		{"/debates/" + id + "/export?as=docx", "as=&#34;docx&#34;: export as md, json or pdf", http.StatusBadRequest, "/debates/" + id},
	} {
		resp, out := ts.do(t, "GET", c.path, "")
		if resp.StatusCode != c.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(out, c.says) ||
			!strings.Contains(out, `href="`+c.back+`"`) || resp.Header.Get("Content-Disposition") != "" {
			t.Errorf("GET %s: %d %s, want %d, a page saying %q with a link back:\n%s", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.code, c.says, out)
		}
	}
	if resp, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as=pdf&summary=true", ""); resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(out, `{"error":`) {
		t.Errorf("the API's export refused: %d %s, want 503 in JSON", resp.StatusCode, out)
	}
}
