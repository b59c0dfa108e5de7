package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/shell"
)

// /debate in the shell reads its words with 'parley debate”s own flags:
// a ticker makes a bull vs. bear debate, --format picks another, --help
// gives the usage and a wrong flag is bad input.
func TestParseDebateForTheShell(t *testing.T) {
	f := testFactory(t, "", false)
	ctx := context.Background()
	req, err := f.parseDebate(ctx, []string{"NVDA", "--deep", "--framework", "piotroski", "--turn-budget", "9000"})
	if err != nil {
		t.Fatal(err)
	}
	s := req.Start
	if s.Format != bullbear.Name || s.Topic != "NVDA" || !s.Bool("deep") || s.String("framework") != "piotroski" || s.Limits.TurnBudget != 9000 || s.Set("format") {
		t.Errorf("/debate NVDA --deep --framework piotroski: %+v", s)
	}
	var l debate.Limits
	req.Limits(&l)
	if l.TurnBudget != 9000 {
		t.Errorf("the budget given is not applied on resume: %+v", l)
	}
	req, err = f.parseDebate(ctx, []string{"Kafka or RabbitMQ?", "--format", "council"})
	if err != nil || req.Start.Format != "council" || req.Start.Topic != "Kafka or RabbitMQ?" || !req.Start.Set("format") {
		t.Errorf("council: %+v, %v", req, err)
	}
	if req, err := f.parseDebate(ctx, []string{"--resume", "DEB-1a2b"}); err != nil || req.Resume != "DEB-1a2b" {
		t.Errorf("--resume: %+v, %v", req, err)
	}
	if req, err := f.parseDebate(ctx, []string{"--help"}); err != nil || !strings.Contains(req.Help, "--deep") || !strings.Contains(req.Help, "/debate TOPIC|TICKER") {
		t.Errorf("--help: %+v, %v", req, err)
	}
	// --json has no stream to write in the shell: refused, not ignored.
	if _, err := f.parseDebate(ctx, []string{"NVDA", "--offline", "--json"}); err == nil || !strings.Contains(err.Error(), "--json is for scripts") {
		t.Errorf("--json in the shell: %v, want it refused", err)
	}
	// A topic of several words, unquoted as typed: the words are the
	// topic when they stand together, before, after or between flags.
	for _, line := range [][]string{
		{"Should", "we", "use", "Redis?", "--format", "council"},
		{"--format", "council", "Should", "we", "use", "Redis?"},
	} {
		req, err := f.parseDebate(ctx, line)
		if err != nil || req.Start.Topic != "Should we use Redis?" || req.Start.Format != "council" {
			t.Errorf("/debate %s: %+v, %v", strings.Join(line, " "), req, err)
		}
	}
	for _, bad := range [][]string{{"NVDA", "--bogus"}, {}, {"Redis", "--format", "council", "Postgres"}, {"--resume", "DEB-1a2b", "and", "more"}} {
		_, err := f.parseDebate(ctx, bad)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
	if _, err := f.parseDebate(ctx, []string{"Redis", "--format", "council", "Postgres"}); err == nil || !strings.Contains(err.Error(), "split by a flag") {
		t.Errorf("a topic split by a flag: %v, want it said", err)
	}
	// The shell's example is its own command, not the command line's.
	if _, err := f.parseDebate(ctx, nil); err == nil || !strings.Contains(err.Error(), `/debate "Should`) || strings.Contains(err.Error(), "parley debate") {
		t.Errorf("no topic: %v, want the /debate form", err)
	}
}

// Without a terminal, parley prints its help and the shell refuses to open.
func TestShellNeedsATerminal(t *testing.T) {
	f := testFactory(t, "", false)
	root := NewRootCmd(f)
	root.SetArgs(nil)
	if err := root.Execute(); err != nil {
		t.Fatalf("parley with no arguments and no terminal: %v", err)
	}
	if out := f.IO.Out.(interface{ String() string }).String(); !strings.Contains(out, "Available Commands") || !strings.Contains(out, "shell") {
		t.Errorf("help:\n%s", out)
	}
	if errOut := f.IO.ErrOut.(interface{ String() string }).String(); errOut != "" {
		t.Errorf("parley with no terminal at all wrote on standard error: %q", errOut)
	}
	// Standard input piped ("echo /list | parley") on a terminal: the help,
	// and a note that what was piped is not read.
	piped := testFactory(t, "/list\n", false)
	piped.IO.SetTerminal(true, false, false)
	root = NewRootCmd(piped)
	root.SetArgs(nil)
	if err := root.Execute(); err != nil {
		t.Fatalf("parley with standard input piped: %v", err)
	}
	if errOut := piped.IO.ErrOut.(interface{ String() string }).String(); !strings.Contains(errOut, "standard input is not a terminal, so the shell does not open and what it holds is not read") {
		t.Errorf("parley with standard input piped says nothing of it: %q", errOut)
	}
	root = NewRootCmd(f)
	root.SetArgs([]string{"shell"})
	err := root.Execute()
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "needs a terminal") {
		t.Errorf("parley shell without a terminal: %v", err)
	}
}

// The shell gets the terminal's COLORFGBG from parley's environment (its
// first guess at the background with the auto theme), and the theme.
func TestShellOptionsColorFGBG(t *testing.T) {
	for _, v := range []string{"0;15", "15;default;0", ""} {
		f := testFactory(t, "", true)
		f.Env = func(k string) string {
			if k == "COLORFGBG" {
				return v
			}
			return ""
		}
		o := f.shellOptions(&app.App{}, shell.ThemeAuto, shell.DefaultPace)
		if o.ColorFGBG != v || o.Theme != shell.ThemeAuto || o.Pace != shell.DefaultPace {
			t.Errorf("COLORFGBG=%q: options have ColorFGBG %q, theme %q, pace %s", v, o.ColorFGBG, o.Theme, o.Pace)
		}
	}
}

// `parley` with no command opens the shell on a terminal and takes its
// flags, as `parley shell` does: a bad --theme or --pace is bad input, read
// before the shell starts, and piped too, where a good one prints the help.
func TestRootTakesTheShellFlags(t *testing.T) {
	for _, args := range [][]string{{"--theme", "purple"}, {"--pace", "-1s"}} {
		for _, terminal := range []bool{true, false} {
			f := testFactory(t, "", terminal)
			f.IO.SetTerminal(terminal, terminal, false)
			root := NewRootCmd(f)
			root.SetArgs(args)
			err := root.ExecuteContext(context.Background())
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), args[1]) || strings.Contains(err.Error(), "unknown flag") {
				t.Errorf("parley %s (terminal %t): %v, want a usage error naming the value", strings.Join(args, " "), terminal, err)
			}
		}
	}
	f := testFactory(t, "", false)
	root := NewRootCmd(f)
	root.SetArgs([]string{"--theme", "light"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Errorf("parley --theme light, piped: %v, want the help", err)
	}
}

// /debate's bad flag values read as 'parley debate' words them, not as
// the flag parser's strconv errors.
func TestParseDebateFlagValues(t *testing.T) {
	f := testFactory(t, "", false)
	for args, want := range map[string]string{
		"x --max-rounds abc":     `--max-rounds "abc" is not a whole number`,
		"x --round-timeout soon": `--round-timeout "soon" is not a duration`,
	} {
		_, err := f.parseDebate(context.Background(), strings.Fields(args))
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "strconv") {
			t.Errorf("/debate %s: %v, want %q", args, err, want)
		}
	}
}
