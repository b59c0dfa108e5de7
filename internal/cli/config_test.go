package cli

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/shell"
)

// TestShellTheme: the shell's theme comes from --theme, then PARLEY_THEME,
// then the config file, else auto; `parley config` shows it with its
// source, and a wrong value anywhere is bad input naming the themes.
func TestShellTheme(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("theme: light\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	envs := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	withFile := map[string]string{"PARLEY_CONFIG": cfg}
	c, err := loadConfig(envs(withFile), app.DefaultFormats())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		env        map[string]string
		flag       string
		given      bool
		want       shell.Theme
		wantSource string
	}{
		{"file", withFile, "", false, shell.ThemeLight, "config file " + cfg},
		{"environment over file", map[string]string{"PARLEY_CONFIG": cfg, "PARLEY_THEME": "dark"}, "", false, shell.ThemeDark, "environment PARLEY_THEME"},
		{"flag over environment", map[string]string{"PARLEY_CONFIG": cfg, "PARLEY_THEME": "dark"}, "auto", true, shell.ThemeAuto, "flag --theme"},
	} {
		got, s, err := shellTheme(c, tc.flag, tc.given, envs(tc.env))
		if err != nil || got != tc.want || s.source != tc.wantSource || s.key != "theme" {
			t.Errorf("%s: %q from %q (%v), want %q from %q", tc.name, got, s.source, err, tc.want, tc.wantSource)
		}
	}
	if got, s, err := shellTheme(&Config{}, "", false, envs(nil)); err != nil || got != shell.ThemeAuto || s.source != "default" {
		t.Errorf("nothing given: %q from %q (%v), want auto by default", got, s.source, err)
	}
	for name, bad := range map[string]func() error{
		"flag --theme": func() error { _, _, err := shellTheme(c, "blue", true, envs(withFile)); return err },
		"environment PARLEY_THEME": func() error {
			_, _, err := shellTheme(c, "", false, envs(map[string]string{"PARLEY_THEME": "blue"}))
			return err
		},
		"config file " + cfg: func() error {
			if err := os.WriteFile(cfg, []byte("theme: blue\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := loadConfig(envs(withFile), app.DefaultFormats())
			return err
		},
	} {
		err := bad()
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), `"blue"`) ||
			!strings.Contains(err.Error(), "auto") || !strings.Contains(err.Error(), "dark or light") {
			t.Errorf("%s blue: %v, want bad input naming where it came from and the themes", name, err)
		}
	}
}

// TestConfigShowsTheme: `parley config` lists the theme and its source,
// and `parley shell --theme` with a wrong value is bad input before
// anything else is checked.
func TestConfigShowsTheme(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("theme: Light\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := testFactory(t, "", false)
	f.Env = func(k string) string {
		if k == "PARLEY_CONFIG" {
			return cfg
		}
		return ""
	}
	root := NewRootCmd(f)
	root.SetArgs([]string{"config"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	out := f.IO.Out.(interface{ String() string }).String()
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "theme ") {
			row = l
		}
	}
	if !strings.Contains(row, "light") || !strings.Contains(row, "config file "+cfg) {
		t.Errorf("parley config: theme row %q, want light from the file:\n%s", row, out)
	}
	root = NewRootCmd(f)
	root.SetArgs([]string{"shell", "--theme", "sepia"})
	if err := root.Execute(); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "sepia") || !strings.Contains(err.Error(), "dark or light") {
		t.Errorf("parley shell --theme sepia: %v (exit %d), want bad input naming the themes", err, ExitCode(err))
	}
}

