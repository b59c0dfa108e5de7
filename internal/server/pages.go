package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
)

func parsePages(md markdown) (*template.Template, error) {
	funcs := template.FuncMap{
		"markdown": md.HTML,
		"clean":    textsafe.Clean,
		"cost":     func(s debate.Summary) string { return report.SummarySpend(s).Cell() },
		"when":     func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
		"short":    func(s string, n int) string { return app.Truncate(textsafe.Clean(s), n) },
	}
	return template.New("").Funcs(funcs).ParseFS(webFS, "web/templates/*.html")
}

// render executes a page template; a failure is logged and answered 500.
func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", htmlType)
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("render page", "page", name, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	_, _ = w.Write([]byte(b.String()))
}

// pageError shows an error on an HTML page with its status.
func (s *Server) pageError(w http.ResponseWriter, err error) {
	code := statusOf(err)
	msg := errorMessage(err)
	if code == http.StatusNotFound {
		msg = "No such debate."
	}
	w.WriteHeader(code)
	s.render(w, "error.html", map[string]any{"Title": http.StatusText(code), "Message": msg})
}

// pageExport is the dashboard's download links' route: the API's export
// (apiExport), with an error answered by a page, since a person followed
// the link and the browser shows what comes back: a PDF refused while the
// server lays out as many as it takes showed a line of bare JSON.
func (s *Server) pageExport(w http.ResponseWriter, r *http.Request) {
	back := "/debates/" + r.PathValue("id")
	page := func(w http.ResponseWriter, code int, msg string) {
		if code == http.StatusServiceUnavailable { // errRendersBusy, said for a person
			msg = "The server is laying out as many PDFs as it can at once. Try again in a few seconds, or download the Markdown or the JSON meanwhile."
		}
		w.WriteHeader(code)
		s.render(w, "error.html", map[string]any{"Title": http.StatusText(code), "Message": msg, "Back": back})
	}
	s.export(w, r, exportFailure{msg: page, app: s.pageError})
}

// notFound is the page for a path the dashboard does not serve.
func (s *Server) notFound(w http.ResponseWriter) {
	w.WriteHeader(http.StatusNotFound)
	s.render(w, "error.html", map[string]any{"Title": http.StatusText(http.StatusNotFound), "Message": "No such page."})
}

type listPage struct {
	Title    string
	Debates  []debate.Summary
	Status   string
	Format   string
	Formats  []string
	Statuses []string
	// CostNote names the models without a price once, under the table:
	// the cost cells say "unknown" or "≥" without them.
	CostNote string
	// More is the link to the page of older debates when more match than
	// the page shows; "" when it shows the last of them. The page's script
	// appends that page's rows to the table instead of leaving the page.
	More string
	// Newest is the link to the first page, on a page after it ("" on the
	// first).
	Newest string
}

// pageListLimit is how many debates the list page shows unless asked for
// more: a database of a busy cluster holds tens of thousands, and a page
// of them all (megabytes of HTML, seconds to render) helps nobody.
const pageListLimit = 200

func (s *Server) pageList(w http.ResponseWriter, r *http.Request) {
	page, err := s.list(r, pageListLimit)
	if err != nil {
		s.pageError(w, err)
		return
	}
	sums := page.debates
	var moreURL, newestURL string
	if page.next != "" {
		moreURL = nextURL(r, page.next)
	}
	if r.URL.Query().Has("cursor") {
		q := r.URL.Query()
		q.Del("cursor")
		newestURL = "/?" + q.Encode()
	}
	var spent []report.Spend
	for _, sum := range sums {
		spent = append(spent, report.SummarySpend(sum))
	}
	s.render(w, "list.html", listPage{Title: "Debates", Debates: sums, Status: r.URL.Query().Get("status"), Format: r.URL.Query().Get("format"),
		Formats:  s.app.Formats.Names(),
		Statuses: []string{"queued", "running", "paused", "interrupted", "completed", "failed"},
		CostNote: report.TableNote(spent), More: moreURL, Newest: newestURL})
}

