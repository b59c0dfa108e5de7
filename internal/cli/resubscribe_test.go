package cli

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/storetest"
)

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
	store := &storetest.CutStore{Store: db, FailAfter: 5}
	a, err := f.App(store)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true}, Limits: debate.DefaultLimits()})
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
