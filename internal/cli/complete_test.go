package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/debate"
)

// TestCompleteIDsShowsTopicsInert: a debate id's completion carries its
// topic as the description, which zsh and fish print in their menus: a
// topic (API clients and batch files write them) with escape sequences or
// a bidi override is shown, not acted on.
func TestCompleteIDsShowsTopicsInert(t *testing.T) {
	f := testFactory(t, "", false)
	ctx := context.Background()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const id = "DEB-0badc0de"
	e, err := debate.NewEvent(id, time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC),
		debate.Created{Format: "perspectives", Topic: "Redis\x1b]0;pwned\x07\x1b[2J or \u202eSQL?", Options: []byte(`{}`), Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Append(ctx, id, e); err != nil {
		t.Fatal(err)
	}
	store.Close()
	got, _ := completeIDs(f)(&cobra.Command{Use: "show"}, nil, "DEB-")
	if len(got) != 1 || strings.ContainsAny(got[0], "\x1b\x07\u202e") {
		t.Fatalf("completions %q: want the one debate, its topic inert", got)
	}
	if want := id + "\tperspectives: Redis␛]0;pwned␇␛[2J or ⟨U+202E⟩SQL?"; got[0] != want {
		t.Errorf("completion %q, want %q", got[0], want)
	}
}

// TestCompleteAskAgents: --agent of 'parley ask' completes the agents of
// the debate named, not bull, bear and moderator whatever the debate.
func TestCompleteAskAgents(t *testing.T) {
	f := testFactory(t, "", false)
	ctx := context.Background()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const id = "DEB-0a5c0de0"
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	var evs []debate.Event
	for _, p := range []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "Redis or SQL?", Options: []byte(`{}`), Limits: debate.DefaultLimits()},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "r1/argument/performance-advocate", Agent: "performance-advocate", Role: "debater", Round: 1}, Attempt: 1},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "r1/argument/future-flexibility", Agent: "future-flexibility", Role: "debater", Round: 1}, Attempt: 1},
	} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := store.Append(ctx, id, evs...); err != nil {
		t.Fatal(err)
	}
	store.Close()
	complete := completeAskAgents(f)
	if got, _ := complete(&cobra.Command{Use: "ask"}, []string{"DEB-0a5c"}, ""); strings.Join(got, ",") != "future-flexibility,performance-advocate" {
		t.Errorf("completions %q, want the debate's agents", got)
	}
	if got, _ := complete(&cobra.Command{Use: "ask"}, []string{"DEB-0a5c"}, "perf"); strings.Join(got, ",") != "performance-advocate" {
		t.Errorf("completions of perf: %q", got)
	}
	if got, _ := complete(&cobra.Command{Use: "ask"}, []string{"DEB-ffffffff"}, ""); len(got) != 0 {
		t.Errorf("completions for no such debate: %q", got)
	}
}
