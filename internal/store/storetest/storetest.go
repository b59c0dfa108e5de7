// Package storetest is the conformance suite every implementation of
// debate.Store runs, so that the engine can rely on one contract whatever keeps
// its logs.
//
// Beyond the points written on debate.Store, the suite pins down what the
// interface leaves implicit and the engine depends on:
//
//   - Append rejects a batch with an invalid event (no type, data that is not
//     JSON, an Event.Debate naming another debate) and stores none of it; a
//     cancelled context stores nothing either. Appending no events returns
//     the debate's last sequence number.
//   - Events round-trip exactly: Data byte for byte (no re-encoding), Time as
//     the same instant in UTC, to the nanosecond unless the store declares a
//     coarser TimePrecision. Callers may reuse the buffers they appended and
//     may modify what Load returned without affecting the store.
//   - Subscribe to an unknown debate yields debate.ErrNotFound and ends; a
//     subscription ends with an error when its store is closed.
//   - An id no debate can have (debate.ValidID: not UTF-8, a control
//     character such as NUL, over debate.MaxIDLen bytes) is refused on
//     creation with debate.ErrInvalidID and is ErrNotFound to every other
//     method, on every store alike (ids.go): PostgreSQL refuses such text
//     with its own error, which front-ends showed as an internal error.
//   - List orders by Summary.Created, newest first (not by last update).
//   - The lease (lease.go): granted, refused naming the holder, renewed,
//     released, stolen from a holder known dead, lapsed after its ttl, and
//     won by exactly one of many racing runners, across stores sharing a
//     database too.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Option declares a capability or property of the store under test.
type Option func(*config)

type config struct {
	shared    func(t *testing.T) (debate.Store, debate.Store)
	precision time.Duration
	reopen    func(t *testing.T) func(t *testing.T) debate.Store
	upgrade   func(t *testing.T, debates ...[]debate.Event) debate.Store
}

// Reopen declares that the store keeps its debates when closed:
// newDatabase makes a new, empty database and returns what opens a store on
// it, a new one at each call. Without this option the tests of a reopened
// store are skipped.
func Reopen(newDatabase func(t *testing.T) (open func(t *testing.T) debate.Store)) Option {
	return func(c *config) { c.reopen = newDatabase }
}

// Upgrade declares that the store migrates a database written at the
// schema version before its latest. seed makes a new database at that
// version, writes there the given debates' events (Debate and Seq set) and
// the projections of them that version wrote, as it wrote them, and
// returns the store under test opened on it, which migrates it. Without
// this option the upgrade test is skipped.
func Upgrade(seed func(t *testing.T, debates ...[]debate.Event) debate.Store) Option {
	return func(c *config) { c.upgrade = seed }
}

// SharedDatabase declares that two stores may be opened on one database and
// see each other's appends (two processes sharing a file, say). openPair
// returns two such stores on a new, empty database; the suite closes them.
// Without this option the cross-store tests are skipped.
func SharedDatabase(openPair func(t *testing.T) (a, b debate.Store)) Option {
	return func(c *config) { c.shared = openPair }
}

// TimePrecision declares that the store keeps event times to d (for instance
// time.Microsecond for PostgreSQL timestamptz) rather than to the nanosecond.
func TimePrecision(d time.Duration) Option {
	return func(c *config) { c.precision = d }
}

// waitLimit only keeps a broken Subscribe from hanging the test run; it is not
// a latency requirement.
const waitLimit = 20 * time.Second

// Run checks the store contract. open returns a new, empty store each time it
// is called; Run closes the stores it opens.
func Run(t *testing.T, open func(t *testing.T) debate.Store, opts ...Option) {
	cfg := config{precision: time.Nanosecond}
	for _, o := range opts {
		o(&cfg)
	}
	s := suite{cfg: cfg, open: func(t *testing.T) debate.Store {
		st := open(t)
		t.Cleanup(func() { _ = st.Close() })
		return st
	}}
	t.Run("CreatedFirst", s.testCreatedFirst)
	t.Run("UnstorableIDs", s.testUnstorableIDs)
	t.Run("Sequence", s.testSequence)
	t.Run("AtomicAppend", s.testAtomicAppend)
	t.Run("InvalidEvents", s.testInvalidEvents)
	t.Run("EmptyAppend", s.testEmptyAppend)
	t.Run("Load", s.testLoad)
	t.Run("LoadN", s.testLoadN)
	t.Run("RoundTrip", s.testRoundTrip)
	t.Run("BufferOwnership", s.testBufferOwnership)
	t.Run("SubscribeReplayThenTail", s.testSubscribeTail)
	t.Run("SubscribeEndsWithContext", s.testSubscribeEnds)
	t.Run("SubscribeStopEarly", s.testSubscribeStop)
	t.Run("SubscribeUnknown", s.testSubscribeUnknown)
	t.Run("SubscribeOtherStore", s.testSubscribeShared)
	t.Run("SubscribeAfterClose", s.testSubscribeClose)
	t.Run("ConcurrentOtherStore", s.testConcurrentShared)
	t.Run("GetProjection", s.testGet)
	t.Run("List", s.testList)
	t.Run("ListPages", s.testListPages)
	t.Run("Count", s.testCount)
	t.Run("PagesUpgraded", s.testPagesUpgraded)
	t.Run("Spend", s.testSpend)
	t.Run("SpendReopened", s.testSpendReopened)
	t.Run("SpendUpgraded", s.testSpendUpgraded)
	t.Run("Concurrent", s.testConcurrent)
	t.Run("Lease", s.testLease)
	t.Run("LeaseExpiry", s.testLeaseExpiry)
	t.Run("LeaseRace", s.testLeaseRace)
	t.Run("Delete", s.testDelete)
	t.Run("Close", s.testClose)
}

type suite struct {
	cfg  config
	open func(t *testing.T) debate.Store
}

// base is an arbitrary instant with a full nanosecond part, so that a store
// that rounds times shows it.
var base = time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.UTC)

func at(i int) time.Time { return base.Add(time.Duration(i) * time.Second) }

