package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestResumeOfferEveryFormat: asking again the question of a perspectives
// debate paused at its checkpoint offers to resume it, as a bull vs. bear
// debate does and as the shell does for every format: on a terminal it
// asks, piped it says how and starts anew.
func TestResumeOfferEveryFormat(t *testing.T) {
	ctx := context.Background()
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", "perspectives.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	t.Cleanup(srv.Close)
	env := map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
	db := filepath.Join(t.TempDir(), "parley.db")
	factory := func(stdin string, terminal bool) *Factory {
		ios, in, _, _ := iostreams.Test()
		in.WriteString(stdin)
		ios.SetTerminal(false, terminal, false)
		return &Factory{IO: ios, Env: func(k string) string { return env[k] }, Now: time.Now, DBPath: db, Formats: app.DefaultFormats()}
	}
	options := func() *DebateOptions {
		o := defaultDebateOptions()
		o.Topic, o.Models.Model = "Should we use Redis or PostgreSQL for caching?", "test-model"
		return o
	}

	f := factory("", false)
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.App(store)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.Start(ctx, options().startRequest())
	if err != nil {
		t.Fatal(err)
	}
	var pe *debate.PausedError
	if _, err := s.Run(ctx, nil); !errors.As(err, &pe) {
		t.Fatalf("run: %v, want a pause at the first checkpoint", err)
	}
	store.Close()

	o := options()
	if err := offerResume(ctx, f, o); err != nil {
		t.Fatal(err)
	}
	if errOut := f.IO.ErrOut.(interface{ String() string }).String(); o.Resume != "" || !strings.Contains(errOut, "this starts a new one. Resume it with: parley debate --resume "+s.ID) {
		t.Errorf("piped: Resume %q, stderr:\n%s", o.Resume, errOut)
	}
	f = factory("\n", true)
	o = options()
	if err := offerResume(ctx, f, o); err != nil {
		t.Fatal(err)
	}
	if errOut := f.IO.ErrOut.(interface{ String() string }).String(); o.Resume != s.ID || !strings.Contains(errOut, "An unfinished debate on Should we use Redis or PostgreSQL for caching? exists ("+s.ID+"). Resume debate from ") {
		t.Errorf("on a terminal: Resume %q, want %s (Enter means yes); stderr:\n%s", o.Resume, s.ID, errOut)
	}
	// An answer that is neither asks again, rather than end the command;
	// three of them are bad input.
	f = factory("maybe\nno\n", true)
	o = options()
	if err := offerResume(ctx, f, o); err != nil || o.Resume != "" {
		t.Errorf("maybe, then no: %v, Resume %q; want a new debate", err, o.Resume)
	}
	if errOut := f.IO.ErrOut.(interface{ String() string }).String(); strings.Count(errOut, "[Y/n]") != 2 || !strings.Contains(errOut, "Answer y (resume "+s.ID+") or n (start a new debate)") {
		t.Errorf("maybe, then no: want the question asked again, saying what the answers do:\n%s", errOut)
	}
	f = factory("maybe\nperhaps\nwhat?\ny\n", true)
	if err := offerResume(ctx, f, options()); ExitCode(err) != ExitUsage {
		t.Errorf("three answers that are not y or n: %v (exit %d), want bad input", err, ExitCode(err))
	}
	// On a terminal of 20 columns the question, and the line that says
	// how to resume when there is no keyboard to answer on, fold as the
	// lines around the view do: the terminal folded them to column 0.
	for _, keyboard := range []bool{true, false} {
		f = factory("n\n", keyboard)
		f.IO.SetTerminal(true, keyboard, false)
		f.IO.SetWidth(20)
		if err := offerResume(ctx, f, options()); err != nil {
			t.Fatal(err)
		}
		// The command is never broken (TestFoldKeepsCommandsWhole).
		checkFolded(t, strings.Replace(f.IO.ErrOut.(interface{ String() string }).String(), "parley debate --resume "+s.ID, "x", 1), 20)
	}
}
