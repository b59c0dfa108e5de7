package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/shell"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/yamlfile"
)

// Config is the settings file, $XDG_CONFIG_HOME/parley/config.yaml
// (~/.config/parley/config.yaml; PARLEY_CONFIG names another). It gives
// defaults; the environment and flags override it:
// flags > environment > config file > built-in defaults.
type Config struct {
	Provider      string            `yaml:"provider"`
	Model         string            `yaml:"model"`
	Models        map[string]string `yaml:"models"` // role → [provider/]model
	TurnBudget    *budgetFlag       `yaml:"turn_budget"`
	DebateBudget  *budgetFlag       `yaml:"debate_budget"`
	RoundTimeout  *time.Duration    `yaml:"round_timeout"`
	DebateTimeout *time.Duration    `yaml:"debate_timeout"`
	CallTimeout   *time.Duration    `yaml:"call_timeout"`
	CheckpointTO  *time.Duration    `yaml:"checkpoint_timeout"`
	MaxRounds     *int              `yaml:"max_rounds"`
	Perspectives  *int              `yaml:"perspectives"`
	Catalog       string            `yaml:"catalog"`
	DecisionsDir  string            `yaml:"decisions_dir"`
	Theme         string            `yaml:"theme"` // the shell's palette: auto, dark or light
	// Prices are price overrides, model or provider/model → its price in
	// USD per million tokens (pricing.Decode's form); PricesFile names a
	// file of them, relative to this file. See priceTable.
	Prices     yaml.Node `yaml:"prices"`
	PricesFile string    `yaml:"prices_file"`
	// Debate is the perspectives specification's settings block, accepted
	// as written there.
	Debate struct {
		MaxRounds           *int                       `yaml:"max_rounds"`
		DefaultPerspectives *int                       `yaml:"default_perspectives"`
		TokenBudgetPerRound *budgetFlag                `yaml:"token_budget_per_round"`
		RoundTimeoutSeconds *int                       `yaml:"round_timeout_seconds"`
		CheckpointTimeoutS  *int                       `yaml:"checkpoint_timeout_seconds"`
		TotalTimeoutSeconds *int                       `yaml:"total_timeout_seconds"`
		CustomPerspectives  []perspectives.Perspective `yaml:"custom_perspectives"`
	} `yaml:"debate"`

	path string
}

// UnmarshalYAML reads a budget as a number or "unlimited".
func (b *budgetFlag) UnmarshalYAML(n *yaml.Node) error {
	return b.Set(n.Value)
}

// configPath is where the config file is looked for.
func configPath(env func(string) string) string {
	if p := env("PARLEY_CONFIG"); p != "" {
		return p
	}
	dir := env("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "parley", "config.yaml")
}

// loadConfig reads the config file; a missing default file is an empty
// config, a missing file PARLEY_CONFIG names an error. An
// unknown key or a bad value is an error naming it and the file.
func loadConfig(env func(string) string) (*Config, error) {
	c := &Config{path: configPath(env)}
	if c.path == "" {
		return c, nil
	}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		if env("PARLEY_CONFIG") != "" {
			// Named on purpose: a typo must not drop the settings in silence.
			return nil, &UsageError{Err: fmt.Errorf("PARLEY_CONFIG names %s, which does not exist: correct the path, or unset PARLEY_CONFIG to use the default file", c.path)}
		}
		return c, nil
	}
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("read the config file %s: %w", c.path, err)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		err, _ = yamlfile.Problems(err, reflect.TypeFor[Config](), data)
		return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
	}
	if _, err := shell.ParseTheme(c.Theme); err != nil {
		return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
	}
	// Checked here, as the theme is: applied to a debate it read as a
	// --provider flag the user never passed, and `parley config` showed it
	// as a setting like any other.
	if p := strings.ToLower(strings.TrimSpace(c.Provider)); p != "" {
		if err := app.CheckProvider("provider", p); err != nil {
			return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
		}
	}
	// Named as the file's keys, not as the --model flag they stand for.
	if c.Model != "" {
		if err := app.CheckModelName("model", c.Model); err != nil {
			return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
		}
	}
	for _, role := range slices.Sorted(maps.Keys(c.Models)) {
		ref := c.Models[role]
		if p, m, ok := strings.Cut(ref, "/"); ok && app.CheckProvider("", strings.ToLower(p)) == nil {
			ref = m
		}
		if err := app.CheckModelName("models: "+role, ref); err != nil {
			return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
		}
	}
	return c, nil
}

