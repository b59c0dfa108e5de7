// Package server is `parley serve`: an HTTP API, server-sent events and a
// web dashboard, one more front-end on the application layer (internal/app).
// Every view renders from the debate's event log; debates started here run
// in this process and hold their leases like any runner.
package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
	"golang.org/x/time/rate"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/ops"
	"github.com/parleyhq/parley/internal/render/pdf"
)

//go:embed web
var webFS embed.FS

// MaxBody bounds request bodies: a topic, options and a hint, never a
// document.
const MaxBody = 64 << 10

// Config configures a Server.
type Config struct {
	// App starts and resumes debates; its Store is the server's.
	App *app.App
	// Token, when set, is required of every request: a bearer token for the
	// API, a cookie set by the login form for the browser.
	Token string
	Log   *slog.Logger
	// DecisionsDir is where a completed perspectives debate's decision
	// document is written ("" writes none: exports serve it).
	DecisionsDir string
	// Jobs, when set, runs the debates as River jobs in the debate database
	// (the queue's workers, in this process or others): the server
	// enqueues them. Without it they run in this process.
	Jobs *jobs.Queue
	// Calls counts the model calls of the debates this process runs, for
	// /metrics; nil for none.
	Calls *ops.Calls
	// Conn are the limits of a client's connection (zero fields: the
	// defaults): the server's event streams take StreamWrite from it, and
	// NewHTTPServer should be given the same.
	Conn ConnLimits
	// PDFRenders is how many PDFs are laid out at once (0: GOMAXPROCS);
	// twice as many more wait for a slot, and beyond them an export as PDF
	// is answered 503 with Retry-After.
	PDFRenders int
}

// Server serves the API and the dashboard.
type Server struct {
	cfg Config
	// opts are the formats' options, as a create request's fields.
	opts  apiOptions
	app   *app.App
	log   *slog.Logger
	runs  runs
	pages *template.Template
	md    markdown // renders model output, with a cache
	// pdfs keeps the PDFs exported lately, by their document
	// (app.PDFDocument): laying out a long debate takes seconds of CPU,
	// which a reader asking again, or many asking at once, paid each time.
	pdfs *renderCache
	// layouts shares the layout of a PDF among the requests that ask for
	// it at once; renderPDF lays one out (app.RenderPDF, but in tests).
	layouts   singleflight.Group
	renderPDF func(id string, d pdf.Document) ([]byte, error)
	// renders bounds the layouts running and waiting (Config.PDFRenders).
	renders *renderSlots
	hub     *hub
	ctx     context.Context // the server's lifetime: runs stop with it
	// started is when the server was made, for /metrics.
	started time.Time
	conn    ConnLimits
	// guesses paces requests with a wrong token, every client together:
	// the comparison is constant-time, but nothing else stopped a
	// dictionary of tokens being tried at the network's speed. A request
	// with the right token never waits for it.
	guesses *rate.Limiter
	// heartbeat is the event streams' (the const heartbeat, shorter in
	// tests).
	heartbeat time.Duration
	// streams counts the event streams open (ConnLimits.Streams).
	streams atomic.Int64
	// streamsRefused counts the streams refused at that bound, for
	// /metrics.
	streamsRefused atomic.Int64
}

// Wrong tokens the server answers, over every client: guessRate a second,
// after a burst of guessBurst; beyond that, 429.
const (
	guessRate  = 5
	guessBurst = 20
)

// New returns a server whose debates run until ctx ends.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.App == nil || cfg.App.Store == nil {
		return nil, errors.New("server: no application layer or store")
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	md := newCachedMarkdown(markdownCacheBytes)
	pages, err := parsePages(md)
	if err != nil {
		return nil, err
	}
	opts, err := newAPIOptions(cfg.App.Formats)
	if err != nil {
		return nil, err
	}
	renders := cfg.PDFRenders
	if renders <= 0 {
		renders = runtime.GOMAXPROCS(0)
	}
	return &Server{renders: newRenderSlots(renders, 2*renders), cfg: cfg, app: cfg.App, log: log, pages: pages, md: md, pdfs: newRenderCache(pdfCacheBytes), ctx: ctx, hub: &hub{store: cfg.App.Store}, started: time.Now(), conn: cfg.Conn.orDefault(),
		guesses: rate.NewLimiter(guessRate, guessBurst), heartbeat: heartbeat, renderPDF: app.RenderPDF, opts: opts}, nil
}

