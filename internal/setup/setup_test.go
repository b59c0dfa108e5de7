package setup

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
)

// TestNoModelWording: the error carries the format; the command line's
// wording names its flags, the API's names its request fields and not the
// flags.
func TestNoModelWording(t *testing.T) {
	err := NeedModel("crux", &debate.Cast{})
	var nm *ErrNoModelConfigured
	if !errors.As(err, &nm) || nm.Format != "crux" {
		t.Fatalf("NeedModel with an empty cast: %v, want *ErrNoModelConfigured for crux", err)
	}
	if cli := err.Error(); !strings.Contains(cli, "the crux format needs a language model") || !strings.Contains(cli, "--provider") {
		t.Errorf("command-line wording: %s", cli)
	}
	api := nm.ForAPI()
	if !strings.Contains(api, "the crux format needs a language model") || !strings.Contains(api, `"model_for"`) || strings.Contains(api, "--") {
		t.Errorf("API wording: %s", api)
	}
}

// TestOptionErrorNamesTheFlag: on the command line an option's error names
// its flag and says what only the command line can do; the problem alone
// is what other front-ends word with their own names.
func TestOptionErrorNamesTheFlag(t *testing.T) {
	e := &OptionError{Option: "agents", Problem: `no persona "zz"; known: a, b`, Local: "add your own with --personas FILE"}
	if got, want := e.Error(), `--agents: no persona "zz"; known: a, b (add your own with --personas FILE)`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e.Local = ""
	if got, want := e.Error(), `--agents: no persona "zz"; known: a, b`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestHowToConfigureFitsATerminal: every line of the advice fits an
// 80-column terminal as the shell shows it, four columns in, so that no
// command in it is folded in two.
func TestHowToConfigureFitsATerminal(t *testing.T) {
	for _, line := range strings.Split(HowToConfigure, "\n") {
		if n := utf8.RuneCountInString(line); n+4 >= 80 {
			t.Errorf("line of %d columns, want under 76: %q", n, line)
		}
	}
}
