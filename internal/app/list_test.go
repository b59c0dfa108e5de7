package app

import (
	"context"
	"slices"
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