// CheckBind refuses to listen beyond the loopback interface without a
// token: the server will be exposed by someone.
func CheckBind(addr, token string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: write HOST:PORT, for example 127.0.0.1:7878: %w", addr, err)
	}
	// The port first: refused for exposure, ":99999" sent the user to set
	// a token only to be refused again for its port.
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("--addr %q: the port %q cannot be listened on: give a port from 0 to 65535 (0 picks a free one), for example 127.0.0.1:7878", addr, port)
	}
	if token != "" {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %s listens beyond this machine: set a token with --token or PARLEY_TOKEN (every request must then carry it), or bind to 127.0.0.1", addr)
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))

	oh := &ops.Handler{Store: s.app.Store, Started: s.started, Role: "serve", Calls: s.cfg.Calls, Streams: func() ops.StreamCounts {
		return ops.StreamCounts{Open: s.streams.Load(), Max: int64(s.conn.Streams), Refused: s.streamsRefused.Load()}
	}}
	if s.cfg.Jobs != nil {
		oh.Jobs = s.cfg.Jobs
	}
	mux.HandleFunc("GET /healthz", oh.Healthz)
	mux.HandleFunc("GET /metrics", oh.Metrics)
	// Each API route takes the query parameters it names and refuses any
	// other (queryParams): ?limt=5 or ?stauts=running was ignored, and
	// answered as if not given.
	q := queryParams
	mux.HandleFunc("GET /api/openapi.json", q()(s.openAPI))
	mux.HandleFunc("GET /api/debates", q("status", "format", "limit", "cursor")(s.apiList))
	mux.HandleFunc("POST /api/debates", q()(s.apiCreate))
	api, page := s.debateID(writeAppError), s.debateID(s.pageError)
	mux.HandleFunc("GET /api/debates/{id}", q()(api(s.apiGet)))
	mux.HandleFunc("DELETE /api/debates/{id}", q()(api(s.apiDelete)))
	mux.HandleFunc("POST /api/debates/{id}/checkpoint", q()(api(s.apiCheckpoint)))
	mux.HandleFunc("POST /api/debates/{id}/hints", q()(api(s.apiHint)))
	mux.HandleFunc("POST /api/debates/{id}/pause", q()(api(s.apiPause)))
	mux.HandleFunc("POST /api/debates/{id}/resume", q()(api(s.apiResume)))
	mux.HandleFunc("GET /api/debates/{id}/export", q("as", "summary")(api(s.apiExport)))
	mux.HandleFunc("GET /api/debates/{id}/events", q("after")(api(s.apiEvents)))

	mux.HandleFunc("GET /{$}", s.pageList)
	mux.HandleFunc("GET /new", s.pageNew)
	mux.HandleFunc("POST /new", s.pageCreate)
	mux.HandleFunc("GET /debates/{id}", page(s.pageDebate))
	mux.HandleFunc("GET /debates/{id}/panel", page(s.pagePanel))
	mux.HandleFunc("GET /debates/{id}/report", page(s.pageReport))
	mux.HandleFunc("GET /debates/{id}/export", page(s.pageExport))
	mux.HandleFunc("POST /debates/{id}/{action}", page(s.action))
	mux.HandleFunc("GET /login", s.pageLogin)
	mux.HandleFunc("POST /login", s.login)

	h := s.routeErrors(mux)
	h = s.authenticate(h)
	// State-changing requests from another origin are refused (Fetch
	// metadata, else Origin against Host).
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isAPI(r) {
			writeError(w, http.StatusForbidden, "a request from another origin cannot change state: send it from this origin, or without a browser")
			return
		}
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
	}))
	h = cop.Handler(h)
	h = limitBody(h)
	h = secureHeaders(h)
	return h
}

// debateID wraps the handlers of a debate's paths: an {id} that no debate
// can have (debate.ValidID: not UTF-8, a control character, NUL among them,
// or over debate.MaxIDLen bytes) is answered as a debate that is not there,
// 404, by notFound (the API's JSON or a page), before the store is asked
// (which answers the same, see debate.Store).
func (s *Server) debateID(notFound func(http.ResponseWriter, error)) func(http.HandlerFunc) http.HandlerFunc {
	return func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			id := r.PathValue("id")
			if !debate.ValidID(id) {
				notFound(w, fmt.Errorf("debate %q: %w", clip(id), debate.ErrNotFound))
				return
			}
			next(w, r)
		}
	}
}