type newPage struct {
	Title   string
	Formats []string
	Format  string
	Error   string
	Form    map[string]string
	// Sets are the formats' fieldsets, built from the registry (formSets):
	// their fields start at the formats' defaults, so that a debate
	// started from the form runs as one started with the same flags left
	// out.
	Sets []formSet
	// Key is the form's idempotency key (newRequestKey), new with each
	// page.
	Key string
}

// newRequestKey is a new-debate form's idempotency key.
func newRequestKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Server) pageNew(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	s.render(w, "new.html", newPage{Title: "New debate", Formats: s.app.Formats.Names(), Format: format, Form: map[string]string{}, Sets: s.formSets(nil),
		Key: newRequestKey()})
}

func (s *Server) pageCreate(w http.ResponseWriter, r *http.Request) {
	var c CreateRequest
	err := readForm(r)
	if err == nil {
		c, err = s.createFromForm(r.PostForm.Get)
	}
	if err == nil {
		// The form's key makes a double click, or the form sent again
		// as it was, open the debate it started rather than start another.
		// The form changed and sent again with its key (after Back) is a
		// new debate.
		var idem *debate.Idempotency
		if k := r.PostForm.Get("request_key"); k != "" {
			idem, err = s.requestKey(k, c)
		}
		var id string
		if err == nil {
			id, _, err = s.createOnce(r.Context(), c, idem)
		}
		if errors.Is(err, app.ErrKeyReused) {
			id, err = s.create(r.Context(), c, nil)
		}
		if err == nil {
			http.Redirect(w, r, "/debates/"+id, http.StatusSeeOther)
			return
		}
	}
	w.WriteHeader(statusOf(err))
	form := map[string]string{}
	for k := range r.PostForm {
		form[k] = r.PostForm.Get(k)
	}
	s.render(w, "new.html", newPage{Title: "New debate", Formats: s.app.Formats.Names(), Format: c.Format, Error: wordError(err, s.formWording(c.Format)), Form: form, Sets: s.formSets(form),
		Key: newRequestKey()})
}

// readForm parses a page's form. What is wrong with one is the sender's:
// a body over MaxBody is a *tooLargeError (413), any other fault an input
// error (400), not the server's (500).
func readForm(r *http.Request) error {
	err := r.ParseForm()
	if err == nil {
		// The pages' forms are sent as UTF-8: bytes that are not would be
		// stored as U+FFFD without a word (the API refuses them in a JSON
		// body), and NUL is not text PostgreSQL stores.
		for key, vs := range r.PostForm {
			for _, v := range append([]string{key}, vs...) {
				if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
					return setup.Inputf("the form's field %q is not text (bytes that are not UTF-8, or NUL): send it from the page", clip(key))
				}
			}
		}
		return nil
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &tooLargeError{limit: mbe.Limit}
	}
	return setup.Inputf("the form could not be read (%w): send it again from the page", err)
}

// panel is a debate's live view: everything the page shows that changes.
type panel struct {
	V          *DebateView
	Seq        int64
	Phases     []phase
	Cards      []card
	Moderator  []turnView
	Summary    template.HTML
	Map        *argMap
	Done       bool
	Failure    string
	PauseWhy   string
	Hints      []debate.Hint
	Cost       string
	Tokens     string // with thousands separators, as the documents write counts
	ToolsCalls int
	// HeldAt says where to answer a checkpoint that another process's
	// runner asks a person about (a terminal), which this page cannot
	// answer; "" otherwise.
	HeldAt string
	// Waiting says what a queued debate waits for; "" otherwise.
	Waiting string
}

type phase struct {
	Label string
	State string // done, current
}

type card struct {
	Agent string
	Class string // bull, bear, moderator, or agent-N for a colour
	Turns []turnView
}

type turnView struct {
	ID, Label, Model, Cost string
	Running                bool
	Text                   string // the partial text of a running turn
	HTML                   template.HTML
	Tools                  []toolView
	NoLLM                  bool
	Invalid                string
	// Badge is the format's one-line description of the turn's move
	// (crux: CLAIM, CHALLENGE…; council: GO 80%…).
	Badge string
}

