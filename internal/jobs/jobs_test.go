package jobs

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// testLog is where the queue logs: the test's output with -v.
func testLog(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// newApp is an application layer on a new database of the kind named:
// "sqlite", or "postgres" (a schema of its own in PARLEY_TEST_POSTGRES; the
// test skips without it).
func newApp(t testing.TB, db string, env map[string]string) *app.App {
	t.Helper()
	var st debate.Store
	var err error
	switch db {
	case "sqlite":
		st, err = sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "parley.db"))
	case "postgres":
		st, err = postgres.Open(context.Background(), pgtest.URL(t), postgres.WithLogger(testLog(t)))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &app.App{Store: st, Formats: app.DefaultFormats(),
		Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now, Notice: io.Discard}}
}

// eachDB runs a test on SQLite and on PostgreSQL.
func eachDB(t *testing.T, test func(t *testing.T, db string)) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) { test(t, db) })
	}
}

func newQueue(t testing.TB, a *app.App, cfg Config) *Queue {
	t.Helper()
	return newQueueWith(t, a, cfg, nil)
}

// newQueueWith is newQueue, with hooks set on the queue (its test hooks:
// beforeRun, onWork) before its workers start, so that no job runs
// without them.
func newQueueWith(t testing.TB, a *app.App, cfg Config, hooks func(*Queue)) *Queue {
	t.Helper()
	cfg.Log = testLog(t)
	q, err := New(context.Background(), a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if hooks != nil {
		hooks(q)
	}
	if err := q.StartWorkers(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return q
}

func offlineRequest(ticker string) app.StartRequest {
	return app.StartRequest{Request: setup.Request{Format: "bullbear", Topic: ticker, Offline: true},
		Limits: debate.DefaultLimits()}
}

// waitStatus waits until a debate's summary has a status and its runner
// let go of its lease.
func waitStatus(t testing.TB, st debate.Store, id string, want debate.Status) debate.Summary {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		sum, err := st.Get(context.Background(), id)
		if err == nil && sum.Status == want && sum.Lease == nil {
			return sum
		}
		if time.Now().After(deadline) {
			t.Fatalf("debate %s never %s: %+v, %v", id, want, sum, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOfflineDebatesRunAsJobs(t *testing.T) { eachDB(t, testOfflineDebates) }

func testOfflineDebates(t *testing.T, db string) {
	a := newApp(t, db, nil)
	q := newQueue(t, a, Config{Workers: 2})
	var ids []string
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		s, err := q.StartDebate(context.Background(), offlineRequest(tk))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	for _, id := range ids {
		sum := waitStatus(t, a.Store, id, debate.StatusCompleted)
		if sum.Turns != 7 {
			t.Fatalf("%s: %d turns, want the 7 of an offline bull vs. bear debate", id, sum.Turns)
		}
	}
}

// Workers starting together on a new database migrate River's tables once,
// without failing each other.
func TestConcurrentMigrations(t *testing.T) {
	eachDB(t, func(t *testing.T, db string) {
		a := newApp(t, db, nil)
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				_, err := New(context.Background(), a, Config{Log: testLog(t)})
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}