// shellTheme is the shell's palette and where it came from: the --theme
// flag (given says whether it was), then PARLEY_THEME, then the config
// file, else auto, which follows the terminal's background.
func shellTheme(c *Config, flag string, given bool, env func(string) string) (shell.Theme, setting, error) {
	value, source := "", "default"
	switch {
	case given:
		value, source = flag, "flag --theme"
	case env("PARLEY_THEME") != "":
		value, source = env("PARLEY_THEME"), "environment PARLEY_THEME"
	case c.Theme != "":
		value, source = c.Theme, "config file "+c.path
	}
	t, err := shell.ParseTheme(value)
	if err != nil {
		return "", setting{}, &UsageError{Err: fmt.Errorf("%s: %w", source, err)}
	}
	shown := string(t)
	if t == shell.ThemeAuto {
		shown += " (the terminal's background)"
	}
	return t, setting{"theme", shown, source}, nil
}

// setting is one effective setting and where it came from.
type setting struct{ key, value, source string }

// applyConfig fills the debate options the user did not give as flags from
// the config file, and reports every setting with its source. The
// environment's PARLEY_PROVIDER and PARLEY_MODEL rank above the file.
func applyConfig(c *Config, o *DebateOptions, set func(string) bool, env func(string) string) ([]setting, error) {
	var out []setting
	src := "config file " + c.path
	pick := func(key, flag string, has bool, apply func() string, current func() string) {
		switch {
		case set != nil && set(flag):
			out = append(out, setting{key, current(), "flag --" + flag})
		case has:
			out = append(out, setting{key, apply(), src})
		default:
			out = append(out, setting{key, current(), "default"})
		}
	}
	dur := func(d time.Duration) string { return d.String() }
	secs := func(p *int) *time.Duration {
		if p == nil {
			return nil
		}
		d := time.Duration(*p) * time.Second
		return &d
	}
	first := func(ds ...*time.Duration) *time.Duration {
		for _, d := range ds {
			if d != nil {
				return d
			}
		}
		return nil
	}
	// Provider and model: flags, then the environment, then the file.
	for _, pm := range []struct {
		key, flag, envVar, file string
		dst                     *string
	}{
		{"provider", "provider", "PARLEY_PROVIDER", c.Provider, &o.Models.Provider},
		{"model", "model", "PARLEY_MODEL", c.Model, &o.Models.Model},
	} {
		switch {
		case set != nil && set(pm.flag):
			out = append(out, setting{pm.key, *pm.dst, "flag --" + pm.flag})
		case env(pm.envVar) != "":
			out = append(out, setting{pm.key, env(pm.envVar), "environment " + pm.envVar})
		case pm.file != "":
			*pm.dst = pm.file
			out = append(out, setting{pm.key, pm.file, src})
		default:
			out = append(out, setting{pm.key, "(detected from the API keys in the environment)", "default"})
		}
	}
	given := map[string]bool{}
	for _, spec := range o.Models.ModelFor {
		role, _, _ := strings.Cut(spec, "=")
		given[strings.TrimSpace(role)] = true
	}
	roles := make([]string, 0, len(c.Models))
	for r := range c.Models {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	for _, r := range roles {
		if given[r] {
			continue
		}
		o.Models.ModelFor = append(o.Models.ModelFor, r+"="+c.Models[r])
		out = append(out, setting{"models." + r, c.Models[r], src})
	}
	tb := c.TurnBudget
	if tb == nil {
		tb = c.Debate.TokenBudgetPerRound
	}
	pick("turn_budget", "turn-budget", tb != nil, func() string { o.TurnBudget = int(*tb); return tb.String() }, func() string { return (*budgetFlag)(&o.TurnBudget).String() })
	pick("debate_budget", "debate-budget", c.DebateBudget != nil, func() string { o.DebateBudget = int(*c.DebateBudget); return c.DebateBudget.String() }, func() string { return (*budgetFlag)(&o.DebateBudget).String() })
	rt := first(c.RoundTimeout, secs(c.Debate.RoundTimeoutSeconds))
	pick("round_timeout", "round-timeout", rt != nil, func() string { o.RoundTimeout = *rt; return dur(*rt) }, func() string { return dur(o.RoundTimeout) })
	dt := first(c.DebateTimeout, secs(c.Debate.TotalTimeoutSeconds))
	pick("debate_timeout", "debate-timeout", dt != nil, func() string { o.DebateTimeout = *dt; return dur(*dt) }, func() string { return dur(o.DebateTimeout) })
	pick("call_timeout", "call-timeout", c.CallTimeout != nil, func() string { o.CallTimeout = *c.CallTimeout; return dur(*c.CallTimeout) }, func() string { return dur(o.CallTimeout) })
	ct := first(c.CheckpointTO, secs(c.Debate.CheckpointTimeoutS))
	pick("checkpoint_timeout", "checkpoint-timeout", ct != nil, func() string { o.CheckpointTimeout = *ct; return dur(*ct) }, func() string { return dur(o.CheckpointTimeout) })
	mr := c.MaxRounds
	if mr == nil {
		mr = c.Debate.MaxRounds
	}
	// The keys of the perspectives specification's settings, which the
	// flags of the same names set: their defaults are perspectives'.
	pick("max_rounds", "max-rounds", mr != nil, func() string { o.setValue("max-rounds", *mr); o.maxRoundsFromConfig = true; return strconv.Itoa(*mr) }, func() string {
		if !o.Has("max-rounds") {
			return strconv.Itoa(perspectives.DefaultMaxRounds)
		}
		return strconv.Itoa(o.Int("max-rounds"))
	})
	np := c.Perspectives
	if np == nil {
		np = c.Debate.DefaultPerspectives
	}
	pick("perspectives", "perspectives", np != nil, func() string { o.setValue("perspectives", *np); return strconv.Itoa(*np) }, func() string {
		if o.Int("perspectives") == 0 {
			return "(the moderator decides)"
		}
		return strconv.Itoa(o.Int("perspectives"))
	})
	pick("catalog", "catalog", c.Catalog != "", func() string { o.setValue("catalog", c.Catalog); return c.Catalog }, func() string {
		if o.String("catalog") == "" {
			return "(built in)"
		}
		return o.String("catalog")
	})
	pick("decisions_dir", "decisions-dir", c.DecisionsDir != "", func() string { o.DecisionsDir = c.DecisionsDir; return c.DecisionsDir }, func() string { return o.DecisionsDir })
	if len(c.Debate.CustomPerspectives) > 0 {
		o.setValue(perspectives.CustomOption, c.Debate.CustomPerspectives)
		names := make([]string, len(c.Debate.CustomPerspectives))
		for i, p := range c.Debate.CustomPerspectives {
			names[i] = p.Name
		}
		out = append(out, setting{"debate.custom_perspectives", strings.Join(names, ", "), src})
	}
	// The prices are the App's (Factory.App), not a debate option: they
	// are read here so that a bad one stops a debate before it starts, and
	// so that `parley config` lists them.
	_, prices, err := priceTable(c, env)
	if err != nil {
		return nil, err
	}
	return append(out, prices...), nil
}

// detectModel fills in the provider and the model that no flag, variable or
// config file sets with the ones a debate would pick from the environment
// (its API keys and base URLs), as app.ResolveCast does: "the effective
// settings" named no model where one was in fact configured.
//
// It returns the settings with the server the provider is reached at when
// the environment points it elsewhere (OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
// OLLAMA_HOST), after the model: a local or gateway server is what a debate
// will talk to, and the table otherwise read as the provider's own API.
func detectModel(settings []setting, mf app.Models, env func(string) string) []setting {
	_, record, endpoints, err := app.ResolveCastEndpoints(app.Models{Provider: mf.Provider, Model: mf.Model}, env)
	if err != nil {
		// A debate would say what is wrong (a local server without a
		// model name, say); the placeholder stays.
		return settings
	}
	provider, model, _ := strings.Cut(record["*"], "/")
	if url := endpoints[provider]; url != "" {
		at := slices.IndexFunc(settings, func(s setting) bool { return s.key == "model" }) + 1
		settings = slices.Insert(settings, at, setting{"base_url", url, "environment " + app.BaseURLVar(provider)})
	}
	for i, s := range settings {
		if s.source != "default" || (s.key != "provider" && s.key != "model") {
			continue
		}
		v := provider
		if s.key == "model" {
			v = model
		}
		if v == "" {
			settings[i].value = "none (set ANTHROPIC_API_KEY or OPENAI_API_KEY)"
			continue
		}
		settings[i].value, settings[i].source = v, "detected from the environment"
	}
	return settings
}

func newConfigCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Print the effective settings and where each comes from",
		Long: `Print the settings a debate would start with, and where each comes from: a flag, the environment,
the config file ($XDG_CONFIG_HOME/parley/config.yaml, or PARLEY_CONFIG), or the built-in default.
Precedence: flags > environment > config file > defaults.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := loadConfig(f.Env)
			if err != nil {
				return err
			}
			o := defaultDebateOptions()
			settings, err := applyConfig(c, o, nil, f.Env)
			if err != nil {
				return err
			}
			_, theme, err := shellTheme(c, "", false, f.Env)
			if err != nil {
				return err
			}
			settings = append(settings, theme)
			settings = detectModel(settings, o.Models, f.Env)
			db, err := f.databaseSetting()
			if err != nil {
				return err
			}
			settings = append(settings, db)
			state := "not found"
			if _, err := os.Stat(c.path); err == nil {
				state = "read"
			}
			// The values come from the environment and a file: a value
			// with a terminal sequence in it is shown, not obeyed.
			fmt.Fprintf(f.IO.Out, "Config file: %s (%s)\n\n", textsafe.Clean(c.path), state)
			tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
			for _, s := range settings {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.key, textsafe.Line(s.value, 1000), s.source)
			}
			return tw.Flush()
		},
	}
}
