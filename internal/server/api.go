package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
)

// CreateRequest is the body of POST /api/debates: the command line's
// options, minus those that name files (a request never reaches the
// filesystem). The formats' options are fields named by the options
// (setup.Option.JSON: "max_rounds" for --max-rounds), in Options
// (apiOptions decodes them).
type CreateRequest struct {
	Format        string   `json:"format,omitempty"` // default: bullbear for a ticker, else perspectives
	Topic         string   `json:"topic"`
	NoCheckpoints bool     `json:"no_checkpoints,omitempty"`
	Offline       bool     `json:"offline,omitempty"`
	Provider      string   `json:"provider,omitempty"`
	Model         string   `json:"model,omitempty"`
	ModelFor      []string `json:"model_for,omitempty"`
	TurnBudget    *int     `json:"turn_budget,omitempty"`
	DebateBudget  *int     `json:"debate_budget,omitempty"`
	// Options are the formats' options the request gives, by option name
	// (setup.Request.Values); a zero value is none given.
	Options setup.Values `json:"-"`
}

// startRequest is the application layer's request for a create request;
// one that names no format runs the one it implies among formats.
func (c CreateRequest) startRequest(formats *debate.Formats) app.StartRequest {
	req := setup.Request{Format: c.Format, Topic: c.Topic, NoCheckpoints: c.NoCheckpoints, Offline: c.Offline, Values: c.Options}
	// Given names the options the request sets, as the command line's
	// flags: a format refuses one it does not declare (setup.Optioner).
	req.Given = func(name string) bool { return (name == "format" && c.Format != "") || req.Has(name) }
	if req.Format == "" {
		req.Format = app.FormatFor(formats, &req)
	}
	lim := debate.DefaultLimits()
	if c.TurnBudget != nil {
		lim.TurnBudget = *c.TurnBudget
	}
	if c.DebateBudget != nil {
		lim.DebateBudget = *c.DebateBudget
	}
	return app.StartRequest{Request: req, Models: app.Models{Provider: c.Provider, Model: c.Model, ModelFor: c.ModelFor}, Limits: lim}
}

// create starts a debate and runs it in this process.
func (s *Server) create(ctx context.Context, c CreateRequest, idem *debate.Idempotency) (string, error) {
	req := c.startRequest(s.app.Formats)
	req.Idempotency = idem
	if q := s.cfg.Jobs; q != nil {
		sess, err := q.StartDebate(ctx, req)
		if err != nil {
			return "", err
		}
		return sess.ID, nil
	}
	sess, err := s.app.Start(ctx, req)
	if err != nil {
		return "", err
	}
	if err := s.runs.start(s.ctx, s.log, sess, nil, s.finish); err != nil {
		return "", err
	}
	return sess.ID, nil
}

func (s *Server) apiCreate(w http.ResponseWriter, r *http.Request) {
	var c CreateRequest
	if !decodeJSON(w, r, &createBody{c: &c, opts: s.opts}) {
		return
	}
	idem, err := s.idempotency(r, c)
	if err != nil {
		writeAppError(w, err)
		return
	}
	id, again, err := s.createOnce(r.Context(), c, idem)
	if err != nil {
		writeWorded(w, err, apiWording{s.opts})
		return
	}
	code := http.StatusCreated
	if again {
		code = http.StatusOK
	}
	w.Header().Set("Location", "/api/debates/"+id)
	writeJSON(w, code, map[string]string{"id": id, "events": "/api/debates/" + id + "/events", "page": "/debates/" + id})
}