type toolView struct {
	Name, Args, Result string
	Error, Cached      bool
}

// buildPanel renders a debate's state for the page.
func (s *Server) buildPanel(ctx context.Context, id string) (*panel, *debate.State, error) {
	v, st, events, err := s.viewLog(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	md := s.md
	p := &panel{V: v, Seq: st.LastSeq, Done: st.Status == debate.StatusCompleted || st.Status == debate.StatusFailed, Failure: st.Failure,
		Hints: st.Hints, Tokens: report.Thousands(st.Usage.Total())}
	v.Phase, v.Topic = textsafe.Clean(v.Phase), textsafe.Clean(v.Topic)
	for i, a := range v.Agents {
		v.Agents[i] = textsafe.Clean(a)
	}
	p.Cost = report.Total(report.Usage(st)).Spend().Text("cost")
	// A debate that waits at its checkpoint with no one to answer (every
	// run on a worker stops there) is shown with the checkpoint's form,
	// which is what to do: not as "Paused: … resume the debate".
	atCheckpoint := func(p debate.Paused) bool {
		return v.Checkpoint != nil && p.Reason == debate.PauseCheckpointUnanswered
	}
	if n := len(st.Pauses); n > 0 && v.Status == debate.StatusPaused && !atCheckpoint(st.Pauses[n-1]) {
		p.PauseWhy = st.Pauses[n-1].Reason
		if d := st.Pauses[n-1].Detail; d != "" {
			p.PauseWhy += ": " + d
		}
	}
	if v.Status == debate.StatusQueued {
		p.Waiting = "Queued: it waits for a worker to take it up (this server's, or a 'parley worker' on its database); nothing to resume."
		switch q := s.cfg.Jobs; {
		case q == nil || q.Serves(st.Queue):
		case !q.Works():
			// Said otherwise, one waits in vain for this server to run it.
			p.Waiting = "Queued: it waits for a 'parley worker' on this server's database to take it up (this server runs none: --workers 0); nothing to resume."
		default:
			p.Waiting = fmt.Sprintf("Queued in the %s queue, which this server does not work (--queue): it waits for a 'parley worker' on this server's database that does; nothing to resume.",
				textsafe.Clean(st.Queue))
		}
	}
	if l := v.LiveLease(s.now(), debate.OwnerAlive); l != nil && v.Status == debate.StatusCheckpoint && v.Checkpoint == nil {
		p.HeldAt = fmt.Sprintf("Waits at its checkpoint for an answer in the process that runs it (pid %d on %s): answer it there, or pause the debate to answer it here.",
			l.Owner.PID, textsafe.Clean(l.Owner.Host))
	}
	for _, e := range events {
		if e.Type != debate.TypePhase {
			continue
		}
		var pc debate.PhaseChanged
		if e.Decode(&pc) == nil && pc.Label != "" && (len(p.Phases) == 0 || p.Phases[len(p.Phases)-1].Label != pc.Label) {
			p.Phases = append(p.Phases, phase{Label: textsafe.Clean(pc.Label), State: "done"})
		}
	}
	if n := len(p.Phases); n > 0 && !p.Done {
		p.Phases[n-1].State = "current"
	}
	turns := make([]*debate.Turn, 0, len(st.Turns))
	for _, t := range st.Turns {
		turns = append(turns, t)
	}
	slices.SortFunc(turns, func(a, b *debate.Turn) int {
		return cmp.Or(a.Started.Compare(b.Started), strings.Compare(a.ID, b.ID))
	})
	var describe func(*debate.Turn) string
	if format, err := s.app.Formats.Get(st.Format); err == nil {
		if d, ok := format.(interface{ Describe(*debate.Turn) string }); ok {
			describe = d.Describe
		}
	}
	byAgent := map[string]int{}
	for _, t := range turns {
		tv := turnView{ID: t.ID, Label: textsafe.Clean(turnLabel(t)), Model: textsafe.Clean(t.Model), Running: t.Status == debate.TurnRunning, NoLLM: t.NoLLM, Invalid: t.Invalid}
		if describe != nil && !tv.Running {
			tv.Badge = textsafe.Clean(describe(t))
		}
		if sp := report.TurnSpend(t.Model, t.Usage, t.CostUSD, t.NoLLM, t.Priced); sp.USD > 0 || !sp.Known() {
			tv.Cost = sp.Cell()
		}
		if tv.Running {
			tv.Text = textsafe.Clean(t.Text)
		} else {
			tv.HTML = md.HTML(textsafe.Clean(t.Text))
		}
		for _, x := range t.Tools {
			// The name and the arguments are model output, and JSON keeps
			// bidi overrides and C1 controls raw in its strings.
			tw := toolView{Name: textsafe.Clean(x.Call.Name), Args: textsafe.Clean(app.Truncate(string(x.Call.Args), 200))}
			if x.Result != nil {
				tw.Result, tw.Error, tw.Cached = app.Truncate(textsafe.Clean(x.Result.Content), 300), x.Result.IsError, x.Result.Cached
			}
			tv.Tools = append(tv.Tools, tw)
			p.ToolsCalls++
		}
		if t.Agent == "moderator" || t.Role == "moderator" {
			p.Moderator = append(p.Moderator, tv)
			continue
		}
		i, ok := byAgent[t.Agent]
		if !ok {
			i = len(p.Cards)
			byAgent[t.Agent] = i
			class := "agent-" + strconv.Itoa(i%6)
			if t.Agent == "bull" || t.Agent == "bear" {
				class = t.Agent
			}
			p.Cards = append(p.Cards, card{Agent: textsafe.Clean(t.Agent), Class: class})
		}
		p.Cards[i].Turns = append(p.Cards[i].Turns, tv)
	}
	// Bull first, as in the document.
	slices.SortStableFunc(p.Cards, func(a, b card) int { return cmp.Compare(rank(a.Agent), rank(b.Agent)) })
	if format, err := s.app.Formats.Get(st.Format); err == nil {
		p.Map = drawMap(format, st)
	}
	if format, err := s.app.Formats.Get(st.Format); err == nil && len(st.Done) > 0 {
		if doc, err := app.RenderDoc(format, st, true); err == nil {
			_, lead, secs := md.sections(linkFilings(st, doc))
			var b strings.Builder
			b.WriteString(string(lead))
			for _, sec := range secs {
				fmt.Fprintf(&b, "<h2>%s</h2>%s", template.HTMLEscapeString(sec.Title), sec.Body)
			}
			p.Summary = template.HTML(b.String()) // built from escaped titles and safe Markdown HTML
		}
	}
	return p, st, nil
}

// linkFilings links the accession numbers of a debate on a company to the
// filings on the SEC's site.
func linkFilings(st *debate.State, doc string) string {
	var o struct {
		CIK    string `json:"cik"`
		Listed *struct {
			CIK string `json:"cik"`
		} `json:"listed"`
	}
	if json.Unmarshal(st.Options, &o) != nil {
		return doc
	}
	if o.CIK == "" && o.Listed != nil {
		o.CIK = o.Listed.CIK
	}
	return linkAccessions(doc, o.CIK)
}

func rank(agent string) int {
	switch agent {
	case "bull":
		return 0
	case "bear":
		return 1
	}
	return 2
}

// turnLabel names a turn for its card: its phase and round.
func turnLabel(t *debate.Turn) string {
	label := t.Phase
	if label == "" {
		label = t.ID
	}
	if t.Round > 0 {
		label += " · round " + strconv.Itoa(t.Round)
	}
	return label
}

// htmlType is the Content-Type of the pages.
const htmlType = "text/html; charset=utf-8"

func (s *Server) pageDebate(w http.ResponseWriter, r *http.Request) {
	if s.head(w, r, r.PathValue("id"), false, s.pageError, htmlType) {
		return
	}
	p, _, err := s.buildPanel(r.Context(), r.PathValue("id"))
	if err != nil {
		s.pageError(w, err)
		return
	}
	s.render(w, "debate.html", map[string]any{"Title": app.Truncate(textsafe.Clean(p.V.Topic), 60), "P": p})
}

func (s *Server) pagePanel(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if s.head(w, r, r.PathValue("id"), false, s.pageError, htmlType) {
		return
	}
	p, _, err := s.buildPanel(r.Context(), r.PathValue("id"))
	if err != nil {
		s.pageError(w, err)
		return
	}
	s.render(w, "panel.html", p)
}

func (s *Server) pageReport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if s.head(w, r, id, true, s.pageError, htmlType) {
		return
	}
	st, err := s.state(r.Context(), id)
	if err != nil {
		s.pageError(w, err)
		return
	}
	format, err := s.app.Formats.Get(st.Format)
	if err != nil {
		s.pageError(w, err)
		return
	}
	doc, err := app.RenderDoc(format, s.app.AsShown(r.Context(), st), false)
	if err != nil {
		s.pageError(w, err)
		return
	}
	title, lead, secs := s.md.sections(linkFilings(st, doc))
	if title == "" {
		title = textsafe.Clean(st.Topic)
	}
	s.render(w, "report.html", map[string]any{"Title": title, "ID": id, "Lead": lead, "Sections": secs})
}