// Event is the event of payload p in debate id at time when, failing tb
// if p does not encode: the set-up of this suite's tests and of the
// stores' own.
func Event(tb testing.TB, id string, when time.Time, p debate.Payload) debate.Event {
	tb.Helper()
	e, err := debate.NewEvent(id, when, p)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

func created(t *testing.T, id, format, topic string, when time.Time) debate.Event {
	return Event(t, id, when, debate.Created{Format: format, Topic: topic, Limits: debate.DefaultLimits()})
}

func note(t *testing.T, id string, when time.Time, text string) debate.Event {
	return Event(t, id, when, debate.Note{Kind: "test", Text: text})
}

func mustAppend(t *testing.T, s debate.Store, id string, events ...debate.Event) int64 {
	t.Helper()
	last, err := s.Append(t.Context(), id, events...)
	if err != nil {
		t.Fatalf("Append(%q, %d events): %v", id, len(events), err)
	}
	return last
}

func mustLoad(t *testing.T, s debate.Store, id string, after int64) []debate.Event {
	t.Helper()
	evs, err := s.Load(t.Context(), id, after)
	if err != nil {
		t.Fatalf("Load(%q, %d): %v", id, after, err)
	}
	return evs
}

func seqs(evs []debate.Event) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.Seq
	}
	return out
}

func span(from, to int64) []int64 {
	var out []int64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// stored is what a store should give back for an appended event: the same
// event with its debate and sequence number, its time in UTC.
func stored(e debate.Event, id string, seq int64) debate.Event {
	e.Debate, e.Seq, e.Time = id, seq, e.Time.UTC()
	return e
}

// checkEvents compares loaded events to the expected ones, times to the
// store's precision and in UTC.
func (s suite) checkEvents(t *testing.T, got, want []debate.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d events (seqs %v), want %d (seqs %v)", len(got), seqs(got), len(want), seqs(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Time.Location() != time.UTC {
			t.Errorf("event %d: time %v is in %v, want UTC", g.Seq, g.Time, g.Time.Location())
		}
		if d := g.Time.Sub(w.Time).Abs(); d >= s.cfg.precision {
			t.Errorf("event %d: time %v, want %v (precision %v)", g.Seq, g.Time.Format(time.RFC3339Nano), w.Time.Format(time.RFC3339Nano), s.cfg.precision)
		}
		g.Time, w.Time = time.Time{}, time.Time{}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("event %d differs (-want +got):\n%s", w.Seq, diff)
		}
	}
}

// fold is the reference projection: what Get must return after events.
func fold(evs []debate.Event) debate.Summary {
	var sum debate.Summary
	for _, e := range evs {
		debate.Project(&sum, e)
	}
	return sum
}

func (s suite) checkSummary(t *testing.T, got, want debate.Summary) {
	t.Helper()
	if !got.Created.Equal(want.Created) && got.Created.Sub(want.Created).Abs() >= s.cfg.precision {
		t.Errorf("summary %s: Created %v, want %v", want.ID, got.Created, want.Created)
	}
	if !got.Updated.Equal(want.Updated) && got.Updated.Sub(want.Updated).Abs() >= s.cfg.precision {
		t.Errorf("summary %s: Updated %v, want %v", want.ID, got.Updated, want.Updated)
	}
	got.Created, got.Updated, want.Created, want.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary differs (-want +got):\n%s", diff)
	}
}

func (s suite) testCreatedFirst(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id = "d1"

	_, err := st.Append(ctx, id, note(t, id, at(0), "too early"))
	if !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Append of a non-created event to an unknown debate: err = %v, want ErrNotFound", err)
	}
	if _, err := st.Get(ctx, id); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Get of an unknown debate: err = %v, want ErrNotFound", err)
	}
	if _, err := st.Load(ctx, id, 0); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Load of an unknown debate: err = %v, want ErrNotFound", err)
	}

	if last := mustAppend(t, st, id, created(t, id, "bullbear", "topic", at(1))); last != 1 {
		t.Fatalf("first Append returned seq %d, want 1", last)
	}
	_, err = st.Append(ctx, id, created(t, id, "bullbear", "topic", at(2)))
	if !errors.Is(err, debate.ErrExists) {
		t.Fatalf("second created event: err = %v, want ErrExists", err)
	}
	_, err = st.Append(ctx, id, note(t, id, at(3), "fine"), created(t, id, "bullbear", "topic", at(3)))
	if !errors.Is(err, debate.ErrExists) {
		t.Fatalf("batch with a created event for an existing debate: err = %v, want ErrExists", err)
	}
	if got := seqs(mustLoad(t, st, id, 0)); !slices.Equal(got, []int64{1}) {
		t.Fatalf("after rejected appends the log holds seqs %v, want [1]", got)
	}

	// A new debate whose batch carries a second created event is refused
	// whole: neither the log nor the projection may keep a trace of it.
	const id2 = "d2"
	_, err = st.Append(ctx, id2, created(t, id2, "council", "t", at(4)), note(t, id2, at(4), "x"), created(t, id2, "council", "t", at(4)))
	if !errors.Is(err, debate.ErrExists) {
		t.Fatalf("new debate with two created events: err = %v, want ErrExists", err)
	}
	if _, err := st.Get(ctx, id2); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Get after a refused creation: err = %v, want ErrNotFound", err)
	}
	if _, err := st.Load(ctx, id2, 0); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Load after a refused creation: err = %v, want ErrNotFound", err)
	}
	// And the debate can still be created properly afterwards.
	if last := mustAppend(t, st, id2, created(t, id2, "council", "t", at(5)), note(t, id2, at(5), "x")); last != 2 {
		t.Fatalf("creating batch returned seq %d, want 2", last)
	}
}

func (s suite) testSequence(t *testing.T) {
	st := s.open(t)
	const a, b = "a", "b"
	var want []debate.Event
	add := func(evs ...debate.Event) int64 {
		t.Helper()
		last := mustAppend(t, st, a, evs...)
		for _, e := range evs {
			want = append(want, stored(e, a, int64(len(want)+1)))
		}
		if last != int64(len(want)) {
			t.Fatalf("Append returned seq %d, want %d", last, len(want))
		}
		return last
	}
	add(created(t, a, "bullbear", "seq", at(0)))
	add(note(t, a, at(1), "one"), note(t, a, at(2), "two"), note(t, a, at(3), "three"))
	// Seq and Debate given by the caller are the store's to set; an empty
	// Debate is filled in.
	e := note(t, a, at(4), "four")
	e.Seq, e.Debate = 99, ""
	add(e)
	if last := mustAppend(t, st, b, created(t, b, "council", "other", at(5))); last != 1 {
		t.Fatalf("first event of a second debate got seq %d, want 1 (sequences are per debate)", last)
	}
	add(note(t, a, at(6), "five"))
	s.checkEvents(t, mustLoad(t, st, a, 0), want)
}