// queryParams refuses a request to an API route with a query parameter
// other than known (400), naming it, the one it was probably meant to be,
// and those the route takes: a misspelt parameter was ignored, so that
// ?limt=5 listed 100 debates and ?stauts=running every debate, as if the
// filter had matched them. The values are checked by the handlers. The
// dashboard's pages are not checked: a link with a parameter a site adds
// (utm_source) still opens. A parameter whose name starts with "_" is
// ignored on every route: it is how clients defeat a cache (jQuery's
// ?_=1700000000), and no parameter of the API is named so.
func queryParams(known ...string) func(http.HandlerFunc) http.HandlerFunc {
	return func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.URL.RawQuery == "" {
				next(w, r)
				return
			}
			q := r.URL.Query()
			names := make([]string, 0, len(q))
			for name := range q {
				names = append(names, name)
			}
			slices.Sort(names) // the first unknown one named, the same each time
			for _, name := range names {
				if slices.Contains(known, name) || strings.HasPrefix(name, "_") {
					continue
				}
				_, path, _ := strings.Cut(r.Pattern, " ")
				route := r.Method + " " + path
				msg := fmt.Sprintf("unknown query parameter %q", clip(name))
				if s := app.Suggest(name, known); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
				} else {
					msg += " (a cache-buster is taken when its name starts with _, ?_=1)"
				}
				if len(known) == 0 {
					msg += fmt.Sprintf(": %s takes none", route)
				} else {
					msg += fmt.Sprintf(": %s takes %s", route, strings.Join(known, ", "))
				}
				writeError(w, http.StatusBadRequest, msg)
				return
			}
			next(w, r)
		}
	}
}

// Resume restarts the debates this server was running when it stopped:
// those whose log says running and whose runner is gone. A debate another
// live process runs is left to it.
func (s *Server) Resume(ctx context.Context) {
	if s.cfg.Jobs != nil {
		return // their jobs are in the queue; a dead worker's are taken over
	}
	// Only running debates and those at a checkpoint can show interrupted:
	// read from the status index, not every debate.
	sums, err := s.app.Store.List(ctx, debate.ListFilter{Statuses: []debate.Status{debate.StatusRunning, debate.StatusCheckpoint}})
	if err != nil {
		s.log.Warn("list debates to resume", "err", err)
		return
	}
	now := time.Now()
	for _, sum := range sums {
		if sum.Shown(now, debate.OwnerAlive) != debate.StatusInterrupted {
			continue
		}
		if err := s.resume(ctx, sum.ID, nil); err != nil {
			s.log.Warn("resume an interrupted debate", "id", sum.ID, "err", err)
			continue
		}
		s.log.Info("resumed an interrupted debate", "id", sum.ID)
	}
}

// Wait waits for the debates this server runs to stop (after its context
// ends, they pause, resumable).
func (s *Server) Wait() { s.runs.wait() }

// resume resumes a debate in this process, with a checkpoint answer given
// ahead when the debate waits at a checkpoint.
func (s *Server) resume(ctx context.Context, id string, preset *debate.CheckpointAnswered) error {
	// A debate that is not there is 404, as on the other paths: the
	// application layer's resume words it for the command line, as bad
	// input naming 'parley list' (400).
	if _, err := s.app.Store.Get(ctx, id); err != nil {
		return err
	}
	if q := s.cfg.Jobs; q != nil {
		if err := s.modelsUsable(ctx, id); err != nil {
			return err
		}
		if preset != nil {
			return q.Answer(ctx, id, *preset)
		}
		// A queued debate's job waits for a worker: a second one would
		// run it twice over.
		if err := s.app.NotQueued(ctx, id); err != nil {
			return err
		}
		return q.Resume(ctx, id)
	}
	sess, err := s.app.Resume(ctx, app.ResumeRequest{ID: id})
	if err != nil {
		return err
	}
	return s.runs.start(s.ctx, s.log, sess, preset, s.finish)
}

// modelsUsable refuses to queue a run of a debate whose recorded models
// this server's environment cannot set up (a key is not set), as a new
// debate needing one is refused: a worker resumes it with those models, and
// its job's attempts would fail for hours while the debate showed queued.
// A debate a live runner holds is left to the queue, which says so.
func (s *Server) modelsUsable(ctx context.Context, id string) error {
	if sum, err := s.app.Store.Get(ctx, id); err == nil && sum.LiveLease(time.Now(), debate.OwnerAlive) != nil {
		return nil
	}
	return s.app.CheckRecordedModels(ctx, id)
}