// createOnce is create for a request with an idempotency key (or none:
// nil): the request sent again is answered with the debate it created
// (again), before its checks run again, which may answer otherwise now (a
// key unset since).
func (s *Server) createOnce(ctx context.Context, c CreateRequest, idem *debate.Idempotency) (id string, again bool, err error) {
	if idem == nil {
		id, err = s.create(ctx, c, nil)
		return id, false, err
	}
	if id, err = s.app.Keyed(ctx, *idem); !errors.Is(err, debate.ErrNotFound) {
		return id, err == nil, err
	}
	id, err = s.create(ctx, c, idem)
	if errors.Is(err, debate.ErrExists) {
		// Sent twice at once: the other request created it.
		id, err = s.app.Keyed(ctx, *idem)
		return id, err == nil, err
	}
	return id, false, err
}

// maxIdempotencyKey bounds an Idempotency-Key: a UUID is 36 characters.
const maxIdempotencyKey = 255

// idempotency reads a create request's Idempotency-Key header: nil when
// it has none. The request's digest is of the body as decoded, so that the
// same request sent with other spacing or field order is the same request.
func (s *Server) idempotency(r *http.Request, c CreateRequest) (*debate.Idempotency, error) {
	key, ok := r.Header["Idempotency-Key"]
	if !ok {
		return nil, nil
	}
	return s.requestKey(strings.Join(key, ","), c)
}

// requestKey is a create request's idempotency: its key and its digest.
func (s *Server) requestKey(key string, c CreateRequest) (*debate.Idempotency, error) {
	k := strings.TrimSpace(key)
	if k == "" || len(k) > maxIdempotencyKey || strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return nil, setup.Inputf("Idempotency-Key %q: give 1 to %d printable ASCII characters (a UUID, say), a new one for each new debate", clip(k), maxIdempotencyKey)
	}
	b, err := s.opts.marshal(c)
	if err != nil {
		return nil, fmt.Errorf("digest the request: %w", err)
	}
	sum := sha256.Sum256(b)
	return &debate.Idempotency{Key: k, Request: hex.EncodeToString(sum[:])}, nil
}

// apiListLimit is how many debates GET /api/debates lists when not given
// a limit: a database of a busy cluster holds tens of thousands, and an
// answer of them all (tens of megabytes of JSON, seconds of reading and
// encoding, held in memory whole) was what a client that left the limit
// out got. The pages after are a cursor away.
const apiListLimit = 100

// maxListLimit is the most debates a page lists, the API's and the
// dashboard's: a larger limit lists this many, and says there are more
// (its next cursor), rather than being refused, so that a client that
// asked for more than this before the bound keeps working, one page at a
// time.
const maxListLimit = 1000

func (s *Server) apiList(w http.ResponseWriter, r *http.Request) {
	page, err := s.list(r, apiListLimit)
	if err != nil {
		writeAppError(w, err)
		return
	}
	body := map[string]any{"debates": page.debates, "more": page.next != "", "limit": page.limit}
	if page.next != "" {
		body["next"] = page.next
		w.Header().Set("Link", "<"+nextURL(r, page.next)+`>; rel="next"`)
	}
	writeJSON(w, http.StatusOK, body)
}

// nextURL is the request's URL for the page after, with cursor next and
// the same filters and limit.
func nextURL(r *http.Request, next string) string {
	q := r.URL.Query()
	q.Set("cursor", next)
	return r.URL.Path + "?" + q.Encode()
}

// listed is a page of the list: its debates, and the cursor of the page
// after ("" when no more match).
type listed struct {
	debates []debate.Summary
	next    string
	// limit is the page's size as served (the default, or the one asked
	// for up to maxListLimit).
	limit int
}