func (s suite) testAtomicAppend(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id = "atomic"
	mustAppend(t, st, id, created(t, id, "formal", "atomic", at(0)), note(t, id, at(1), "kept"))
	before, err := st.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}

	bad := note(t, id, at(2), "bad")
	bad.Data = json.RawMessage(`{"kind":`)
	_, err = st.Append(ctx, id, note(t, id, at(2), "a"), Event(t, id, at(2), debate.TurnCompleted{Text: "lost"}), bad)
	if err == nil {
		t.Fatal("Append of a batch whose last event is not JSON succeeded")
	}
	if got := seqs(mustLoad(t, st, id, 0)); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("after a failed batch the log holds seqs %v, want [1 2]", got)
	}
	after, err := st.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	s.checkSummary(t, after, before)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = st.Append(cctx, id, note(t, id, at(3), "cancelled"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Append with a cancelled context: err = %v, want context.Canceled", err)
	}
	if got := seqs(mustLoad(t, st, id, 0)); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("after a cancelled append the log holds seqs %v, want [1 2]", got)
	}
	if last := mustAppend(t, st, id, note(t, id, at(4), "next")); last != 3 {
		t.Fatalf("append after failures got seq %d, want 3 (no gap)", last)
	}
}

func (s suite) testInvalidEvents(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id = "inv"
	mustAppend(t, st, id, created(t, id, "crux", "inv", at(0)))

	noType := note(t, id, at(1), "x")
	noType.Type = ""
	other := note(t, id, at(1), "x")
	other.Debate = "someone-else"
	empty := note(t, id, at(1), "x")
	empty.Data = nil
	badTurn := note(t, id, at(1), "x")
	badTurn.Type = debate.TypeTurnCompleted
	badTurn.Data = json.RawMessage(`{"turn":"not an object"}`)
	cases := map[string]debate.Event{
		"no type":                      noType,
		"other debate":                 other,
		"no data":                      empty,
		"turn.completed not decodable": badTurn,
	}
	for name, e := range cases {
		if _, err := st.Append(ctx, id, e); err == nil {
			t.Errorf("Append of an event with %s succeeded", name)
		}
	}
	if _, err := st.Append(ctx, "", created(t, "", "crux", "x", at(1))); err == nil {
		t.Error("Append with an empty debate id succeeded")
	}
	if got := seqs(mustLoad(t, st, id, 0)); !slices.Equal(got, []int64{1}) {
		t.Fatalf("after invalid appends the log holds seqs %v, want [1]", got)
	}
}

func (s suite) testEmptyAppend(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	if _, err := st.Append(ctx, "nobody"); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("empty Append to an unknown debate: err = %v, want ErrNotFound", err)
	}
	const id = "e"
	mustAppend(t, st, id, created(t, id, "bullbear", "e", at(0)), note(t, id, at(1), "x"))
	if last := mustAppend(t, st, id); last != 2 {
		t.Fatalf("empty Append returned %d, want the last seq 2", last)
	}
}

func (s suite) testLoad(t *testing.T) {
	st := s.open(t)
	const id = "load"
	mustAppend(t, st, id, created(t, id, "bullbear", "load", at(0)))
	for i := range 9 {
		mustAppend(t, st, id, note(t, id, at(i+1), fmt.Sprint(i)))
	}
	for _, c := range []struct {
		after int64
		want  []int64
	}{
		{-1, span(1, 10)},
		{0, span(1, 10)},
		{1, span(2, 10)},
		{7, span(8, 10)},
		{10, nil},
		{15, nil},
	} {
		if got := seqs(mustLoad(t, st, id, c.after)); !slices.Equal(got, c.want) {
			t.Errorf("Load after %d: seqs %v, want %v", c.after, got, c.want)
		}
	}
}

// testLoadN: LoadN is Load cut after n events; n <= 0 is all of them, and
// an unknown debate is ErrNotFound.
func (s suite) testLoadN(t *testing.T) {
	ctx := context.Background()
	st := s.open(t)
	const id = "loadn"
	first := created(t, id, "bullbear", "loadn", at(0))
	mustAppend(t, st, id, first)
	for i := range 9 {
		mustAppend(t, st, id, note(t, id, at(i+1), fmt.Sprint(i)))
	}
	for _, c := range []struct {
		after int64
		n     int
		want  []int64
	}{
		{0, 1, span(1, 1)},
		{0, 3, span(1, 3)},
		{-1, 2, span(1, 2)},
		{4, 2, span(5, 6)},
		{8, 5, span(9, 10)},
		{10, 1, nil},
		{0, 0, span(1, 10)},
		{3, -1, span(4, 10)},
	} {
		got, err := st.LoadN(ctx, id, c.after, c.n)
		if err != nil {
			t.Fatalf("LoadN after %d, %d: %v", c.after, c.n, err)
		}
		if !slices.Equal(seqs(got), c.want) {
			t.Errorf("LoadN after %d, %d: seqs %v, want %v", c.after, c.n, seqs(got), c.want)
		}
	}
	got, err := st.LoadN(ctx, id, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.checkEvents(t, got, []debate.Event{stored(first, id, 1)})
	if _, err := st.LoadN(ctx, "loadn-unknown", 0, 1); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("LoadN of an unknown debate: %v, want ErrNotFound", err)
	}
}

