package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// List shows and filters each debate by the status to show: queued for a
// run that waits for a worker (in the log) and for a debate whose job's
// worker died; interrupted for one whose terminal runner is gone; running
// while a live runner holds it. A limit counts the debates that pass the
// filter, not those stored.
func TestListShownStatuses(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	at := time.Now().Add(-time.Hour)
	mk := func(id string, ps ...debate.Payload) {
		t.Helper()
		ps = append([]debate.Payload{debate.Created{Format: "bullbear", Topic: id}}, ps...)
		for _, p := range ps {
			at = at.Add(time.Second)
			e, err := debate.NewEvent(id, at, p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Store.Append(ctx, id, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	lease := func(id string, o debate.LeaseOwner, ttl time.Duration) {
		t.Helper()
		if _, err := a.Store.AcquireLease(ctx, id, o, ttl, ""); err != nil {
			t.Fatal(err)
		}
	}
	queued := debate.Queued{Queue: "data", Reason: debate.QueuedCreated}
	phase := debate.PhaseChanged{Phase: "opening", Label: "Opening"}
	mk("q1", queued)
	mk("term", phase)
	lease("term", debate.ThisProcess(), time.Nanosecond) // its terminal is gone
	mk("q2", queued)
	mk("dead", queued, phase)
	lease("dead", debate.JobOwner(5), time.Nanosecond) // its worker is gone
	mk("run", queued, phase)
	lease("run", debate.JobOwner(6), time.Hour)
	mk("prep", queued)
	lease("prep", debate.JobOwner(7), time.Hour) // a worker prepares its run
	mk("done", queued, phase, debate.Completed{})
	time.Sleep(time.Millisecond) // the leases of a nanosecond lapse

	ids := func(sums []debate.Summary) []string {
		var out []string
		for _, s := range sums {
			out = append(out, s.ID+"="+string(s.Status))
		}
		return out
	}
	for _, tc := range []struct {
		f    ListFilter
		want []string
	}{
		{ListFilter{}, []string{"done=completed", "prep=running", "run=running", "dead=queued", "q2=queued", "term=interrupted", "q1=queued"}},
		{ListFilter{Status: debate.StatusQueued}, []string{"dead=queued", "q2=queued", "q1=queued"}},
		{ListFilter{Status: debate.StatusQueued, Limit: 2}, []string{"dead=queued", "q2=queued"}},
		{ListFilter{Status: debate.StatusInterrupted}, []string{"term=interrupted"}},
		{ListFilter{Status: debate.StatusRunning}, []string{"prep=running", "run=running"}},
		{ListFilter{Status: debate.StatusCompleted}, []string{"done=completed"}},
		{ListFilter{Limit: 3}, []string{"done=completed", "prep=running", "run=running"}},
		{ListFilter{Status: "nonsense"}, nil},
	} {
		got, err := a.List(ctx, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(got), tc.want) {
			t.Errorf("List(%+v) = %v, want %v", tc.f, ids(got), tc.want)
		}
	}
	st, _, err := a.Load(ctx, "q1")
	if err != nil {
		t.Fatal(err)
	}
	if sd := a.Standing(ctx, st); sd.Shown != debate.StatusQueued || sd.Status != "queued (waiting for a worker to take it up)" || sd.Held != nil {
		t.Errorf("standing of a queued debate: %+v", sd)
	}
	st, _, err = a.Load(ctx, "prep")
	if err != nil {
		t.Fatal(err)
	}
	if sd := a.Standing(ctx, st); sd.Shown != debate.StatusRunning || sd.Status != "running" || sd.Held == nil {
		t.Errorf("standing of a queued debate a worker has taken up: %+v", sd)
	}
}

// A list filtered by a status the lease decides is walked in pages with
// cursors, past batches of debates that do not show it: 300 running
// debates newer than the 10 interrupted ones.
func TestListPagesByShownStatus(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	at := time.Now().Add(-time.Hour)
	owner := debate.LeaseOwner{ID: "far", Host: "elsewhere", PID: 1, Started: at}
	var interrupted []string
	for i := range 310 {
		id := fmt.Sprintf("int-%03d", i)
		if i >= 10 {
			id = fmt.Sprintf("run-%03d", i)
		}
		e, _ := debate.NewEvent(id, at.Add(time.Duration(i)*time.Second), debate.Created{Format: "bullbear", Topic: id})
		if _, err := a.Store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
		if i >= 10 {
			if _, err := a.Store.AcquireLease(ctx, id, owner, time.Hour, ""); err != nil {
				t.Fatal(err)
			}
		} else {
			interrupted = append([]string{id}, interrupted...)
		}
	}
	for _, limit := range []int{1, 3, 4, 10, 11} {
		var walked []string
		f := ListFilter{Status: debate.StatusInterrupted, Limit: limit}
		for range 12 {
			page, err := a.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page {
				walked = append(walked, s.ID)
			}
			if len(page) < limit {
				break
			}
			// Through the cursor's text, as a client passes it back.
			if f.After, err = ParseCursor(Cursor(page[len(page)-1])); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(walked, interrupted) {
			t.Errorf("interrupted debates in pages of %d: %v, want %v", limit, walked, interrupted)
		}
	}
	if got, err := a.List(ctx, ListFilter{Status: debate.StatusRunning, Limit: 250}); err != nil || len(got) != 250 || got[0].ID != "run-309" || got[249].ID != "run-060" {
		t.Errorf("the 250 newest running: %d, %v", len(got), err)
	}
}

func TestParseCursor(t *testing.T) {
	s := debate.Summary{ID: "DEB-00000001", Created: time.Date(2026, 1, 2, 3, 4, 5, 6789, time.FixedZone("x", 3600))}
	p, err := ParseCursor(Cursor(s))
	if err != nil || p.ID != s.ID || !p.Created.Equal(s.Created) {
		t.Errorf("ParseCursor(Cursor(s)) = %+v, %v", p, err)
	}
	for _, c := range []string{"", "%%%", "bm9wZQ", base64.RawURLEncoding.EncodeToString([]byte("2026-01-02T03:04:05Z ")),
		base64.RawURLEncoding.EncodeToString([]byte("yesterday DEB-1")), strings.Repeat("A", 1000),
		base64.RawURLEncoding.EncodeToString([]byte("2026-01-02T03:04:05Z DEB\x00x")), base64.RawURLEncoding.EncodeToString([]byte("2026-01-02T03:04:05Z DEB\x1b[2J"))} {
		if _, err := ParseCursor(c); err == nil || !strings.Contains(err.Error(), "is not one this server gave") {
			t.Errorf("ParseCursor(%.20q) = %v, want an error saying what to pass", c, err)
		}
	}
}