// TestConfigProblems: a config file the decoder refuses is explained in the
// file's terms, line by line: an unknown key with the keys of its block, a
// value of the wrong kind with the kind wanted; never a Go type.
func TestConfigProblems(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"top-level key", "bogus: 1\n", []string{`line 1: unknown key "bogus" (the keys at the top level: provider, model, models,`, "prices_file, debate)"}},
		{"debate block key", "max_rounds: 3\ndebate:\n  bogus: 1\n", []string{`line 3: unknown key "bogus" (the keys under debate: max_rounds, default_perspectives,`}},
		{"perspective key", "debate:\n  custom_perspectives:\n    - name: X\n      colour: red\n", []string{`line 4: unknown key "colour" (the keys under custom_perspectives: name, priorities, trade_offs, keywords, tensions)`}},
		{"provider", "provider: gemini\n", []string{`provider "gemini": unknown provider; choose one of anthropic, ollama, openai`}},
		{"model with a space", "model: \"gpt 4.1\"\n", []string{`model "gpt 4.1": a model name has no spaces`}},
		{"blank model", "model: \" \"\n", []string{`model " " is blank`}},
		{"role's model with a space", "models:\n  moderator: openai/claude opus\n", []string{`models: moderator "claude opus": a model name has no spaces`}},
		// Refused as the flags are, named as the file's keys.
		{"call timeout 0", "call_timeout: 0s\n", []string{`call_timeout 0s: give a positive time limit, such as 2m (0 is not "no limit")`}},
		{"negative round timeout", "round_timeout: -1m\n", []string{`round_timeout -1m0s: give a positive time limit`}},
		{"spec's timeout in seconds 0", "debate:\n  total_timeout_seconds: 0\n", []string{`debate: total_timeout_seconds 0: give a positive time limit, such as 1800`}},
		{"values", "max_rounds: abc\nround_timeout: soon\nmodels: 3\n", []string{`line 1: max_rounds: "abc" is not a whole number`, `line 2: round_timeout: "soon" is not a duration such as 2m or 90s`, `line 3: models: "3" is not a block of keys`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(cfg, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := loadConfig(func(k string) string { return map[string]string{"PARLEY_CONFIG": cfg}[k] }, app.DefaultFormats())
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%s", w, err)
				}
			}
			if !strings.HasPrefix(err.Error(), "config file "+cfg+": ") || strings.Contains(err.Error(), "cli.") || strings.Contains(err.Error(), "struct") || strings.Contains(err.Error(), "!!") {
				t.Errorf("the error does not name the file, or names Go or YAML types:\n%s", err)
			}
		})
	}
}

// TestConfigShowsTheDetectedModel: with no provider or model set, parley
// config shows the ones a debate would use, picked from the environment's
// keys, not a placeholder; with nothing configured, how to configure one.
func TestConfigShowsTheDetectedModel(t *testing.T) {
	for _, c := range []struct {
		env             map[string]string
		provider, model string
	}{
		{map[string]string{"OPENAI_API_KEY": "sk-x"}, "openai", "gpt-4.1"},
		{map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x", "PARLEY_MODEL": "claude-opus-4-1"}, "anthropic", "claude-opus-4-1"},
		{map[string]string{}, "none (set ANTHROPIC_API_KEY", "none (set ANTHROPIC_API_KEY"},
	} {
		f := testFactory(t, "", false)
		env := c.env
		env["PARLEY_CONFIG"] = os.DevNull
		f.Env = func(k string) string { return env[k] }
		root := NewRootCmd(f)
		root.SetArgs([]string{"config"})
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		out := f.IO.Out.(interface{ String() string }).String()
		for _, l := range strings.Split(out, "\n") {
			cols := strings.Fields(l)
			if len(cols) < 2 {
				continue
			}
			if (cols[0] == "provider" && !strings.Contains(l, c.provider)) || (cols[0] == "model" && !strings.Contains(l, c.model)) {
				t.Errorf("%v: row %q, want %s / %s:\n%s", c.env, l, c.provider, c.model, out)
			}
		}
	}
}

// TestConfigShowsTheBaseURL: a provider pointed elsewhere (a local server,
// a gateway) shows the server a debate will talk to, and where that came
// from; without one there is no such row.
func TestConfigShowsTheBaseURL(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OPENAI_API_KEY": "sk-x", "OPENAI_BASE_URL": "http://localhost:8000/v1"}, "environment OPENAI_BASE_URL"},
		{map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x", "ANTHROPIC_BASE_URL": "http://gateway.internal"}, "environment ANTHROPIC_BASE_URL"},
		{map[string]string{"OPENAI_API_KEY": "sk-x"}, ""},
	} {
		f := testFactory(t, "", false)
		env := c.env
		env["PARLEY_CONFIG"] = os.DevNull
		f.Env = func(k string) string { return env[k] }
		root := NewRootCmd(f)
		root.SetArgs([]string{"config"})
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		out := f.IO.Out.(interface{ String() string }).String()
		var row string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "base_url ") {
				row = l
			}
		}
		switch {
		case c.want == "" && row != "":
			t.Errorf("%v: a base_url row with no base URL set: %q", c.env, row)
		case c.want != "" && (!strings.Contains(row, c.want) || !strings.Contains(row, "http")):
			t.Errorf("%v: base_url row %q, want the URL from %s:\n%s", c.env, row, c.want, out)
		}
	}
}

