package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
)

// TestDocumentsOfAnInterruptedDebate: show and both exports of a debate
// whose runner died say it is interrupted, as list and show's header do;
// its log's last word, "running", is what the documents and the JSON
// export said.
func TestDocumentsOfAnInterruptedDebate(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	f := testFactory(t, "", false)
	db, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.App(db)
	if err != nil {
		t.Fatal(err)
	}
	// Started, never run: nothing holds it, as after a kill -9.
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", sess.ID}, "**Status:** interrupted"},
		{[]string{"export", sess.ID, "--as", "md"}, "**Status:** interrupted"},
		{[]string{"export", sess.ID, "--as", "json"}, `"status": "interrupted"`},
	} {
		g := testFactory(t, "", false)
		root := NewRootCmd(g)
		root.SetArgs(append([]string{"--db", f.DBPath}, c.args...))
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		out := g.IO.Out.(interface{ String() string }).String()
		if !strings.Contains(out, c.want) || strings.Contains(out, "running") {
			t.Errorf("%v: want %q and no 'running':\n%s", c.args, c.want, out)
		}
	}
}
