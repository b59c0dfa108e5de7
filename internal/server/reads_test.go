package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

// logReads is a store that counts the reads of debates' logs (Load,
// LoadN, Subscribe): what a request costs for a long debate, or for every
// debate of a database.
type logReads struct {
	debate.Store
	n atomic.Int64
}

func (s *logReads) Load(ctx context.Context, id string, after int64) ([]debate.Event, error) {
	s.n.Add(1)
	return s.Store.Load(ctx, id, after)
}

func (s *logReads) LoadN(ctx context.Context, id string, after int64, n int) ([]debate.Event, error) {
	s.n.Add(1)
	return s.Store.LoadN(ctx, id, after, n)
}

func (s *logReads) Subscribe(ctx context.Context, id string, after int64) iter.Seq2[debate.Event, error] {
	s.n.Add(1)
	return s.Store.Subscribe(ctx, id, after)
}

// TestStatusFiltersReadNoLogs: a list filtered by status, those a lease
// decides (running, interrupted, queued) included, is read from the
// debates' summaries, a page at a time, never from their logs, and its
// pages walked by their cursors list every debate that shows the status
// once.
func TestStatusFiltersReadNoLogs(t *testing.T) {
	store := &logReads{Store: memstore.New()}
	ts := newTestServerOn(t, store, nil, "")
	ctx := t.Context()
	const interrupted, running, completed = 2*apiListLimit + 7, 5, 2 * apiListLimit
	// The completed debates are every other one of the older, among the
	// others.
	done := func(i int) bool { return i%2 == 0 && i/2 < completed }
	owner := debate.LeaseOwner{ID: "elsewhere-runner", Host: "elsewhere", PID: 1, Started: time.Now()}
	for i := range interrupted + running + completed {
		id := fmt.Sprintf("DEB-%08x", i+1)
		ps := []debate.Payload{debate.Created{Format: "perspectives", Topic: "t", Limits: debate.DefaultLimits()}}
		if done(i) {
			ps = append(ps, debate.Completed{})
		}
		for _, p := range ps {
			e, err := debate.NewEvent(id, time.Unix(int64(1000+i), 0), p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Append(ctx, id, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Of the debates whose log says running, some are held by a live
	// runner (running), the rest by none (interrupted).
	held := 0
	for i := range interrupted + running + completed {
		if held == running {
			break
		}
		if done(i) {
			continue
		}
		if _, err := store.AcquireLease(ctx, fmt.Sprintf("DEB-%08x", i+1), owner, time.Hour, ""); err != nil {
			t.Fatal(err)
		}
		held++
	}
	before := store.n.Load()
	for _, c := range []struct {
		status string
		want   int
	}{{"interrupted", interrupted}, {"running", running}, {"completed", completed}, {"queued", 0}, {"", interrupted + running + completed}} {
		seen := map[string]bool{}
		path := "/api/debates?status=" + c.status
		for pages := 0; path != ""; pages++ {
			if pages > c.want/apiListLimit+1 {
				t.Fatalf("status=%s: more than %d pages", c.status, pages)
			}
			resp, out := ts.do(t, "GET", path, "")
			var got struct {
				Debates []debate.Summary
				Next    string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d %v %.200s", path, resp.StatusCode, err, out)
			}
			if len(got.Debates) > apiListLimit {
				t.Errorf("GET %s: %d debates on a page, want at most %d", path, len(got.Debates), apiListLimit)
			}
			for _, d := range got.Debates {
				if c.status != "" && string(d.Status) != c.status || seen[d.ID] {
					t.Errorf("GET %s: %s shows %s (seen before: %v)", path, d.ID, d.Status, seen[d.ID])
				}
				seen[d.ID] = true
			}
			path = ""
			if got.Next != "" {
				path = "/api/debates?status=" + c.status + "&cursor=" + got.Next
			}
		}
		if len(seen) != c.want {
			t.Errorf("status=%s: the pages list %d debates, want %d", c.status, len(seen), c.want)
		}
	}
	if n := store.n.Load() - before; n != 0 {
		t.Errorf("listing by status read %d debates' logs, want none", n)
	}
}

// TestHeadReadsNoLog: HEAD of every route that renders a debate (its JSON,
// its pages, its exports, its events) answers the status and headers a GET
// has, with no body, from the debate's summary: without reading its log,
// so without laying out a PDF. A debate that is not there, or an export
// asked for in no format, is refused as a GET is.
func TestHeadReadsNoLog(t *testing.T) {
	store := &logReads{Store: memstore.New()}
	ts := newTestServerOn(t, store, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	// The run lets go of the debate after its log says completed: its
	// reads are not the requests'.
	for deadline := time.Now().Add(10 * time.Second); ts.runs.get(id) != nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the run never ended")
		}
	}
	paths := []string{"/api/debates/" + id, "/api/debates/" + id + "/export", "/api/debates/" + id + "/export?as=json",
		"/api/debates/" + id + "/export?as=pdf", "/api/debates/" + id + "/export?as=pdf&summary=true", "/api/debates/" + id + "/events",
		"/debates/" + id, "/debates/" + id + "/panel", "/debates/" + id + "/report"}
	for _, path := range paths {
		// HEAD first: the PDF is not in the server's cache yet.
		before := store.n.Load()
		head, body := ts.do(t, "HEAD", path, "")
		reads := store.n.Load() - before
		get, _ := ts.do(t, "GET", path, "")
		if head.StatusCode != http.StatusOK || get.StatusCode != http.StatusOK || body != "" {
			t.Errorf("HEAD %s: %d with %d bytes of body (GET: %d), want 200 and none", path, head.StatusCode, len(body), get.StatusCode)
		}
		for _, h := range []string{"Content-Type", "Content-Disposition", "Cache-Control"} {
			if head.Header.Get(h) != get.Header.Get(h) {
				t.Errorf("HEAD %s: %s %q, GET's is %q", path, h, head.Header.Get(h), get.Header.Get(h))
			}
		}
		if reads != 0 {
			t.Errorf("HEAD %s read the debate's log %d times, want none", path, reads)
		}
	}
	for _, path := range append(paths, "/api/debates/"+id+"/export?as=docx", "/api/debates/"+id+"/export?summary=yes") {
		if strings.HasSuffix(path, "/events") {
			continue // a debate that is not there is answered before the stream
		}
		for _, p := range []string{strings.ReplaceAll(path, id, "DEB-00000000"), path} {
			if p == path && !strings.Contains(p, "docx") && !strings.Contains(p, "=yes") {
				continue
			}
			head, body := ts.do(t, "HEAD", p, "")
			get, _ := ts.do(t, "GET", p, "")
			if head.StatusCode != get.StatusCode || head.StatusCode < 400 || body != "" || head.Header.Get("Content-Disposition") != "" {
				t.Errorf("HEAD %s: %d with %d bytes of body, Content-Disposition %q; GET: %d", p, head.StatusCode, len(body), head.Header.Get("Content-Disposition"), get.StatusCode)
			}
		}
	}
}

// idsAsked is a store that records the debate ids it is asked about.
type idsAsked struct {
	debate.Store
	mu  sync.Mutex
	ids []string
}

func (s *idsAsked) ask(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, id)
}

func (s *idsAsked) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ids)
}