// TestConfigShowsTheDatabase: 'parley config' names the database the
// commands use and what chose it (a flag, the environment, the default),
// without a URL's password; where the debates were kept was shown nowhere.
func TestConfigShowsTheDatabase(t *testing.T) {
	for _, c := range []struct {
		args          []string
		env           map[string]string
		value, source string
		withheld      string
	}{
		{[]string{"--db", "/tmp/x/p.db", "config"}, nil, "/tmp/x/p.db", "flag --db", ""},
		{[]string{"config"}, map[string]string{"PARLEY_DB": "/tmp/y.db"}, "/tmp/y.db", "environment PARLEY_DB", ""},
		{[]string{"config"}, map[string]string{"PARLEY_DATABASE_URL": "postgres://u:s3cret@db:5432/p"}, "@db:5432/p", "environment PARLEY_DATABASE_URL", "s3cret"},
		{[]string{"config"}, nil, "parley.db", "default", ""},
	} {
		f := testFactory(t, "", false)
		env := map[string]string{"PARLEY_CONFIG": os.DevNull}
		for k, v := range c.env {
			env[k] = v
		}
		f.Env = func(k string) string { return env[k] }
		root := NewRootCmd(f)
		root.SetArgs(c.args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		out := f.IO.Out.(interface{ String() string }).String()
		var row string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "database ") {
				row = l
			}
		}
		if f := strings.Fields(row); len(f) != len(strings.Fields(c.source))+2 || !strings.HasSuffix(f[1], c.value) || strings.Join(f[2:], " ") != c.source ||
			(c.withheld != "" && strings.Contains(out, c.withheld)) {
			t.Errorf("%v %v: database row %q, want %q from %s (and no %q):\n%s", c.args, c.env, row, c.value, c.source, c.withheld, out)
		}
	}
}

// TestConfigShowsValuesInert: 'parley config' prints the values it read
// (from the environment, the config file) with their control characters
// made visible: a value that carries a terminal sequence (a title set, a
// screen clear) or a bidi override printed them raw to the terminal.
func TestConfigShowsValuesInert(t *testing.T) {
	f := testFactory(t, "", false)
	env := map[string]string{
		"PARLEY_CONFIG":   os.DevNull,
		"OPENAI_API_KEY":  "sk-x",
		"PARLEY_MODEL":    "gpt\x1b]0;pwned\x07\x1b[2J",
		"OPENAI_BASE_URL": "http://localhost:8000/v1\u202e",
	}
	f.Env = func(k string) string { return env[k] }
	root := NewRootCmd(f)
	root.SetArgs([]string{"config"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	out := f.IO.Out.(interface{ String() string }).String()
	if strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("config prints a control character:\n%q", out)
	}
	if !strings.Contains(out, "gpt␛]0;pwned␇") {
		t.Errorf("config does not show the model, made visible:\n%s", out)
	}
}

// TestConfigFormatKeys: the keys that gave the formats' options before
// they came from the registry give the same ones: max_rounds, perspectives,
// catalog at the top level, and the specification's debate: block
// (max_rounds, default_perspectives, custom_perspectives), the top level
// winning over the block; a flag given wins over both, and a value from the
// file is a default (FromConfig), never a flag given.
func TestConfigFormatKeys(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		flags      map[string]any
		want       setup.Values
		custom     string
	}{
		{"top level", "max_rounds: 2\nperspectives: 3\ncatalog: /srv/parley/cat.yaml\n", nil,
			setup.Values{"max-rounds": 2, "perspectives": 3, "catalog": "/srv/parley/cat.yaml"}, ""},
		{"the specification's block", "debate:\n  max_rounds: 4\n  default_perspectives: 2\n  custom_perspectives:\n    - name: Compliance First\n      priorities: [audit trails]\n      trade_offs: slower delivery\n", nil,
			setup.Values{"max-rounds": 4, "perspectives": 2}, "Compliance First"},
		{"the top level over the block", "max_rounds: 2\ncustom_perspectives:\n  - name: A\n    priorities: [a]\ndebate:\n  max_rounds: 4\n  custom_perspectives:\n    - name: B\n      priorities: [b]\n", nil,
			setup.Values{"max-rounds": 2}, "A"},
		{"flags over the file", "max_rounds: 2\nperspectives: 3\nagents: [saylor, hayes]\ndeep: true\n", map[string]any{"max-rounds": 1, "agents": []string{"taleb"}},
			setup.Values{"max-rounds": 1, "perspectives": 3, "agents": []string{"taleb"}, "deep": true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, env := configFile(t, t.TempDir(), tc.file)
			o := defaultDebateOptions()
			o.Values = setup.Values{}
			maps.Copy(o.Values, tc.flags)
			o.set = func(name string) bool { _, ok := tc.flags[name]; return ok }
			if _, err := applyConfig(c, o, o.set, env); err != nil {
				t.Fatal(err)
			}
			custom, _ := o.Values[perspectives.CustomOption].(perspectives.Custom)
			delete(o.Values, perspectives.CustomOption)
			if !reflect.DeepEqual(o.Values, tc.want) || custom.String() != tc.custom {
				t.Errorf("values %v, custom perspectives %q; want %v, %q", o.Values, custom, tc.want, tc.custom)
			}
			req := o.startRequest().Request
			for name := range o.Values {
				_, flag := tc.flags[name]
				if req.Set(name) != flag || slices.Contains(req.FromConfig, name) == flag {
					t.Errorf("%s: given %v, from the config file %v; want given only as a flag", name, req.Set(name), req.FromConfig)
				}
			}
		})
	}
}