// list lists the debates, filtered by ?status= and ?format=, each with the
// status to show (a running debate whose runner is gone shows interrupted),
// the newest ?limit= of them (defaultLimit when not given, maxListLimit at
// most) after ?cursor= (the next of the page before), and the cursor of the
// page after when more match.
//
// A filter value that names no status or format is refused (400): it
// would match nothing, and a typo ("complete") would read as "there is no
// such debate". So is a limit that is not a whole number of 1 or more,
// and a cursor this server did not give.
func (s *Server) list(r *http.Request, defaultLimit int) (listed, error) {
	limit := defaultLimit
	// An empty limit= is no limit given, as it was before limits had a
	// default.
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v, "-"):
			n = maxListLimit // a number too large for an int is over the bound too
		case err != nil || n < 1:
			return listed{}, setup.Inputf("limit=%q: give how many debates to list, the newest first, from 1 to %d (leave it out for %d); the rest are on the pages after, by the answer's next cursor", clip(v), maxListLimit, defaultLimit)
		}
		limit = min(n, maxListLimit)
	}
	var after *debate.ListPosition
	if c, ok := r.URL.Query()["cursor"]; ok {
		var err error
		if after, err = app.ParseCursor(c[0]); err != nil {
			return listed{}, err
		}
	}
	sums, err := s.listAll(r, limit, after)
	if err != nil {
		return listed{}, err
	}
	// One more than the limit is asked for, to tell whether more match.
	if len(sums) > limit {
		sums = sums[:limit]
		return listed{debates: sums, next: app.Cursor(sums[limit-1]), limit: limit}, nil
	}
	return listed{debates: sums, limit: limit}, nil
}

// listAll is list of at most limit+1 debates after a position (nil: from
// the newest).
func (s *Server) listAll(r *http.Request, limit int, after *debate.ListPosition) ([]debate.Summary, error) {
	format, want := r.URL.Query().Get("format"), r.URL.Query().Get("status")
	if format != "" && !slices.Contains(s.app.Formats.Names(), format) {
		return nil, setup.Inputf("format=%q: filter by one of %s, or leave it out", clip(format), strings.Join(s.app.Formats.Names(), ", "))
	}
	if want != "" && !slices.Contains(app.Statuses(), debate.Status(want)) {
		var names []string
		for _, st := range app.Statuses() {
			names = append(names, string(st))
		}
		return nil, setup.Inputf("status=%q: filter by one of %s, or leave it out", clip(want), strings.Join(names, ", "))
	}
	out, err := s.app.List(r.Context(), app.ListFilter{Format: format, Status: debate.Status(want), Limit: limit + 1, After: after})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []debate.Summary{}
	}
	return out, nil
}

// DebateView is GET /api/debates/{id}: the debate's summary, its result so
// far, and what it waits for.
type DebateView struct {
	debate.Summary
	Debate app.ExportedDebate `json:"debate"`
	// Running is true while this server runs the debate.
	Running bool `json:"running"`
	// Checkpoint is the checkpoint waiting for an answer, if any.
	Checkpoint *debate.CheckpointReached `json:"checkpoint,omitempty"`
	// Paused is why a paused debate paused (its reason, and the detail
	// to fix before a resume: a rejected key, a budget reached), as
	// 'parley show' says it.
	Paused *debate.Paused `json:"paused,omitempty"`
	// Agents are the agents a hint can go to.
	Agents []string `json:"agents"`
}

func (s *Server) view(ctx context.Context, id string) (*DebateView, *debate.State, error) {
	v, st, _, err := s.viewLog(ctx, id)
	return v, st, err
}