func (s *idsAsked) Get(ctx context.Context, id string) (debate.Summary, error) {
	s.ask(id)
	return s.Store.Get(ctx, id)
}

func (s *idsAsked) Load(ctx context.Context, id string, after int64) ([]debate.Event, error) {
	s.ask(id)
	return s.Store.Load(ctx, id, after)
}

func (s *idsAsked) LoadN(ctx context.Context, id string, after int64, n int) ([]debate.Event, error) {
	s.ask(id)
	return s.Store.LoadN(ctx, id, after, n)
}

func (s *idsAsked) Delete(ctx context.Context, id string) error {
	s.ask(id)
	return s.Store.Delete(ctx, id)
}

// TestUnstorableIDsAreNotFound: an id in a path that no debate can have
// (NUL, another control character, bytes that are not UTF-8, a kilobyte of
// it) is answered 404 on every debate path, API and pages, without asking
// the store: PostgreSQL refuses such text ("invalid byte sequence for
// encoding UTF8"), which was answered 500 with the database's error; a
// list cursor holding such an id is refused (400). On PostgreSQL itself
// too, when PARLEY_TEST_POSTGRES is set.
func TestUnstorableIDsAreNotFound(t *testing.T) {
	stores := map[string]func(t *testing.T) debate.Store{"memory": func(*testing.T) debate.Store { return memstore.New() }}
	if os.Getenv(pgtest.EnvVar) != "" || os.Getenv(pgtest.AltEnvVar) != "" {
		stores["postgres"] = func(t *testing.T) debate.Store {
			st, err := postgres.Open(t.Context(), pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			store := &idsAsked{Store: open(t)}
			ts := newTestServerOn(t, store, nil, "")
			for _, id := range []string{"%00", "DEB-%00abc", "%FF", "DEB-%C3%28", "DEB-%1B%5B2J", "DEB-%7F", strings.Repeat("DEB-", 300)} {
				for _, c := range [][3]string{{"GET", "/api/debates/" + id, ""}, {"HEAD", "/api/debates/" + id, ""}, {"DELETE", "/api/debates/" + id, ""},
					{"GET", "/api/debates/" + id + "/export?as=pdf", ""}, {"GET", "/api/debates/" + id + "/events", ""},
					{"POST", "/api/debates/" + id + "/pause", ""}, {"POST", "/api/debates/" + id + "/resume", ""},
					{"POST", "/api/debates/" + id + "/hints", `{"target":"bull","text":"x"}`}, {"POST", "/api/debates/" + id + "/checkpoint", `{"action":"continue"}`},
					{"GET", "/debates/" + id, ""}, {"GET", "/debates/" + id + "/panel", ""}, {"GET", "/debates/" + id + "/report", ""}, {"POST", "/debates/" + id + "/pause", ""}} {
					resp, out := ts.do(t, c[0], c[1], c[2])
					if resp.StatusCode != http.StatusNotFound || c[0] != "HEAD" && !strings.Contains(out, "o such debate") {
						t.Errorf("%s %.80s: %d %.200s; want 404, no such debate", c[0], c[1], resp.StatusCode, out)
					}
				}
			}
			// A cursor holds an id too.
			for _, id := range []string{"DEB\x00x", "DEB\x1b[2J"} {
				c := base64.RawURLEncoding.EncodeToString([]byte("2026-01-02T03:04:05Z " + id))
				if resp, out := ts.do(t, "GET", "/api/debates?cursor="+c, ""); resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "not one this server gave") {
					t.Errorf("a cursor after %q: %d %.200s; want 400", id, resp.StatusCode, out)
				}
			}
			if ids := store.asked(); len(ids) > 0 {
				t.Errorf("the store was asked about %d ids no debate can have, the first %.40q", len(ids), ids[0])
			}
		})
	}
}