// finish writes a completed debate's documents.
func (s *Server) finish(ctx context.Context, sess *app.Session, st *debate.State) {
	if _, err := s.app.WriteArtifacts(ctx, sess.Format, st, app.Documents{Dir: s.cfg.DecisionsDir}); err != nil {
		s.log.Warn("write the decision document", "id", sess.ID, "err", err)
	}
}

const cookieName = "parley_token"

// authenticate requires the token, when one is set, on everything but the
// login page and the static files.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return next
	}
	want := sha256.Sum256([]byte(s.cfg.Token))
	ok := func(got string) bool {
		g := sha256.Sum256([]byte(got))
		return subtle.ConstantTimeCompare(g[:], want[:]) == 1
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" || r.URL.Path == "/healthz" || strings.HasPrefix(r.URL.Path, "/static/") {
			next.ServeHTTP(w, r)
			return
		}
		// The scheme is case-insensitive (RFC 9110, 11.1): some clients
		// send "bearer".
		scheme, b, found := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		bearer := found && strings.EqualFold(scheme, "Bearer")
		if bearer && ok(strings.TrimSpace(b)) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(cookieName); err == nil && ok(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		_, cookieErr := r.Cookie(cookieName)
		if (bearer || cookieErr == nil) && !s.guesses.Allow() {
			tooManyGuesses(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/metrics" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="parley"`)
			if bearer {
				writeError(w, http.StatusUnauthorized, "that token is not this server's: send the server's --token or PARLEY_TOKEN as Authorization: Bearer TOKEN")
				return
			}
			writeError(w, http.StatusUnauthorized, "a token is required: send Authorization: Bearer TOKEN (the server's --token or PARLEY_TOKEN)")
			return
		}
		http.Redirect(w, r, "/login", http.StatusSeeOther)
	})
}

// tooManyGuesses answers a wrong token beyond the server's pace of them.
func tooManyGuesses(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "1")
	const msg = "too many requests with a wrong token: wait a second, and send the server's token (--token or PARLEY_TOKEN)"
	if isAPI(r) || r.URL.Path == "/metrics" {
		writeError(w, http.StatusTooManyRequests, msg)
		return
	}
	http.Error(w, msg, http.StatusTooManyRequests)
}

// tokenOK reports whether a token typed in the login form is the server's.
func (s *Server) tokenOK(got string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(s.cfg.Token))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

func isAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// routeErrors answers what the mux itself refuses (a path it does not
// serve, a method a path does not take) as the rest of the server answers:
// in JSON under /api/, on an HTML page elsewhere (the mux's own answer is
// plain text).
func (s *Server) routeErrors(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			// ServeHTTP, not h: it sets the path's wildcards.
			mux.ServeHTTP(w, r)
			return
		}
		rec := &headerRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		allow := rec.header.Get("Allow")
		switch {
		case rec.code == http.StatusNotFound && isAPI(r):
			writeError(w, http.StatusNotFound, "no such API path: /api/openapi.json describes the API")
		case rec.code == http.StatusMethodNotAllowed && isAPI(r):
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "this path takes only "+allow)
		case rec.code == http.StatusNotFound:
			s.notFound(w)
		case rec.code == http.StatusMethodNotAllowed:
			w.Header().Set("Allow", allow)
			w.WriteHeader(http.StatusMethodNotAllowed)
			s.render(w, "error.html", map[string]any{"Title": http.StatusText(http.StatusMethodNotAllowed), "Message": "This page takes only " + allow + "."})
		default:
			// A redirect to the cleaned path, or anything else the mux
			// answers on its own.
			mux.ServeHTTP(w, r)
		}
	})
}

// headerRecorder keeps the status and headers of the mux's own answer and
// drops its plain-text body.
type headerRecorder struct {
	header http.Header
	code   int
}

func (r *headerRecorder) Header() http.Header { return r.header }
func (r *headerRecorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}
func (r *headerRecorder) Write(p []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return len(p), nil
}

func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// secureHeaders sets a Content-Security-Policy with no inline script: model
// output is untrusted, and whatever slips through escaping cannot run.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}
