package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// TestShowRunnerHostIsInert: the host a runner names in its lease is read
// from the database, which other processes and machines write: 'parley
// show' makes its control characters and bidi overrides visible, as the
// shell's /show does.
func TestShowRunnerHostIsInert(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	ctx := context.Background()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id := "DEB-running1"
	var evs []debate.Event
	for _, p := range []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?", Options: []byte(`{"perspectives":2,"max_rounds":1}`), Limits: debate.DefaultLimits()},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "analysis", Agent: "moderator", Role: "moderator"}, Attempt: 1},
	} {
		e, err := debate.NewEvent(id, time.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := store.Append(ctx, id, evs...); err != nil {
		t.Fatal(err)
	}
	owner := debate.LeaseOwner{ID: "worker-1", Host: "box\x1b]0;pwned\x07\u202e", PID: 4242, Started: time.Now()}
	if _, err := store.AcquireLease(ctx, id, owner, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	store.Close()
	if err := runShow(ctx, f, &ShowOptions{ID: id}); err != nil {
		t.Fatal(err)
	}
	out := f.IO.Out.(interface{ String() string }).String()
	if !strings.Contains(out, "on host box") {
		t.Fatalf("show does not name the runner's host:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("show prints the host's control characters raw: %q", out)
	}
}
