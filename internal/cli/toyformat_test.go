package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
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
	return app.DefaultFormatsWith(toyFormat{})
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
	run := func(f *Factory, args ...string) (string, error) { return runCmd(ctx, f, args...) }
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

// runCmd runs parley with args on f (its database the test's own), and
// returns what it printed.
func runCmd(ctx context.Context, f *Factory, args ...string) (string, error) {
	// Read before NewRootCmd, whose --db flag resets the factory's.
	args = append(args, "--db", f.DBPath)
	root := NewRootCmd(f)
	root.SetArgs(args)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	err := root.ExecuteContext(ctx)
	return f.IO.Out.(interface{ String() string }).String() + f.IO.ErrOut.(interface{ String() string }).String(), err
}

// toyLevels are the levels of the toy debates in f's database, in the
// order they were created.
func toyLevels(t *testing.T, ctx context.Context, f *Factory) []int {
	t.Helper()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sums, err := store.List(ctx, debate.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var levels []int
	for i := len(sums) - 1; i >= 0; i-- {
		evs, err := store.Load(ctx, sums[i].ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, err := debate.Fold(evs)
		if err != nil {
			t.Fatal(err)
		}
		var o toyOptions
		if err := json.Unmarshal(st.Options, &o); err != nil {
			t.Fatal(err)
		}
		levels = append(levels, o.Level)
	}
	return levels
}

// TestNewFormatsOptionIsAConfigKey: a format registered with an option of
// its own has it as a key of the config file, named as its API field
// (toy_level), with nothing of the config file written for it: a debate of
// the format takes the file's value, a flag overrides it, 'parley config'
// lists it with its source, and a bad value or a mistyped key is said in
// the file's terms, the key among those the file takes.
func TestNewFormatsOptionIsAConfigKey(t *testing.T) {
	ctx := context.Background()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	factory := func() *Factory {
		f := testFactory(t, "", false)
		f.Formats = withToy(t)
		f.Env = func(k string) string { return map[string]string{"PARLEY_CONFIG": cfg}[k] }
		return f
	}
	write := func(s string) {
		if err := os.WriteFile(cfg, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("toy_level: 7\n")
	f := factory()
	for _, args := range [][]string{{}, {"--toy-level", "5"}} {
		if out, err := runCmd(ctx, f, append([]string{"debate", "Is a toy a game?", "--format", "toy"}, args...)...); err != nil {
			t.Fatalf("debate %v: %v\n%s", args, err, out)
		}
	}
	if got := toyLevels(t, ctx, f); len(got) != 2 || got[0] != 7 || got[1] != 5 {
		t.Errorf("levels %v, want 7 from the config file, then 5 from the flag over it", got)
	}

	f = factory()
	out, err := runCmd(ctx, f, "config")
	if err != nil || !regexp.MustCompile(`(?m)^toy_level +7 +config file `+regexp.QuoteMeta(cfg)+`$`).MatchString(out) {
		t.Errorf("parley config (%v) does not list toy_level 7 from the file:\n%s", err, out)
	}

	for file, says := range map[string]string{
		"toy_level: high\n": `line 1: toy_level: "high" is not a whole number`,
		"toy_levle: 7\n":    `line 1: unknown key "toy_levle" (the keys at the top level: provider,`,
	} {
		write(file)
		f := factory()
		_, err := runCmd(ctx, f, "debate", "Is a toy a game?", "--format", "toy")
		if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), says) || (strings.Contains(says, "unknown") && !strings.Contains(err.Error(), " toy_level,")) {
			t.Errorf("config %q: %v (exit %d), want bad input saying %q with toy_level among the keys", file, err, ExitCode(err), says)
		}
	}
	// The file's value is the toy's to check, as the flag's is.
	write("toy_level: 12\n")
	if _, err := runCmd(ctx, factory(), "debate", "Is a toy a game?", "--format", "toy"); err == nil || !strings.Contains(err.Error(), "--toy-level 12: choose 1 to 9") {
		t.Errorf("toy_level 12 from the file: %v, want the toy's refusal", err)
	}
}

// TestNewFormatsOptionIsABatchFlag: parley batch, which runs any format
// (--format), takes a registered format's option as a flag too, from the
// same registry as parley debate, with nothing of batch written for it: its
// help offers it, each item's debate is created with its value, and the
// config file's value is the default a flag overrides, as in parley debate.
func TestNewFormatsOptionIsABatchFlag(t *testing.T) {
	ctx := context.Background()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("toy_level: 4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	factory := func() *Factory {
		f := testFactory(t, "", false)
		f.Formats = withToy(t)
		f.Env = func(k string) string { return map[string]string{"PARLEY_CONFIG": cfg}[k] }
		return f
	}
	help, err := runCmd(ctx, factory(), "batch", "--help")
	if err != nil || !strings.Contains(help, "--toy-level int") || !strings.Contains(help, "how hard the toy plays (toy: 1-9) (default 3)") {
		t.Errorf("batch --help (%v) does not offer --toy-level with its usage and default:\n%s", err, help)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--toy-level", "7"}, 7},
		{nil, 4},
	} {
		f := factory()
		args := append([]string{"batch", "Is a toy a game?", "Is a ball a toy?", "--format", "toy", "--json", "--refresh", "10ms"}, tc.args...)
		out, err := runCmd(ctx, f, args...)
		if err != nil {
			t.Fatalf("batch %v: %v\n%s", tc.args, err, out)
		}
		var rows []BatchRow
		if err := json.Unmarshal([]byte(f.IO.Out.(interface{ String() string }).String()), &rows); err != nil || len(rows) != 2 || rows[0].Status != batchDone || rows[1].Status != batchDone {
			t.Fatalf("batch %v: %+v, %v; want two debates done\n%s", tc.args, rows, err, out)
		}
		if got := toyLevels(t, ctx, f); len(got) != 2 || got[0] != tc.want || got[1] != tc.want {
			t.Errorf("batch %v: levels %v, want %d for each item", tc.args, got, tc.want)
		}
	}
	f := factory()
	if _, err := runCmd(ctx, f, "batch", "Is a toy a game?", "--format", "toy", "--json", "--toy-level", "12"); err == nil || !strings.Contains(err.Error(), "--toy-level 12: choose 1 to 9") {
		t.Errorf("batch --toy-level 12: %v, want the item refused by the toy", err)
	}
}