func (s suite) testRoundTrip(t *testing.T) {
	st := s.open(t)
	const id = "rt"
	// Data must come back byte for byte: odd spacing, key order, escapes,
	// non-ASCII text and numbers that do not fit a float all survive only if
	// the store does not re-encode.
	datas := []string{
		`{"format":"bullbear","topic":"caf\u00e9 \"quoted\" – ünïcode ✓","limits":{}}`,
		`{ "z" : 1,"a":[1 , 2,3],  "n": null }`,
		`{"big":123456789012345678901234567890,"tiny":1e-400,"neg":-0.0}`,
		`"just a string"`,
		`[]`,
		`{"text":"line1\nline2\ttab \u0000 nul","emoji":"😀"}`,
	}
	times := []time.Time{
		base,
		time.Date(2030, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2024, 2, 29, 12, 0, 0, 1000, time.FixedZone("UTC+5:30", 5*3600+1800)),
		time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Now(), // carries a monotonic reading and the local zone
		time.Date(2025, 6, 1, 0, 0, 0, 500, time.UTC),
	}
	var in, want []debate.Event
	for i, d := range datas {
		typ := "format.test.raw"
		if i == 0 {
			typ = debate.TypeCreated
		}
		e := debate.Event{Debate: id, Time: times[i], Type: typ, Data: json.RawMessage(d)}
		in = append(in, e)
		want = append(want, stored(e, id, int64(i+1)))
	}
	mustAppend(t, st, id, in[:2]...)
	for _, e := range in[2:] {
		mustAppend(t, st, id, e)
	}
	s.checkEvents(t, mustLoad(t, st, id, 0), want)
}

func (s suite) testBufferOwnership(t *testing.T) {
	st := s.open(t)
	const id = "own"
	e := created(t, id, "bullbear", "own", at(0))
	data := e.Data
	mustAppend(t, st, id, e)
	for i := range data {
		data[i] = 'x' // the caller reuses its buffer
	}
	got := mustLoad(t, st, id, 0)
	want := created(t, id, "bullbear", "own", at(0))
	if string(got[0].Data) != string(want.Data) {
		t.Fatalf("stored data changed with the caller's buffer: %s", got[0].Data)
	}
	for i := range got[0].Data {
		got[0].Data[i] = 'y' // the caller scribbles on what it loaded
	}
	if again := mustLoad(t, st, id, 0); string(again[0].Data) != string(want.Data) {
		t.Fatalf("stored data changed with a loaded buffer: %s", again[0].Data)
	}
}

// item is one value yielded by Subscribe.
type item struct {
	e   debate.Event
	err error
}

// subscribe ranges over a subscription in a goroutine and hands its values to
// the test through a channel, closed when the range loop ends.
func subscribe(t *testing.T, ctx context.Context, st debate.Store, id string, after int64) <-chan item {
	ch := make(chan item)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		defer close(ch)
		for e, err := range st.Subscribe(ctx, id, after) {
			select {
			case ch <- item{e, err}:
			case <-stop:
				return
			}
		}
	}()
	return ch
}

func next(t *testing.T, ch <-chan item) item {
	t.Helper()
	select {
	case it, ok := <-ch:
		if !ok {
			t.Fatal("subscription ended early")
		}
		return it
	case <-time.After(waitLimit):
		t.Fatalf("subscription yielded nothing within %v", waitLimit)
	}
	panic("unreachable")
}

func expectSeqs(t *testing.T, ch <-chan item, want ...int64) []debate.Event {
	t.Helper()
	var got []debate.Event
	for _, w := range want {
		it := next(t, ch)
		if it.err != nil {
			t.Fatalf("subscription yielded error %v, want event %d", it.err, w)
		}
		if it.e.Seq != w {
			t.Fatalf("subscription yielded seq %d, want %d", it.e.Seq, w)
		}
		got = append(got, it.e)
	}
	return got
}

func expectEnd(t *testing.T, ch <-chan item, target error) {
	t.Helper()
	it := next(t, ch)
	if it.err == nil {
		t.Fatalf("subscription yielded event %d, want error %v", it.e.Seq, target)
	}
	if target != nil && !errors.Is(it.err, target) {
		t.Fatalf("subscription yielded error %v, want %v", it.err, target)
	}
	select {
	case extra, ok := <-ch:
		if ok {
			t.Fatalf("subscription went on after its error: %+v", extra)
		}
	case <-time.After(waitLimit):
		t.Fatal("subscription did not end after its error")
	}
}

// tail checks that a subscription on sub replays then tails events appended
// through app (the same store or another one on the same database).
func (s suite) tail(t *testing.T, app, sub debate.Store) {
	const id = "tail"
	var all []debate.Event
	appendAll := func(evs ...debate.Event) {
		mustAppend(t, app, id, evs...)
		for _, e := range evs {
			all = append(all, stored(e, id, int64(len(all)+1)))
		}
	}
	appendAll(created(t, id, "bullbear", "tail", at(0)), note(t, id, at(1), "one"), note(t, id, at(2), "two"))

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ch := subscribe(t, ctx, sub, id, 1)
	got := expectSeqs(t, ch, 2, 3)

	// Appends that happen after the replay, single and batched, arrive.
	appendAll(note(t, id, at(3), "three"))
	got = append(got, expectSeqs(t, ch, 4)...)
	appendAll(note(t, id, at(4), "four"), note(t, id, at(5), "five"))
	got = append(got, expectSeqs(t, ch, 5, 6)...)
	s.checkEvents(t, got, all[1:])

	// A subscription from beyond the end waits for what comes next.
	ch2 := subscribe(t, ctx, sub, id, 6)
	appendAll(note(t, id, at(6), "six"))
	expectSeqs(t, ch2, 7)
	expectSeqs(t, ch, 7)

	cancel()
	expectEnd(t, ch, context.Canceled)
	expectEnd(t, ch2, context.Canceled)
}

func (s suite) testSubscribeTail(t *testing.T) {
	st := s.open(t)
	s.tail(t, st, st)
}

func (s suite) testSubscribeShared(t *testing.T) {
	if s.cfg.shared == nil {
		t.Skip("store does not declare storetest.SharedDatabase")
	}
	a, b := s.cfg.shared(t)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	s.tail(t, a, b)
}