// viewLog is view with the debate's events, read once for both.
func (s *Server) viewLog(ctx context.Context, id string) (*DebateView, *debate.State, []debate.Event, error) {
	sum, err := s.app.Store.Get(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	events, err := s.app.Store.Load(ctx, id, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return nil, nil, nil, err
	}
	sum.Status = sum.Shown(s.now(), debate.OwnerAlive)
	v := &DebateView{Summary: sum, Debate: app.ExportJSON(s.app.AsShown(ctx, st), false), Agents: s.app.HintTargets(st)}
	if v.Agents == nil {
		v.Agents = []string{}
	}
	if s.cfg.Jobs != nil {
		// Running: a runner holds it, on any worker, or it is queued for
		// one (its log says so, or its worker died and a job takes it
		// over: Summary.Shown). A paused or ended debate whose runner is
		// letting go of its lease is not running.
		v.Running = sum.Status == debate.StatusQueued || (sum.Lease != nil && (sum.Status == debate.StatusRunning || sum.Status == debate.StatusCheckpoint))
		if cp := st.OpenCheckpoint(); cp != nil && sum.Status == debate.StatusPaused {
			v.Checkpoint = cp
		}
	} else if run := s.runs.get(id); run != nil {
		v.Running = true
		v.Checkpoint = run.human.waiting()
	} else if cp := st.OpenCheckpoint(); cp != nil && sum.Status == debate.StatusPaused {
		v.Checkpoint = cp
	}
	if p, ok := st.LastPause(); ok && sum.Status == debate.StatusPaused {
		p.Detail = app.Truncate(textsafe.Clean(p.Detail), 400)
		v.Paused = &p
	}
	if sum.Status == debate.StatusCompleted {
		// Its runner may still be letting go (writing its documents,
		// releasing the lease, its job being marked done): a debate that
		// has ended is not running, whatever is left of its run.
		v.Running = false
	}
	return v, st, events, nil
}

func (s *Server) apiGet(w http.ResponseWriter, r *http.Request) {
	if s.head(w, r, r.PathValue("id"), false, writeAppError, "application/json; charset=utf-8") {
		return
	}
	v, _, err := s.view(r.Context(), r.PathValue("id"))
	if err != nil {
		writeAppError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// apiDelete deletes a debate for good: 204, or 409 while a runner holds it.
func (s *Server) apiDelete(w http.ResponseWriter, r *http.Request) {
	if err := s.delete(r.Context(), r.PathValue("id")); err != nil {
		writeAppError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// delete deletes a debate for good (app.Delete); one a runner holds is a
// conflict that says to pause it first.
func (s *Server) delete(ctx context.Context, id string) error {
	_, err := s.app.Delete(ctx, id)
	var held *debate.LeaseHeldError
	if errors.As(err, &held) {
		return &conflictError{fmt.Errorf("%w: pause it first, then delete it", err)}
	}
	return err
}

// CheckpointRequest answers a checkpoint: continue, guide (with guidance)
// or end.
type CheckpointRequest struct {
	ID       string `json:"id,omitempty"`
	Action   string `json:"action"`
	Guidance string `json:"guidance,omitempty"`
}

func (s *Server) answer(ctx context.Context, id string, c CheckpointRequest) error {
	switch c.Action {
	case debate.ActionContinue, debate.ActionEnd:
	case debate.ActionGuide:
		if strings.TrimSpace(c.Guidance) == "" {
			return setup.Inputf("action guide needs guidance: what should the debaters address next?")
		}
		if len(c.Guidance) > app.MaxHintLen {
			return setup.Inputf("the guidance is %d bytes; keep it under %d", len(c.Guidance), app.MaxHintLen)
		}
	default:
		return setup.Inputf("action %q: answer continue, guide or end", clip(c.Action))
	}
	ans := debate.CheckpointAnswered{ID: c.ID, Action: c.Action, Guidance: strings.TrimSpace(c.Guidance)}
	if q := s.cfg.Jobs; q != nil {
		if err := s.modelsUsable(ctx, id); err != nil {
			return err
		}
		return q.Answer(ctx, id, ans)
	}
	if run := s.runs.get(id); run != nil {
		if run.human.answer(ans) {
			return nil
		}
		return &conflictError{fmt.Errorf("debate %s is running and no checkpoint waits for an answer", id)}
	}
	v, _, err := s.view(ctx, id)
	if err != nil {
		return err
	}
	if v.Checkpoint == nil {
		return &conflictError{fmt.Errorf("debate %s waits for no checkpoint answer (it is %s)", id, v.Status)}
	}
	ans.ID = v.Checkpoint.ID
	return s.resume(ctx, id, &ans)
}

func (s *Server) apiCheckpoint(w http.ResponseWriter, r *http.Request) {
	var c CheckpointRequest
	if !decodeJSON(w, r, &c) {
		return
	}
	if err := s.answer(r.Context(), r.PathValue("id"), c); err != nil {
		writeAppError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "answered"})
}

// HintRequest is guidance for an agent's next turn: target is an agent, a
// unique prefix of one, or all.
type HintRequest struct {
	Target string `json:"target"`
	Text   string `json:"text"`
}

func (s *Server) hint(ctx context.Context, id string, h HintRequest) (debate.HintQueued, error) {
	st, err := s.state(ctx, id)
	if err != nil {
		return debate.HintQueued{}, err
	}
	if q := s.cfg.Jobs; q != nil {
		// A hint is an event in the log: the runner, on any worker, folds
		// it in before its next step; a debate that waits reads it when it
		// goes on.
		if st.Status == debate.StatusCompleted {
			return debate.HintQueued{}, fmt.Errorf("debate %s: %w", id, jobs.ErrNotRunning)
		}
	} else if s.runs.get(id) == nil {
		return debate.HintQueued{}, &conflictError{fmt.Errorf("debate %s is not running in this server: resume it first", id)}
	}
	targets := s.app.HintTargets(st)
	target, text, err := app.ResolveHint(targets, h.Target, h.Text, strings.TrimSpace(h.Target) != "")
	if err != nil {
		return debate.HintQueued{}, &setup.InputError{Err: err}
	}
	if q := s.cfg.Jobs; q != nil {
		return q.Hint(ctx, id, target, text)
	}
	run := s.runs.get(id)
	if run == nil {
		return debate.HintQueued{}, &conflictError{fmt.Errorf("debate %s stopped running in this server: resume it first", id)}
	}
	return run.sess.Hint(ctx, target, text)
}

// state folds a debate's log.
func (s *Server) state(ctx context.Context, id string) (*debate.State, error) {
	events, err := s.app.Store.Load(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	return debate.Fold(events)
}

func (s *Server) apiHint(w http.ResponseWriter, r *http.Request) {
	var h HintRequest
	if !decodeJSON(w, r, &h) {
		return
	}
	q, err := s.hint(r.Context(), r.PathValue("id"), h)
	if err != nil {
		writeAppError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, q)
}

// pause stops a debate this server runs; it pauses, resumable.
func (s *Server) pause(ctx context.Context, id string) error {
	if q := s.cfg.Jobs; q != nil {
		return q.Pause(ctx, id, 10*time.Second)
	}
	run := s.runs.get(id)
	if run == nil {
		if _, err := s.app.Store.Get(ctx, id); err != nil {
			return err
		}
		return &conflictError{fmt.Errorf("debate %s is not running in this server", id)}
	}
	run.cancel()
	select {
	case <-run.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

func (s *Server) apiPause(w http.ResponseWriter, r *http.Request) {
	if err := s.pause(r.Context(), r.PathValue("id")); err != nil {
		writeAppError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "paused"})
}

func (s *Server) apiResume(w http.ResponseWriter, r *http.Request) {
	if err := s.resume(r.Context(), r.PathValue("id"), nil); err != nil {
		writeAppError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "running"})
}

func (s *Server) apiExport(w http.ResponseWriter, r *http.Request) {
	s.export(w, r, exportFailure{msg: writeError, app: writeAppError})
}

// exportFailure is how an export route answers an error: the API in JSON,
// the dashboard's download links with a page (pageExport).
type exportFailure struct {
	msg func(w http.ResponseWriter, code int, msg string)
	app func(w http.ResponseWriter, err error)
}

// export writes debate {id} as the document ?as= names, answering errors
// with fail.
func (s *Server) export(w http.ResponseWriter, r *http.Request, fail exportFailure) {
	id := r.PathValue("id")
	as := r.URL.Query().Get("as")
	if as == "" {
		as = "md"
	}
	// A summary asked for with a value that is neither true nor false
	// ("yes", "summary=") is refused rather than read as false: the full
	// document is not what the caller asked for.
	summary := false
	if v, ok := r.URL.Query()["summary"]; ok {
		b, err := strconv.ParseBool(v[0])
		if err != nil {
			fail.msg(w, http.StatusBadRequest, fmt.Sprintf("summary=%q: give summary=true for the summary, summary=false (or leave it out) for the whole document", clip(v[0])))
			return
		}
		summary = b
	}
	types := map[string]string{"md": "text/markdown; charset=utf-8", "json": "application/json; charset=utf-8", "pdf": "application/pdf"}
	if types[as] == "" {
		fail.msg(w, http.StatusBadRequest, fmt.Sprintf("as=%q: export as md, json or pdf", clip(as)))
		return
	}
	// Set once the document is rendered: an error is not an attachment.
	attachment := func(h http.Header) { h.Set("Content-Disposition", `attachment; filename="`+id+"."+as+`"`) }
	if s.head(w, r, id, true, fail.app, types[as], attachment) {
		return
	}
	st, err := s.state(r.Context(), id)
	if err != nil {
		fail.app(w, err)
		return
	}
	st = s.app.AsShown(r.Context(), st)
	format, err := s.app.Formats.Get(st.Format)
	if err != nil {
		fail.app(w, err)
		return
	}
	switch as {
	case "md":
		doc, err := app.RenderDoc(format, st, summary)
		if err != nil {
			fail.app(w, err)
			return
		}
		w.Header().Set("Content-Type", types[as])
		attachment(w.Header())
		_, _ = w.Write([]byte(doc))
	case "json":
		attachment(w.Header())
		writeJSON(w, http.StatusOK, app.ExportJSON(st, !summary))
	case "pdf":
		pdf, err := s.exportPDF(r.Context(), st, format, summary)
		if errors.Is(err, errRendersBusy) {
			w.Header().Set("Retry-After", "5")
			fail.msg(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		if err != nil {
			fail.app(w, err)
			return
		}
		w.Header().Set("Content-Type", types[as])
		attachment(w.Header())
		_, _ = w.Write(pdf)
	}
}

// head answers a HEAD request of a route that renders debate id (its
// JSON, a page, an export) with the status and headers a GET would have,
// from the debate's summary alone, and reports whether it did: net/http
// routes HEAD to the GET handler and drops the body it writes, so a HEAD
// of a long debate's PDF read its log and laid the PDF out, seconds of
// CPU, for nothing. Its Content-Length is left out, as RFC 9110 (9.3.2)
// allows for what only the rendering would tell. needFormat checks that
// this server knows the debate's format, which the rendering needs; fail
// answers an error as the route does; set sets the route's other headers
// of a success.
func (s *Server) head(w http.ResponseWriter, r *http.Request, id string, needFormat bool, fail func(http.ResponseWriter, error), contentType string, set ...func(http.Header)) bool {
	if r.Method != http.MethodHead {
		return false
	}
	sum, err := s.app.Store.Get(r.Context(), id)
	if err == nil && needFormat {
		_, err = s.app.Formats.Get(sum.Format)
	}
	if err != nil {
		fail(w, err)
		return true
	}
	w.Header().Set("Content-Type", contentType)
	for _, f := range set {
		f(w.Header())
	}
	w.WriteHeader(http.StatusOK)
	return true
}

// pdfCacheBytes bounds the server's cache of exported PDFs: a few dozen
// documents of a long debate.
const pdfCacheBytes = 64 << 20

// exportPDF is app.ExportPDF through the server's cache, keyed by the
// document it lays out (title, metadata, Markdown, date), which says all
// that the PDF holds: a debate that moved on, or shows another status, is
// another document.
//
// Requests for a document not in the cache yet share one layout
// (singleflight): each laid it out again, so that a hundred readers
// opening a long debate's PDF at once, or a client sending it a hundred
// times, took a hundred times the CPU. A request whose client goes away
// stops waiting; the layout goes on for the others, and the cache.
func (s *Server) exportPDF(ctx context.Context, st *debate.State, format debate.Format, summary bool) ([]byte, error) {
	d, err := app.PDFDocument(st, format, summary)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, part := range append([]string{d.Title, d.Markdown, d.Created.UTC().Format(time.RFC3339Nano)}, d.Meta...) {
		// Each part with its length: no two documents hash alike by
		// moving bytes from one part to the next.
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if v, ok := s.pdfs.get(key); ok {
		return v.([]byte), nil
	}
	ch := s.layouts.DoChan(string(key[:]), func() (any, error) {
		if v, ok := s.pdfs.get(key); ok {
			return v, nil // laid out by a flight that has just landed
		}
		// A slot for this flight, not for each of its readers. It waits
		// with the server's context, as the layout goes on without its
		// readers: the queue's bound keeps those waiting few.
		release, err := s.renders.acquire(s.ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		b, err := s.renderPDF(st.ID, d)
		if err != nil {
			return nil, err
		}
		s.pdfs.put(key, b, len(b))
		return b, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.([]byte), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// tooLargeError is a request body over the limit.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the request is over %d bytes: shorten the topic, the guidance or the hint", e.limit)
}

// conflictError is a request that does not fit the debate's state.
type conflictError struct{ err error }

func (e *conflictError) Error() string { return e.err.Error() }
func (e *conflictError) Unwrap() error { return e.err }

// statusOf maps an error to its HTTP status.
func statusOf(err error) int {
	var ie *setup.InputError
	var ce *setup.ConfigError
	var conflict *conflictError
	var held *debate.LeaseHeldError
	var large *tooLargeError
	switch {
	case errors.As(err, &large):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, debate.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, app.ErrQueued):
		return http.StatusConflict
	case errors.As(err, &ie):
		return http.StatusBadRequest
	case errors.As(err, &ce), errors.Is(err, app.ErrKeyReused):
		return http.StatusUnprocessableEntity
	case errors.Is(err, app.ErrKeyCollision):
		return http.StatusConflict
	case errors.As(err, &conflict), errors.As(err, &held), errors.Is(err, errRunning), errors.Is(err, app.ErrCompleted),
		errors.Is(err, jobs.ErrRunning), errors.Is(err, jobs.ErrNotRunning), errors.Is(err, jobs.ErrNoCheckpoint):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

// errorMessage words err for a caller of the server, whose fix is a
// request field or the server's environment, not a command-line flag.
func errorMessage(err error) string {
	return wordError(err, apiWording{})
}

// flagsAsFields names, in msg, the request's fields for the flags that
// stand for them ("--max-rounds" becomes "\"max_rounds\""); other flags
// are left as they are.
func (s *Server) flagsAsFields(msg string) string { return replaceFlags(msg, apiWording{s.opts}.flag) }

// wording says a request's errors in the words of where it came from: the
// API's JSON fields, or the new-debate form's labels.
type wording interface {
	// noModel is what to do when no model is configured.
	noModel(*setup.ErrNoModelConfigured) string
	// flag is what stands for a command-line flag ("max-rounds"), quoted,
	// or "" to leave the flag as it is.
	flag(name string) string
}

// apiWording words errors for a caller of the API; opts are the formats'
// options, whose flags it names by their fields (none: only the flags of
// every format).
type apiWording struct{ opts apiOptions }

func (apiWording) noModel(e *setup.ErrNoModelConfigured) string { return e.ForAPI() }

func (a apiWording) flag(name string) string {
	if f := a.opts.fieldOf(name); f != "" {
		return `"` + f + `"`
	}
	if f := fieldOfFlag(name); f != "" {
		return `"` + f + `"`
	}
	return ""
}

// wordError is err's message for a caller of the server, worded by w.
func wordError(err error, w wording) string {
	var nm *setup.ErrNoModelConfigured
	if errors.As(err, &nm) {
		return w.noModel(nm)
	}
	// A resume takes no fields: its model is switched from the command
	// line, or made usable in the server's environment.
	var rm *app.RecordedModelError
	if errors.As(err, &rm) {
		return fmt.Sprintf("debate %s was created with %s for %s, and %v; start the server with it in its environment, or switch the debate's model from the command line: parley debate --resume %s --model NAME (the change is recorded)",
			rm.ID, rm.Ref, app.RoleName(rm.Role), rm.Err, rm.ID)
	}
	// A value a format refuses, named as this front-end names its
	// option; what only the command line can do about it (a file of its
	// own) is left out: a request names no file.
	var oe *setup.OptionError
	if errors.As(err, &oe) {
		name := w.flag(oe.Option)
		if name == "" {
			name = "--" + oe.Option
		}
		return name + ": " + replaceFlags(oe.Problem, w.flag)
	}
	// A hint comes as fields, of the API's body or of the panel's form.
	var he *app.HintError
	if errors.As(err, &he) {
		return he.ForFields()
	}
	// The checks of a request are the command line's, worded with its
	// flags ("--max-rounds -1: give at least 1"): a caller of the server
	// fixes a field of the request instead.
	var ie *setup.InputError
	var ce *setup.ConfigError
	if errors.As(err, &ie) || errors.As(err, &ce) {
		return replaceFlags(err.Error(), w.flag)
	}
	return err.Error()
}

// fieldOfFlag is the CreateRequest field (its JSON name, the form's too)
// of a command-line flag of every format a request's checks name, "" for
// a flag with none. The formats' options are apiOptions'.
func fieldOfFlag(flag string) string {
	switch flag {
	case "format", "offline", "provider", "model":
		return flag
	case "no-checkpoints", "model-for", "turn-budget", "debate-budget":
		return strings.ReplaceAll(flag, "-", "_")
	}
	return ""
}

// flagRe matches a command-line flag in a message: "--" at the start of a
// word.
var flagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^\w-])--([a-z][a-z-]*[a-z])`) })

// replaceFlags replaces, in msg, each flag with what as says stands for
// it; a flag as gives "" for is left as it is.
func replaceFlags(msg string, as func(flag string) string) string {
	re := flagRe()
	return re.ReplaceAllStringFunc(msg, func(m string) string {
		sub := re.FindStringSubmatch(m)
		r := as(sub[2])
		if r == "" {
			return m
		}
		return sub[1] + r
	})
}

func writeAppError(w http.ResponseWriter, err error) { writeWorded(w, err, apiWording{}) }

// writeWorded is writeAppError with the flags of the formats' options in
// the message worded by w.
func writeWorded(w http.ResponseWriter, err error, wd wording) {
	code := statusOf(err)
	msg := wordError(err, wd)
	if code == http.StatusNotFound {
		msg = "no such debate: GET /api/debates lists them"
	}
	writeError(w, code, msg)
}

// clipLen is how much of a value a client sent an error quotes back.
const clipLen = 64

// clip is v as an error quotes it: its first clipLen bytes (whole
// characters), then "…". A query string may be 64 KiB: an answer that
// quoted it whole would send it back, and fill a log with it.
func clip(v string) string {
	if len(v) <= clipLen {
		return v
	}
	cut := clipLen
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "…"
}

// APIError is the body of every error response.
type APIError struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, APIError{Error: msg})
}

// writeJSON writes v with HTML escaped, for clients that paste it into
// pages, and the characters a terminal acts on escaped (textsafe.InertJSON),
// for curl.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = fmt.Fprintf(w, "{\"error\":%q}\n", "encode the response: "+err.Error())
		return
	}
	w.WriteHeader(code)
	_, _ = w.Write(textsafe.InertJSON(b.Bytes()))
}