// action handles the debate page's forms (checkpoint, hint, pause,
// resume): the same operations as the API, answered with a redirect back
// to the page, or the page with the error.
func (s *Server) action(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	switch r.PathValue("action") {
	case "checkpoint", "hints", "pause", "resume", "delete":
	default:
		// No such page: not a request that does not fit the debate's
		// state (409).
		s.notFound(w)
		return
	}
	if err := readForm(r); err != nil {
		s.pageError(w, err)
		return
	}
	f := r.PostForm
	var err error
	switch r.PathValue("action") {
	case "checkpoint":
		err = s.answer(r.Context(), id, CheckpointRequest{ID: f.Get("checkpoint"), Action: f.Get("action"), Guidance: f.Get("guidance")})
	case "hints":
		_, err = s.hint(r.Context(), id, HintRequest{Target: f.Get("target"), Text: f.Get("text")})
	case "pause":
		err = s.pause(r.Context(), id)
	case "resume":
		err = s.resume(r.Context(), id, nil)
	case "delete":
		// The form's box must be ticked (the browser asks for it, with no
		// script): a log deleted cannot be recovered.
		if f.Get("confirm") != "yes" {
			err = &setup.InputError{Err: errors.New("nothing deleted: tick the box that says the log cannot be recovered, then press Delete")}
			break
		}
		if err = s.delete(r.Context(), id); err == nil {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
	}
	if err != nil {
		s.pageError(w, err)
		return
	}
	http.Redirect(w, r, "/debates/"+id, http.StatusSeeOther)
}

func (s *Server) pageLogin(w http.ResponseWriter, r *http.Request) {
	s.render(w, "login.html", map[string]any{"Title": "Sign in"})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		// A form over MaxBody (or not a form): a token is never that
		// long, and "not this server's" would send the user to check a
		// token they never got to send.
		code, msg := http.StatusBadRequest, "The form could not be read: sign in from this page."
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			code, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("The form is over %d bytes: paste the server's token alone.", MaxBody)
		}
		w.WriteHeader(code)
		s.render(w, "login.html", map[string]any{"Title": "Sign in", "Error": msg})
		return
	}
	if s.cfg.Token == "" || !s.tokenOK(r.PostForm.Get("token")) {
		if !s.guesses.Allow() {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			s.render(w, "login.html", map[string]any{"Title": "Sign in", "Error": "Too many wrong tokens were sent: wait a moment, then sign in with the server's token."})
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login.html", map[string]any{"Title": "Sign in", "Error": "That token is not this server's."})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: r.PostForm.Get("token"), Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