// testConcurrentShared appends to one debate through two stores on the same
// database at once, as two processes would: the stores must take turns
// without losing, duplicating or failing an append.
func (s suite) testConcurrentShared(t *testing.T) {
	if s.cfg.shared == nil {
		t.Skip("store does not declare storetest.SharedDatabase")
	}
	a, b := s.cfg.shared(t)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	const (
		id      = "shared"
		writers = 4 // per store
		rounds  = 10
	)
	mustAppend(t, a, id, created(t, id, "council", "shared", at(0)))
	evs := make([][]debate.Event, 2*writers)
	for w := range evs {
		for k := range rounds {
			evs[w] = append(evs[w], note(t, id, at(k), fmt.Sprintf("w%d-k%d", w, k)))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(evs))
	for w := range evs {
		st := a
		if w%2 == 1 {
			st = b
		}
		wg.Go(func() {
			for _, e := range evs[w] {
				if _, err := st.Append(t.Context(), id, e); err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	want := span(1, int64(1+len(evs)*rounds))
	for name, st := range map[string]debate.Store{"first": a, "second": b} {
		if got := seqs(mustLoad(t, st, id, 0)); !slices.Equal(got, want) {
			t.Errorf("%s store loads seqs %v, want 1..%d", name, got, len(want))
		}
		sum, err := st.Get(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sum.LastSeq != int64(len(want)) {
			t.Errorf("%s store: summary last seq %d, want %d", name, sum.LastSeq, len(want))
		}
	}
}

func (s suite) testSubscribeEnds(t *testing.T) {
	st := s.open(t)
	const id = "ends"
	mustAppend(t, st, id, created(t, id, "council", "ends", at(0)))
	ch := subscribe(t, t.Context(), st, id, 0)
	expectSeqs(t, ch, 1)
	// Waiting for events that do not come ends with the deadline.
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	expectEnd(t, subscribe(t, ctx, st, id, 1), context.DeadlineExceeded)

	// A context already done yields its error at once, without events.
	done, cancel2 := context.WithCancel(t.Context())
	cancel2()
	expectEnd(t, subscribe(t, done, st, id, 0), context.Canceled)
}

func (s suite) testSubscribeStop(t *testing.T) {
	st := s.open(t)
	const id = "stop"
	mustAppend(t, st, id, created(t, id, "council", "stop", at(0)), note(t, id, at(1), "x"), note(t, id, at(2), "y"))
	// Breaking out of the loop must end the iterator: calling yield again
	// would make the runtime panic here.
	n := 0
	for e, err := range st.Subscribe(t.Context(), id, 0) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq != 1 {
			t.Fatalf("first event has seq %d", e.Seq)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatalf("loop ran %d times", n)
	}
	// Stopping at the last replayed event, where the iterator would next
	// wait, ends it as well.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for e, err := range st.Subscribe(ctx, id, 0) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq == 3 {
			break
		}
	}
}

func (s suite) testSubscribeUnknown(t *testing.T) {
	st := s.open(t)
	expectEnd(t, subscribe(t, t.Context(), st, "missing", 0), debate.ErrNotFound)
}

func (s suite) testSubscribeClose(t *testing.T) {
	st := s.open(t)
	const id = "closing"
	mustAppend(t, st, id, created(t, id, "council", "close", at(0)))
	ch := subscribe(t, t.Context(), st, id, 0)
	expectSeqs(t, ch, 1)
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	expectEnd(t, ch, nil)
}

func (s suite) testGet(t *testing.T) {
	st := s.open(t)
	const id = "get"
	ref := func(r int, turn string) debate.TurnRef {
		return debate.TurnRef{ID: turn, Agent: "bull", Role: "advocate", Label: "Bull", Phase: "opening", Round: r}
	}
	steps := []struct {
		e      debate.Event
		status debate.Status
		round  int
		turns  int
	}{
		{created(t, id, "bullbear", "Is the stock cheap?", at(0)), debate.StatusRunning, 0, 0},
		// Queued in the job queue, until a runner appends: a hint is no
		// runner's.
		{Event(t, id, at(0), debate.Queued{Queue: "data", Reason: debate.QueuedCreated}), debate.StatusQueued, 0, 0},
		{Event(t, id, at(0), debate.HintQueued{ID: 1, Target: "bull", Text: "cite"}), debate.StatusQueued, 0, 0},
		{Event(t, id, at(1), debate.PhaseChanged{Phase: "opening", Label: "Phase 1 (Opening)", Round: 1}), debate.StatusRunning, 1, 0},
		{Event(t, id, at(2), debate.TurnStarted{Turn: ref(1, "t1"), Attempt: 1}), debate.StatusRunning, 1, 0},
		{Event(t, id, at(3), debate.TurnCompleted{Turn: ref(1, "t1"), Text: "cheap", Usage: llm.Usage{InputTokens: 10, OutputTokens: 20}, CostUSD: 0.01}), debate.StatusRunning, 1, 1},
		{Event(t, id, at(4), debate.TurnStarted{Turn: ref(2, "t2"), Attempt: 1}), debate.StatusRunning, 2, 1},
		{Event(t, id, at(5), debate.TurnCompleted{Turn: ref(2, "t2"), Text: "still cheap"}), debate.StatusRunning, 2, 2},
		{Event(t, id, at(6), debate.CheckpointReached{ID: "c1", Round: 2, Options: []string{debate.ActionContinue}}), debate.StatusCheckpoint, 2, 2},
		{Event(t, id, at(7), debate.CheckpointAnswered{ID: "c1", Action: debate.ActionContinue}), debate.StatusRunning, 2, 2},
		{Event(t, id, at(8), debate.Paused{Reason: debate.PauseInterrupted}), debate.StatusPaused, 2, 2},
		{Event(t, id, at(8), debate.Queued{Queue: "data", Reason: debate.QueuedResumed}), debate.StatusQueued, 2, 2},
		{Event(t, id, at(9), debate.Resumed{FromSeq: 9}), debate.StatusRunning, 2, 2},
		{Event(t, id, at(10), debate.Failed{Error: "boom"}), debate.StatusFailed, 2, 2},
		{Event(t, id, at(11), debate.Resumed{FromSeq: 11}), debate.StatusRunning, 2, 2},
		{Event(t, id, at(12), debate.PhaseChanged{Phase: "closing", Label: "Phase 3 (Closing)"}), debate.StatusRunning, 2, 2},
		{Event(t, id, at(13), debate.Completed{Reason: "done"}), debate.StatusCompleted, 2, 2},
	}
	var done []debate.Event
	for i, step := range steps {
		mustAppend(t, st, id, step.e)
		done = append(done, stored(step.e, id, int64(i+1)))
		got, err := st.Get(t.Context(), id)
		if err != nil {
			t.Fatalf("Get after %s: %v", step.e.Type, err)
		}
		if got.Status != step.status || got.Round != step.round || got.Turns != step.turns || got.LastSeq != int64(i+1) {
			t.Errorf("after %s: status %q round %d turns %d last seq %d, want %q %d %d %d",
				step.e.Type, got.Status, got.Round, got.Turns, got.LastSeq, step.status, step.round, step.turns, i+1)
		}
		s.checkSummary(t, got, fold(done))
	}
	// Check the fields literally too, lest a mistake shared by the store and
	// the reference fold go unseen.
	got, err := st.Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != id || got.Format != "bullbear" || got.Topic != "Is the stock cheap?" || got.Phase != "Phase 3 (Closing)" {
		t.Errorf("final summary %+v", got)
	}
	if got.Created.Sub(at(0)).Abs() >= s.cfg.precision || got.Updated.Sub(at(13)).Abs() >= s.cfg.precision {
		t.Errorf("final summary created %v updated %v, want %v and %v", got.Created, got.Updated, at(0), at(13))
	}
}

// testSpend checks the summary's LLMTurns and Unpriced, which tell a
// data-only debate and one whose models have no known price from a free run.
func (s suite) testSpend(t *testing.T) {
	st := s.open(t)
	const id = "spend"
	ref := func(turn string) debate.TurnRef {
		return debate.TurnRef{ID: turn, Agent: "bull", Role: "advocate", Label: "Bull", Phase: "opening", Round: 1}
	}
	u := llm.Usage{InputTokens: 100, OutputTokens: 50}
	steps := []struct {
		p        debate.Payload
		llmTurns int
		unpriced []string
	}{
		{debate.TurnCompleted{Turn: ref("data"), Text: "figures", NoLLM: true, Model: debate.DataOnlyModel}, 0, nil},
		{debate.TurnCompleted{Turn: ref("priced"), Text: "a", Usage: u, CostUSD: 0.01, Model: "anthropic/claude-sonnet-4-5"}, 1, nil},
		{debate.TurnCompleted{Turn: ref("local"), Text: "b", Usage: u, Model: "ollama/llama3"}, 2, nil},
		{debate.TurnCompleted{Turn: ref("custom"), Text: "c", Usage: u, Model: "openai/my-finetune"}, 3, []string{"openai/my-finetune"}},
		{debate.TurnCompleted{Turn: ref("custom2"), Text: "d", Usage: u, Model: "openai/my-finetune"}, 4, []string{"openai/my-finetune"}},
		// A priced model recorded at $0 (a runner without prices) is
		// priced, not unknown; the unpriced one keeps its place.
		{debate.TurnCompleted{Turn: ref("zero"), Text: "e", Model: "openai/gpt-5"}, 5, []string{"openai/my-finetune"}},
		{debate.TurnCompleted{Turn: ref("other"), Text: "f", Usage: u, Model: "vendor/x-1"}, 6, []string{"openai/my-finetune", "vendor/x-1"}},
		// A model the built-in table lacks, recorded at $0 from a price
		// the user gave (a free gateway model), is free, not unknown.
		{debate.TurnCompleted{Turn: ref("given"), Text: "g", Usage: u, Priced: true, Model: "gateway/free-model"}, 7, []string{"openai/my-finetune", "vendor/x-1"}},
		// So is it at a price: the cost is recorded, nothing is unknown.
		{debate.TurnCompleted{Turn: ref("given2"), Text: "h", Usage: u, CostUSD: 0.002, Priced: true, Model: "gateway/paid-model"}, 8, []string{"openai/my-finetune", "vendor/x-1"}},
	}
	done := []debate.Event{created(t, id, "bullbear", "NVDA", at(0))}
	mustAppend(t, st, id, done[0])
	for i, step := range steps {
		e := Event(t, id, at(i+1), step.p)
		mustAppend(t, st, id, e)
		done = append(done, stored(e, id, int64(i+2)))
		got, err := st.Get(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		turn := step.p.(debate.TurnCompleted).Turn.ID
		if got.Turns != i+1 || got.LLMTurns != step.llmTurns || !slices.Equal(got.Unpriced, step.unpriced) {
			t.Errorf("after turn %s: turns %d, LLM turns %d, unpriced %q; want %d, %d, %q",
				turn, got.Turns, got.LLMTurns, got.Unpriced, i+1, step.llmTurns, step.unpriced)
		}
		s.checkSummary(t, got, fold(done))
		list, err := st.List(t.Context(), debate.ListFilter{})
		if err != nil || len(list) != 1 {
			t.Fatalf("List: %v, %v", list, err)
		}
		s.checkSummary(t, list[0], fold(done))
	}
}

// spendDebates are debates whose summaries' spend fields differ: turns of
// priced, local, unpriced and data-only models, a $0 turn priced by the
// user, one without turns, one with data-only turns alone. Each event has
// its Debate and Seq set, as stored.
func spendDebates(t *testing.T) [][]debate.Event {
	u := llm.Usage{InputTokens: 100, OutputTokens: 50}
	turn := func(id string, c debate.TurnCompleted) debate.TurnCompleted {
		c.Turn = debate.TurnRef{ID: id, Agent: "pro", Role: "advocate", Label: "Pro", Phase: "opening", Round: 1}
		c.Text, c.Usage = "text of "+id, u
		return c
	}
	var out [][]debate.Event
	for _, d := range []struct {
		id    string
		turns []debate.TurnCompleted
	}{
		{"mixed", []debate.TurnCompleted{
			turn("a", debate.TurnCompleted{Model: "vendor/x-1"}),
			turn("b", debate.TurnCompleted{NoLLM: true, Model: debate.DataOnlyModel}),
			turn("c", debate.TurnCompleted{CostUSD: 0.01, Priced: true, Model: "anthropic/claude-sonnet-4-5"}),
			turn("d", debate.TurnCompleted{Model: "openai/my-finetune"}),
			turn("e", debate.TurnCompleted{Model: "ollama/llama3"}),
			turn("f", debate.TurnCompleted{Priced: true, Model: "gateway/free-model"}),
			turn("g", debate.TurnCompleted{Model: "vendor/x-1"}),
			turn("h", debate.TurnCompleted{Model: "openai/gpt-5"}),
		}},
		{"data-only", []debate.TurnCompleted{
			turn("a", debate.TurnCompleted{NoLLM: true, Model: debate.DataOnlyModel}),
			turn("b", debate.TurnCompleted{NoLLM: true, Model: debate.DataOnlyModel}),
		}},
		{"no-turns", nil},
	} {
		evs := []debate.Event{stored(created(t, d.id, "perspectives", "spend "+d.id, at(len(out))), d.id, 1)}
		for i, c := range d.turns {
			evs = append(evs, stored(Event(t, d.id, at(len(out)+i+1), c), d.id, int64(i+2)))
		}
		out = append(out, evs)
	}
	return out
}

// checkSpendSummaries checks that Get and List give each debate the
// summary its events fold to.
func (s suite) checkSpendSummaries(t *testing.T, st debate.Store, debates [][]debate.Event) {
	t.Helper()
	list, err := st.List(t.Context(), debate.ListFilter{})
	if err != nil || len(list) != len(debates) {
		t.Fatalf("List: %d debates, %v; want %d", len(list), err, len(debates))
	}
	for _, evs := range debates {
		want := fold(evs)
		got, err := st.Get(t.Context(), want.ID)
		if err != nil {
			t.Fatalf("Get(%s): %v", want.ID, err)
		}
		s.checkSummary(t, got, want)
		i := slices.IndexFunc(list, func(l debate.Summary) bool { return l.ID == want.ID })
		if i < 0 {
			t.Fatalf("List lacks %s", want.ID)
		}
		s.checkSummary(t, list[i], want)
	}
}

// testSpendReopened: the spend fields of the summaries a store keeps at
// each append are read back by a store opened later on the database.
func (s suite) testSpendReopened(t *testing.T) {
	if s.cfg.reopen == nil {
		t.Skip("the store keeps nothing when closed")
	}
	open := s.cfg.reopen(t)
	first := open(t)
	debates := spendDebates(t)
	for _, evs := range debates {
		// One append per event: the summary is carried from append to
		// append, not computed from one batch.
		for _, e := range evs {
			mustAppend(t, first, e.Debate, e)
		}
	}
	s.checkSpendSummaries(t, first, debates)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again := open(t)
	defer again.Close()
	s.checkSpendSummaries(t, again, debates)
}

// testSpendUpgraded: a database written at the previous schema version,
// without the spend fields in its summaries, is migrated to summaries
// equal to the fold of each debate's log, which appends keep up after.
func (s suite) testSpendUpgraded(t *testing.T) {
	if s.cfg.upgrade == nil {
		t.Skip("the store has no schema versions")
	}
	debates := spendDebates(t)
	st := s.cfg.upgrade(t, debates...)
	defer st.Close()
	s.checkSpendSummaries(t, st, debates)

	mixed := debates[0]
	e := Event(t, "mixed", at(20), debate.TurnCompleted{Turn: debate.TurnRef{ID: "z", Agent: "con", Round: 2},
		Text: "later", Usage: llm.Usage{InputTokens: 1}, Model: "vendor/y-2"})
	mustAppend(t, st, "mixed", e)
	debates[0] = append(mixed, stored(e, "mixed", int64(len(mixed)+1)))
	if got := fold(debates[0]); got.LLMTurns != 8 || !slices.Equal(got.Unpriced, []string{"vendor/x-1", "openai/my-finetune", "vendor/y-2"}) {
		t.Fatalf("the test's debate folds to %d LLM turns, unpriced %q; the test is wrong", got.LLMTurns, got.Unpriced)
	}
	s.checkSpendSummaries(t, st, debates)
}

func (s suite) testList(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	// Created times deliberately differ from insertion order, and the oldest
	// debate is updated last, so that only ordering by Created passes.
	mk := func(id, format, topic string, createdAt int, more ...debate.Payload) {
		evs := []debate.Event{created(t, id, format, topic, at(createdAt))}
		for i, p := range more {
			evs = append(evs, Event(t, id, at(createdAt+i+1), p))
		}
		mustAppend(t, st, id, evs...)
	}
	mk("a", "bullbear", "Is X good?", 10)
	mk("b", "council", "Is X good?", 30)
	mk("c", "bullbear", "Other", 20, debate.Paused{Reason: debate.PauseBudget})
	mk("d", "formal", "Other", 40)
	mk("e", "council", "Queued", 5, debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
	mustAppend(t, st, "a", Event(t, "a", at(100), debate.Completed{}))

	want := map[string]debate.Summary{}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		want[id] = fold(mustLoad(t, st, id, 0))
	}
	for _, c := range []struct {
		f    debate.ListFilter
		want []string
	}{
		{debate.ListFilter{}, []string{"d", "b", "c", "a", "e"}},
		{debate.ListFilter{Format: "bullbear"}, []string{"c", "a"}},
		{debate.ListFilter{Status: debate.StatusRunning}, []string{"d", "b"}},
		{debate.ListFilter{Status: debate.StatusQueued}, []string{"e"}},
		{debate.ListFilter{Status: debate.StatusCompleted}, []string{"a"}},
		{debate.ListFilter{Topic: "Is X good?"}, []string{"b", "a"}},
		{debate.ListFilter{Topic: "Is X"}, nil},
		{debate.ListFilter{Format: "bullbear", Status: debate.StatusPaused}, []string{"c"}},
		{debate.ListFilter{Format: "bullbear", Topic: "Other"}, []string{"c"}},
		{debate.ListFilter{Limit: 2}, []string{"d", "b"}},
		{debate.ListFilter{Limit: 10}, []string{"d", "b", "c", "a", "e"}},
		{debate.ListFilter{Format: "bullbear", Limit: 1}, []string{"c"}},
		{debate.ListFilter{Format: "nope"}, nil},
	} {
		got, err := st.List(ctx, c.f)
		if err != nil {
			t.Fatalf("List(%+v): %v", c.f, err)
		}
		var ids []string
		for _, sum := range got {
			ids = append(ids, sum.ID)
		}
		if !slices.Equal(ids, c.want) {
			t.Errorf("List(%+v) = %v, want %v", c.f, ids, c.want)
			continue
		}
		for _, sum := range got {
			s.checkSummary(t, sum, want[sum.ID])
		}
	}
}

// testConcurrent appends from many goroutines at once, to one debate and to
// several, while others read and subscribe: the log must come out gapless,
// without duplicates, with every batch contiguous.
func (s suite) testConcurrent(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const (
		id      = "busy"
		writers = 8
		rounds  = 15
		others  = 4
	)
	mustAppend(t, st, id, created(t, id, "council", "busy", at(0)))

	// Each writer alternates single events and batches of three, recording
	// which seqs its appends got.
	type landed struct {
		last int64
		text []string
	}
	results := make([][]landed, writers)
	total := int64(1)
	for k := range rounds {
		if k%2 == 0 {
			total += writers * 3
		} else {
			total += writers
		}
	}

	subCtx, cancelSub := context.WithCancel(ctx)
	defer cancelSub()
	sub := subscribe(t, subCtx, st, id, 0)

	// Events are built up front: t.Fatal may not be called from the
	// writers' goroutines.
	batches := make([][][]debate.Event, writers)
	for w := range writers {
		for k := range rounds {
			n := 1
			if k%2 == 0 {
				n = 3
			}
			var evs []debate.Event
			for j := range n {
				evs = append(evs, note(t, id, at(k), fmt.Sprintf("w%d-k%d-j%d", w, k, j)))
			}
			batches[w] = append(batches[w], evs)
		}
	}
	otherEvents := make([][]debate.Event, others)
	for o := range others {
		oid := fmt.Sprintf("other-%d", o)
		otherEvents[o] = append(otherEvents[o], created(t, oid, "formal", "other", at(o)))
		for k := range rounds {
			otherEvents[o] = append(otherEvents[o], note(t, oid, at(k), "x"))
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, writers+others+2)
	for w := range writers {
		wg.Go(func() {
			for k, evs := range batches[w] {
				var texts []string
				for _, e := range evs {
					n := debate.Note{Kind: "test"}
					if err := e.Decode(&n); err != nil {
						errs <- err
						return
					}
					texts = append(texts, n.Text)
				}
				last, err := st.Append(ctx, id, evs...)
				if err != nil {
					errs <- fmt.Errorf("writer %d append %d: %w", w, k, err)
					return
				}
				results[w] = append(results[w], landed{last, texts})
			}
		})
	}
	for o := range others {
		wg.Go(func() {
			oid := fmt.Sprintf("other-%d", o)
			for k, e := range otherEvents[o] {
				last, err := st.Append(ctx, oid, e)
				if err != nil {
					errs <- fmt.Errorf("debate %s append %d: %w", oid, k, err)
					return
				}
				if last != int64(k+1) {
					errs <- fmt.Errorf("debate %s: append %d got seq %d, want %d", oid, k, last, k+1)
					return
				}
			}
		})
	}
	readers := make(chan struct{})
	var rg sync.WaitGroup
	rg.Go(func() {
		for {
			select {
			case <-readers:
				return
			default:
			}
			evs, err := st.Load(ctx, id, 0)
			if err != nil {
				errs <- fmt.Errorf("concurrent Load: %w", err)
				return
			}
			for i, e := range evs {
				if e.Seq != int64(i+1) {
					errs <- fmt.Errorf("concurrent Load saw seq %d at position %d", e.Seq, i)
					return
				}
			}
			sum, err := st.Get(ctx, id)
			if err != nil {
				errs <- fmt.Errorf("concurrent Get: %w", err)
				return
			}
			if sum.LastSeq < int64(len(evs)) {
				errs <- fmt.Errorf("concurrent Get saw last seq %d after Load saw %d events", sum.LastSeq, len(evs))
				return
			}
			if _, err := st.List(ctx, debate.ListFilter{}); err != nil {
				errs <- fmt.Errorf("concurrent List: %w", err)
				return
			}
		}
	})
	wg.Wait()
	close(readers)
	rg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	evs := mustLoad(t, st, id, 0)
	if got := seqs(evs); !slices.Equal(got, span(1, total)) {
		t.Fatalf("log seqs %v, want 1..%d", got, total)
	}
	text := func(e debate.Event) string {
		n := debate.Note{Kind: "test"}
		if err := e.Decode(&n); err != nil {
			t.Fatal(err)
		}
		return n.Text
	}
	for w, ls := range results {
		prev := int64(0)
		for _, l := range ls {
			first := l.last - int64(len(l.text)) + 1
			if first <= prev {
				t.Errorf("writer %d: append ending at %d overlaps or precedes its previous one ending at %d", w, l.last, prev)
			}
			for j, want := range l.text {
				if got := text(evs[first-1+int64(j)]); got != want {
					t.Errorf("seq %d holds %q, want %q (batches must be contiguous)", first+int64(j), got, want)
				}
			}
			prev = l.last
		}
	}
	sum, err := st.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	s.checkSummary(t, sum, fold(evs))
	for o := range others {
		oid := fmt.Sprintf("other-%d", o)
		if got := seqs(mustLoad(t, st, oid, 0)); !slices.Equal(got, span(1, rounds+1)) {
			t.Errorf("debate %s seqs %v", oid, got)
		}
	}

	// The subscriber saw every event once, in order.
	for want := int64(1); want <= total; want++ {
		it := next(t, sub)
		if it.err != nil || it.e.Seq != want {
			t.Fatalf("subscriber got seq %d err %v, want seq %d", it.e.Seq, it.err, want)
		}
	}
	cancelSub()
	expectEnd(t, sub, context.Canceled)
}

func (s suite) testClose(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id = "close"
	mustAppend(t, st, id, created(t, id, "council", "close", at(0)))
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := st.Append(ctx, id, note(t, id, at(1), "late")); err == nil {
		t.Error("Append after Close succeeded")
	}
	if _, err := st.Load(ctx, id, 0); err == nil {
		t.Error("Load after Close succeeded")
	}
	if _, err := st.Get(ctx, id); err == nil {
		t.Error("Get after Close succeeded")
	}
	if _, err := st.List(ctx, debate.ListFilter{}); err == nil {
		t.Error("List after Close succeeded")
	}
}
