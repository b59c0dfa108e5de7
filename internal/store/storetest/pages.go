package storetest

import (
	"math"
	"slices"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
)

// pageDebates are the debates of the paging and counting tests: ties in
// Created (three at at(10), two at at(20)) broken by ID, IDs whose byte
// order differs from a locale's ("B" before "a"), every stored status, and
// spend in the summaries that Count sums.
func pageDebates(t *testing.T) [][]debate.Event {
	mk := func(id, format string, when int, more ...debate.Payload) []debate.Event {
		evs := []debate.Event{created(t, id, format, "topic "+id, at(when))}
		for i, p := range more {
			evs = append(evs, Event(t, id, at(when+i+1), p))
		}
		for i := range evs {
			evs[i] = stored(evs[i], id, int64(i+1))
		}
		return evs
	}
	turn := func(id string, cost float64) debate.Payload {
		return debate.TurnCompleted{Turn: debate.TurnRef{ID: id, Agent: "bull", Round: 1}, Text: "x", Model: "anthropic/claude-sonnet-4-5", CostUSD: cost, Priced: true}
	}
	return [][]debate.Event{
		mk("a", "council", 10, turn("t1", 0.25), debate.Completed{}),
		mk("B", "council", 10, turn("t1", 0.5), turn("t2", 0.125)),
		mk("c", "bullbear", 10, debate.Paused{Reason: debate.PauseBudget}),
		mk("d", "bullbear", 20, debate.Queued{Queue: "data", Reason: debate.QueuedCreated}),
		mk("e", "council", 20, turn("t1", 1), debate.Failed{Error: "x"}),
		mk("f", "council", 5, debate.CheckpointReached{ID: "c1", Round: 1, Options: []string{debate.ActionContinue}}),
		mk("g", "bullbear", 30, turn("t1", 0.0625), debate.Completed{}),
		mk("h", "council", 1),
	}
}

func (s suite) seedPages(t *testing.T) debate.Store {
	st := s.open(t)
	for _, evs := range pageDebates(t) {
		mustAppend(t, st, evs[0].Debate, evs...)
	}
	return st
}

func ids(sums []debate.Summary) []string {
	out := []string{}
	for _, s := range sums {
		out = append(out, s.ID)
	}
	return out
}

// testListPages: a list walked page by page with ListFilter.After is the
// list in one go, for every page size and filter, ties included; a page
// after a debate deleted since, or with debates created since, goes on
// where the last one ended.
func (s suite) testListPages(t *testing.T) {
	st := s.seedPages(t)
	s.checkPages(t, st)
	ctx := t.Context()

	// The position of "B" (at(10)) once it is gone: "a" (at(10), a
	// greater ID: sorts before it) is left out, as are the newer ones.
	all, err := st.List(ctx, debate.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(all, func(s debate.Summary) bool { return s.ID == "B" })
	if i < 0 {
		t.Fatalf("List = %v: no B", ids(all))
	}
	pos := debate.PositionOf(all[i])
	if err := st.Delete(ctx, "B"); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, st, "z", created(t, "z", "council", "newest", at(99)))
	got, err := st.List(ctx, debate.ListFilter{After: &pos})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"f", "h"}; !slices.Equal(ids(got), want) {
		t.Errorf("List after B's position, B deleted and z created since = %v, want %v", ids(got), want)
	}
}

// checkPages walks st's list in pages for several filters and sizes.
func (s suite) checkPages(t *testing.T, st debate.Store) {
	t.Helper()
	ctx := t.Context()
	for _, c := range []struct {
		f    debate.ListFilter
		want []string
	}{
		{debate.ListFilter{}, []string{"g", "e", "d", "c", "a", "B", "f", "h"}},
		{debate.ListFilter{Format: "council"}, []string{"e", "a", "B", "f", "h"}},
		{debate.ListFilter{Status: debate.StatusRunning}, []string{"B", "h"}},
		{debate.ListFilter{Status: debate.StatusCompleted}, []string{"g", "a"}},
		{debate.ListFilter{Statuses: []debate.Status{debate.StatusRunning, debate.StatusQueued, debate.StatusCheckpoint}}, []string{"d", "B", "f", "h"}},
		{debate.ListFilter{Statuses: []debate.Status{debate.StatusPaused, debate.StatusFailed}, Format: "council"}, []string{"e"}},
		{debate.ListFilter{Statuses: []debate.Status{debate.StatusRunning}, Status: debate.StatusCompleted}, []string{}},
	} {
		whole, err := st.List(ctx, c.f)
		if err != nil {
			t.Fatalf("List(%+v): %v", c.f, err)
		}
		if !slices.Equal(ids(whole), c.want) {
			t.Errorf("List(%+v) = %v, want %v", c.f, ids(whole), c.want)
			continue
		}
		for size := 1; size <= 3; size++ {
			f := c.f
			f.Limit = size
			var walked []string
			for range len(c.want) + 2 {
				page, err := st.List(ctx, f)
				if err != nil {
					t.Fatalf("List(%+v): %v", f, err)
				}
				if len(page) > size {
					t.Fatalf("List(%+v) = %d debates, over the limit", f, len(page))
				}
				walked = append(walked, ids(page)...)
				if len(page) < size {
					break
				}
				pos := debate.PositionOf(page[len(page)-1])
				f.After = &pos
			}
			if !slices.Equal(walked, c.want) {
				t.Errorf("List(%+v) in pages of %d = %v, want %v", c.f, size, walked, c.want)
			}
		}
	}
}

// testCount: Count groups the debates by stored status and format, in
// that order, with their turns and costs summed; an empty store has no
// group.
func (s suite) testCount(t *testing.T) {
	empty := s.open(t)
	if got, err := empty.Count(t.Context()); err != nil || len(got) != 0 {
		t.Errorf("Count of an empty store = %+v, %v; want no group", got, err)
	}
	s.checkCount(t, s.seedPages(t))
}

func (s suite) checkCount(t *testing.T, st debate.Store) {
	t.Helper()
	got, err := st.Count(t.Context())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	want := []debate.Count{
		{Status: debate.StatusCheckpoint, Format: "council", Debates: 1},
		{Status: debate.StatusCompleted, Format: "bullbear", Debates: 1, Turns: 1, CostUSD: 0.0625},
		{Status: debate.StatusCompleted, Format: "council", Debates: 1, Turns: 1, CostUSD: 0.25},
		{Status: debate.StatusFailed, Format: "council", Debates: 1, Turns: 1, CostUSD: 1},
		{Status: debate.StatusPaused, Format: "bullbear", Debates: 1},
		{Status: debate.StatusQueued, Format: "bullbear", Debates: 1},
		{Status: debate.StatusRunning, Format: "council", Debates: 2, Turns: 2, CostUSD: 0.625},
	}
	if len(got) != len(want) {
		t.Fatalf("Count = %+v, want %+v", got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Abs(g.CostUSD-w.CostUSD) > 1e-9 {
			t.Errorf("Count group %d: cost %v, want %v", i, g.CostUSD, w.CostUSD)
		}
		g.CostUSD, w.CostUSD = 0, 0
		if g != w {
			t.Errorf("Count group %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// testPagesUpgraded: a database of the schema version before the latest,
// migrated, is listed by status and in pages, and counted, as a new one.
func (s suite) testPagesUpgraded(t *testing.T) {
	if s.cfg.upgrade == nil {
		t.Skip("the store has no schema versions")
	}
	st := s.cfg.upgrade(t, pageDebates(t)...)
	defer st.Close()
	s.checkPages(t, st)
	s.checkCount(t, st)
}
