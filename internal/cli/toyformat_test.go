package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// toyFormat is a format only this test registers, with an option of its
// own, --toy-level: what a new format is, a package and a line in the
// registry, with nothing of the command line changed for it.
type toyFormat struct{}

type toyOptions struct {
	Level int `json:"level"`
}

func (toyFormat) Name() string { return "toy" }

func (toyFormat) Options() []setup.Option {
	return []setup.Option{{Name: "toy-level", Kind: setup.Int, Usage: "how hard the toy plays", Note: "1-9", Default: 3,
		Choices: func() []string { return []string{"1", "5", "9"} }}}
}

func (toyFormat) Setup(_ context.Context, _ setup.Env, req *setup.Request) (json.RawMessage, error) {
	n := req.Int("toy-level")
	if n < 1 || n > 9 {
		return nil, setup.Inputf("--toy-level %d: choose 1 to 9", n)
	}
	return json.Marshal(toyOptions{Level: n})
}

func (toyFormat) Prepare(context.Context, setup.Env, *setup.Run) (*tool.Registry, error) {
	return nil, nil
}

// RunsOffline: the toy needs no model.
func (toyFormat) RunsOffline() bool { return true }

func (toyFormat) Protocol(_ string, options json.RawMessage) (debate.Protocol, error) {
	o, err := debate.DecodeOptions[toyOptions]("toy", options)
	return toyProtocol{o}, err
}

func (toyFormat) Render(s *debate.State, _ debate.RenderOptions) (string, error) {
	return "# Toy\n\nPlayed at level " + string(s.Verdict) + ".\n", nil
}

type toyProtocol struct{ o toyOptions }

func (p toyProtocol) Next(*debate.State) (debate.Step, error) {
	return debate.Step{Done: true, Verdict: p.o.Level, Reason: "a toy plays one move"}, nil
}

func (toyProtocol) Parse(*debate.State, debate.TurnSpec, string) (any, error) { return nil, nil }

// withToy is the shipped formats and the toy.
func withToy(t *testing.T) *debate.Formats {
	t.Helper()
	shipped := app.DefaultFormats()
	fs := []debate.Format{toyFormat{}}
	for _, n := range shipped.Names() {
		f, err := shipped.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	return debate.NewFormats(fs...)
}

// TestNewFormatsOptionIsAFlag: a format registered with an option of its
// own has it as a flag of 'parley debate' (its help, its value, its
// default), which reaches the format's Setup through the application
// layer, with nothing of the command line or of setup written for it; and
// an option given for a format that does not declare it is refused as
// every format's is.
func TestNewFormatsOptionIsAFlag(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx := context.Background()
	run := func(f *Factory, args ...string) (string, error) {
		// The root's --db flag sets the factory's database: the test's own.
		args = append(args, "--db", f.DBPath)
		root := NewRootCmd(f)
		root.SetArgs(args)
		root.SetOut(f.IO.Out)
		root.SetErr(f.IO.ErrOut)
		err := root.ExecuteContext(ctx)
		return f.IO.Out.(interface{ String() string }).String() + f.IO.ErrOut.(interface{ String() string }).String(), err
	}
	f := testFactory(t, "", false)
	f.Formats = withToy(t)
	help, err := run(f, "debate", "--help")
	if err != nil || !strings.Contains(help, "--toy-level int") || !strings.Contains(help, "how hard the toy plays (toy: 1-9) (default 3)") {
		t.Errorf("debate --help (%v) does not offer --toy-level with its usage and default:\n%s", err, help)
	}

	f = testFactory(t, "", false)
	f.Formats = withToy(t)
	root := NewRootCmd(f)
	root.SetArgs([]string{"__complete", "debate", "x", "--toy-level", ""})
	root.SetOut(f.IO.Out)
	if err := root.ExecuteContext(ctx); err != nil || !strings.HasPrefix(f.IO.Out.(interface{ String() string }).String(), "1\n5\n9\n:4\n") {
		t.Errorf("--toy-level's completion (%v):\n%s", err, f.IO.Out.(interface{ String() string }).String())
	}

	levels := map[string]int{}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"given", []string{"--toy-level", "7"}, 7},
		{"default", nil, 3},
	} {
		f := testFactory(t, "", false)
		f.Formats = withToy(t)
		args := append([]string{"debate", "Is a toy a game?", "--format", "toy"}, tc.args...)
		if out, err := run(f, args...); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		store, err := f.OpenStore(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sums, err := store.List(ctx, debate.ListFilter{})
		if err != nil || len(sums) != 1 {
			t.Fatalf("%s: %d debates (%+v), %v", tc.name, len(sums), sums, err)
		}
		evs, err := store.Load(ctx, sums[0].ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, err := debate.Fold(evs)
		store.Close()
		if err != nil {
			t.Fatal(err)
		}
		var o toyOptions
		if err := json.Unmarshal(st.Options, &o); err != nil {
			t.Fatal(err)
		}
		levels[tc.name] = o.Level
		if o.Level != tc.want || st.Status != debate.StatusCompleted {
			t.Errorf("%s: the toy debate was created with level %d (%s), want %d", tc.name, o.Level, st.Status, tc.want)
		}
	}

	// Refused: the toy's option for another format, another format's for
	// the toy, and the shipped formats' own refusals, worded as ever; and
	// the toy's bad value, by the toy.
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"Is a toy a game?", "--toy-level", "7"}, "--toy-level: with no --format this debate is perspectives, which has no --toy-level (toy takes it): choose the format with --format, or drop --toy-level"},
		{[]string{"Is a toy a game?", "--format", "toy", "--agents", "a,b"}, "--agents: the toy format has no --agents (council and crux take it): drop it, or choose another --format"},
		{[]string{"Acme Corp", "--format", "council", "--rounds", "3"}, "--rounds: the council format has no --rounds (formal takes it): drop it, or choose another --format"},
		{[]string{"Should we use Redis?", "--agents", "saylor,hayes"}, "--agents: with no --format this debate is perspectives, which has no --agents (council and crux take it): choose the format with --format, or drop --agents"},
		{[]string{"Is a toy a game?", "--format", "toy", "--toy-level", "12"}, "--toy-level 12: choose 1 to 9"},
	} {
		f := testFactory(t, "", false)
		f.Formats = withToy(t)
		out, err := run(f, append([]string{"debate"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("debate %s: %v; want it refused saying %q\n%s", strings.Join(tc.args, " "), err, tc.says, out)
		}
	}
}
