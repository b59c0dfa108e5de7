package cli

import (
	"bufio"
	"context"
	"errors"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
)

// cutStore's first subscription fails after yielding failAfter events, as
// a PostgreSQL store's does when its connection is cut.
type cutStore struct {
	debate.Store
	failAfter int
	failed    atomic.Bool
}

func (s *cutStore) Subscribe(ctx context.Context, id string, after int64) iter.Seq2[debate.Event, error] {
	inner := s.Store.Subscribe(ctx, id, after)
	if s.failed.Load() {
		return inner
	}
	return func(yield func(debate.Event, error) bool) {
		n := 0
		for e, err := range inner {
			if err != nil {
				yield(e, err)
				return
			}
			if n == s.failAfter {
				s.failed.Store(true)
				yield(debate.Event{}, errors.New("FATAL: terminating connection due to administrator command (SQLSTATE 57P01)"))
				return
			}
			if !yield(e, nil) {
				return
			}
			n++
		}
	}
}

// A read of the log that fails while a debate runs with --json (PostgreSQL
// restarting) does not cut the stream: every event of the log is written.
func TestJSONStreamOutlivesAFailedRead(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	f := testFactory(t, "", false)
	db, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	store := &cutStore{Store: db, failAfter: 5}
	a, err := f.App(store)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true, MaxRounds: 1}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	o := bullbearOptions("NVDA")
	o.JSON, o.NoCheckpoints = true, true
	if err := runSession(ctx, f, o, store, a, sess); err != nil {
		t.Fatal(err)
	}
	sum, err := db.Get(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(f.IO.Out.(interface{ String() string }).String()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `{"debate":"`+sess.ID+`","seq":`) {
			n++
		}
	}
	if int64(n) != sum.LastSeq {
		out := f.IO.Out.(interface{ String() string }).String()
		t.Fatalf("--json wrote %d events; the log has %d:\n%.600s", n, sum.LastSeq, out)
	}
}
