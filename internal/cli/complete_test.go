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