// TestConfigKeyClash: a format option whose key would be one of the config
// file's own settings is a format's mistake, said naming both.
func TestConfigKeyClash(t *testing.T) {
	union := []setup.Declared{{Option: setup.Option{Name: "theme", Kind: setup.String}, Formats: []string{"toy"}}}
	if _, err := newConfigSchema(union); err == nil || !strings.Contains(err.Error(), `option theme of toy: its config file key "theme" is one of the file's own settings`) {
		t.Errorf("a clash with theme: %v", err)
	}
}

// The config file's provider and models are defaults for the runs with a
// model: --offline goes on without them (as without the environment's),
// and parley config's rows say they were not used. It refused them as if
// they were --provider/--model/--model-for given on its command line.
func TestOfflineLeavesTheConfigFilesModels(t *testing.T) {
	c, env := configFile(t, t.TempDir(), "provider: anthropic\nmodel: claude-sonnet-4-5\nmodels:\n  bear: openai/gpt-4.1\n")
	for _, offline := range []bool{false, true} {
		o := defaultDebateOptions()
		o.Offline = offline
		o.set = func(name string) bool { return offline && name == "offline" }
		settings, err := applyConfig(c, o, o.set, env)
		if err != nil {
			t.Fatal(err)
		}
		if o.Models.Given() == offline {
			t.Errorf("offline %v: models %+v from the config file", offline, o.Models)
		}
		for _, s := range settings {
			if s.key == "provider" || s.key == "model" || s.key == "models.bear" {
				if notUsed := strings.Contains(s.source, "not used"); notUsed != offline {
					t.Errorf("offline %v: %s from %q", offline, s.key, s.source)
				}
			}
		}
	}
	// And the debate runs, data-only.
	f := testFactory(t, "", false)
	f.Env = env
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cmd := newDebateCmd(f, nil)
	cmd.SetArgs([]string{"NVDA", "--offline"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("parley debate NVDA --offline with a model in the config file: %v", err)
	}
}

// A config file's values are written as its reader expects them: a file it
// names relative to itself (as prices_file), wherever parley runs; a
// comma-separated option as a list or as the flag takes it; a list of
// whole items (hints) as a list or one item.
func TestConfigValuesAsWritten(t *testing.T) {
	dir := t.TempDir()
	c, env := configFile(t, dir, "catalog: catalogs/mine.yaml\nagents: saylor, hayes\nhints: 'bull: margins, not growth'\ncontext: /srv/repo\n")
	o := defaultDebateOptions()
	o.Values = setup.Values{}
	if _, err := applyConfig(c, o, o.set, env); err != nil {
		t.Fatal(err)
	}
	want := setup.Values{"catalog": filepath.Join(dir, "catalogs", "mine.yaml"), "agents": []string{"saylor", "hayes"},
		"hint": []string{"bull: margins, not growth"}, "context": "/srv/repo"}
	if !reflect.DeepEqual(o.Values, want) {
		t.Errorf("values %v, want %v", o.Values, want)
	}
}

// configFile writes a config file of text as dir/config.yaml and loads it
// with the shipped formats; env names it (PARLEY_CONFIG).
func configFile(t *testing.T, dir, text string) (*Config, func(string) string) {
	t.Helper()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string { return map[string]string{"PARLEY_CONFIG": cfg}[k] }
	c, err := loadConfig(env, app.DefaultFormats())
	if err != nil {
		t.Fatal(err)
	}
	return c, env
}
