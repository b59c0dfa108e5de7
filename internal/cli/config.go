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
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/shell"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/yamlfile"
)

// Config is the settings file, $XDG_CONFIG_HOME/parley/config.yaml
// (~/.config/parley/config.yaml; PARLEY_CONFIG names another). It gives
// defaults; the environment and flags override it:
// flags > environment > config file > built-in defaults.
//
// Its keys are this struct's and, where Options stands, one for each
// option the formats declare (setup.Union), named as the option's HTTP API
// field (max_rounds for --max-rounds, custom_perspectives): a format's new
// option is a key with no change here (configSchema).
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
	// Options are the values the file gives the formats' options, by
	// option name. Their keys take this field's place in the file.
	Options      map[string]fileValue `yaml:"-" config:"options"`
	DecisionsDir string               `yaml:"decisions_dir"`
	Theme        string               `yaml:"theme"` // the shell's palette: auto, dark or light
	// Prices are price overrides, model or provider/model → its price in
	// USD per million tokens (pricing.Decode's form); PricesFile names a
	// file of them, relative to this file. See priceTable.
	Prices     yaml.Node `yaml:"prices"`
	PricesFile string    `yaml:"prices_file"`
	// Debate is the perspectives specification's settings block, accepted
	// as written there (specKeys): its limits here, its format options'
	// values in Options, under the key "debate.KEY".
	Debate specLimits `yaml:"debate"`

	path  string
	union []setup.Declared // the formats' options, whose keys the file takes
}

// fileValue is a format option's value the config file gives, and the key
// it gives it under.
type fileValue struct {
	key   string
	value any
}

// specLimits are the debate limits of the specification's settings block.
type specLimits struct {
	TokenBudgetPerRound *budgetFlag
	RoundTimeoutSeconds *int
	CheckpointTimeoutS  *int
	TotalTimeoutSeconds *int
}

// specKey is a key of the perspectives specification's settings block
// (debate:): one of a format option, by the specification's name for it
// (option), or one of a debate limit (limit, the field of specLimits).
type specKey struct {
	key, option, limit string
}

// specKeys are the specification's settings keys, in its order. These are
// the specification's names, fixed by a document written for the design;
// a new format's option is a key of the top level, not of this block.
func specKeys() []specKey {
	return []specKey{
		{key: "max_rounds", option: "max-rounds"},
		{key: "default_perspectives", option: "perspectives"},
		{key: "token_budget_per_round", limit: "TokenBudgetPerRound"},
		{key: "round_timeout_seconds", limit: "RoundTimeoutSeconds"},
		{key: "checkpoint_timeout_seconds", limit: "CheckpointTimeoutS"},
		{key: "total_timeout_seconds", limit: "TotalTimeoutSeconds"},
		{key: "custom_perspectives", option: "custom-perspectives"},
	}
}

// configKey is the config file's key of a format option: its HTTP API
// field, the option's name with "_" for "-" unless it declares another.
func configKey(d setup.Declared) string { return d.JSON() }

// optionType is the type a config file's value of a format option is read
// into: a pointer, nil when the file does not give it, to a value of the
// option's kind (of its default's type for a custom option).
func optionType(d setup.Declared) reflect.Type {
	switch d.Kind {
	case setup.Int:
		return reflect.TypeFor[*int]()
	case setup.Bool:
		return reflect.TypeFor[*bool]()
	case setup.String:
		return reflect.TypeFor[*string]()
	case setup.Strings:
		if d.Split {
			return reflect.TypeFor[*commaList]()
		}
		return reflect.TypeFor[*itemList]()
	}
	return reflect.PointerTo(reflect.TypeOf(d.Option.Default))
}

// configSchema is the type the config file is decoded into, built from the
// registry: Config's keys, each format option's key in the place of
// Options, and the specification's block, its option keys typed by their
// options, in the place of Debate. Decoded by the one decoder, a bad value
// or an unknown key of either is said in the file's terms as any other
// (yamlfile.Problems), with the keys the file takes.
type configSchema struct {
	typ reflect.Type
	// options are the top level's format option fields; spec the
	// specification block's (in the field "Debate").
	options, spec []schemaField
}

// schemaField is a field of the schema that holds a format option's value.
type schemaField struct {
	field       int
	key, option string
	file        bool // the option names a file (setup.Option.File)
}

func newConfigSchema(union []setup.Declared) (*configSchema, error) {
	s := &configSchema{}
	byName := map[string]setup.Declared{}
	for _, d := range union {
		byName[d.Name] = d
	}
	var spec []reflect.StructField
	for _, k := range specKeys() {
		f := reflect.StructField{Name: fmt.Sprintf("Spec%d", len(spec)), Tag: reflect.StructTag(`yaml:"` + k.key + `"`)}
		switch d, ok := byName[k.option]; {
		case k.limit != "":
			lf, _ := reflect.TypeFor[specLimits]().FieldByName(k.limit)
			f.Name, f.Type = k.limit, lf.Type
		case !ok:
			continue // no format declares it: not a key
		default:
			f.Type = optionType(d)
			s.spec = append(s.spec, schemaField{len(spec), k.key, k.option, d.File})
		}
		spec = append(spec, f)
	}
	var fields []reflect.StructField
	own := map[string]bool{}
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case f.Tag.Get("config") == "options":
			for _, d := range union {
				s.options = append(s.options, schemaField{len(fields), configKey(d), d.Name, d.File})
				fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Option%d", len(s.options)), Type: optionType(d),
					Tag: reflect.StructTag(`yaml:"` + configKey(d) + `"`)})
			}
			continue
		case !f.IsExported() || key == "-" || key == "":
			continue
		case f.Name == "Debate":
			f.Type = reflect.StructOf(spec)
		}
		own[key] = true
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
	}
	for _, o := range s.options {
		if own[o.key] {
			// A format's mistake, which a test of the registry catches.
			d := byName[o.option]
			return nil, fmt.Errorf("option %s of %s: its config file key %q is one of the file's own settings; declare the option under another name (or Field)",
				o.option, strings.Join(d.Formats, ", "), o.key)
		}
	}
	s.typ = reflect.StructOf(fields)
	return s, nil
}

// read fills c from v, a decoded value of the schema's type: Config's own
// keys, then the format options' values, those of the top level before
// the specification block's.
func (s *configSchema) read(v reflect.Value, c *Config) {
	cv := reflect.ValueOf(c).Elem()
	for i := range s.typ.NumField() {
		f := s.typ.Field(i)
		if _, ok := cv.Type().FieldByName(f.Name); ok && f.Name != "Debate" {
			cv.FieldByName(f.Name).Set(v.Field(i))
		}
	}
	c.Options = map[string]fileValue{}
	take := func(v reflect.Value, fields []schemaField, prefix string) {
		for _, f := range fields {
			fv := v.Field(f.field)
			if _, given := c.Options[f.option]; fv.IsNil() || given {
				continue
			}
			value := fv.Elem().Interface()
			switch x := value.(type) {
			case commaList:
				value = []string(x)
			case itemList:
				value = []string(x)
			case string:
				// A file the config file names is where the file says,
				// wherever parley runs (as its prices_file).
				if f.file && x != "" && !filepath.IsAbs(x) && c.path != "" {
					value = filepath.Join(filepath.Dir(c.path), x)
				}
			}
			c.Options[f.option] = fileValue{prefix + f.key, value}
		}
	}
	take(v, s.options, "")
	spec := v.FieldByName("Debate")
	take(spec, s.spec, "debate.")
	lv := reflect.ValueOf(&c.Debate).Elem()
	for i := range lv.NumField() {
		name := lv.Type().Field(i).Name
		if f := spec.FieldByName(name); f.IsValid() {
			lv.Field(i).Set(f)
		}
	}
}

// commaList is a config file's value of a comma-separated list option
// (agents): a YAML list, or one string written as the flag takes it
// ("saylor, hayes").
type commaList []string

// UnmarshalYAML reads a list, or a scalar split at its commas.
func (l *commaList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return n.Decode((*[]string)(l))
	}
	*l = nil
	for item := range strings.SplitSeq(n.Value, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// itemList is a config file's value of a list option whose items are
// whole (hints, which may hold commas): a YAML list, or one string, an
// item of its own, as a flag given once.
type itemList []string

// UnmarshalYAML reads a list, or a scalar as a list of one.
func (l *itemList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return n.Decode((*[]string)(l))
	}
	*l = itemList{n.Value}
	return nil
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

// loadConfig reads the config file, whose keys include the options of the
// formats of reg; a missing default file is an empty config, a missing file
// PARLEY_CONFIG names an error. An unknown key or a bad value is an error
// naming it and the file.
func loadConfig(env func(string) string, reg *debate.Formats) (*Config, error) {
	c := &Config{path: configPath(env)}
	if reg != nil {
		var err error
		if c.union, err = setup.Union(reg); err != nil {
			return nil, err
		}
	}
	schema, err := newConfigSchema(c.union)
	if err != nil {
		return nil, err
	}
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
	v := reflect.New(schema.typ)
	if err := dec.Decode(v.Interface()); err != nil && !errors.Is(err, io.EOF) {
		err, _ = yamlfile.Problems(err, schema.typ, data)
		return nil, &UsageError{Err: fmt.Errorf("config file %s: %w", c.path, err)}
	}
	schema.read(v.Elem(), c)
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
	// A timeout of 0 or less is refused, as its flag's is: every call,
	// round and debate has a time limit, and 0 does not mean none.
	// Checked here and named as the file's key: refused later, the error
	// named a flag (--call-timeout) the user never passed.
	type limit struct{ key, value, eg string }
	var bad []limit
	for _, t := range []struct {
		key, eg string
		d       *time.Duration
	}{{"round_timeout", "2m", c.RoundTimeout}, {"debate_timeout", "30m", c.DebateTimeout}, {"call_timeout", "2m", c.CallTimeout}, {"checkpoint_timeout", "30m", c.CheckpointTO}} {
		if t.d != nil && *t.d <= 0 {
			bad = append(bad, limit{t.key, t.d.String(), t.eg})
		}
	}
	for _, t := range []struct {
		key, eg string
		n       *int
	}{{"round_timeout_seconds", "120", c.Debate.RoundTimeoutSeconds}, {"total_timeout_seconds", "1800", c.Debate.TotalTimeoutSeconds}, {"checkpoint_timeout_seconds", "1800", c.Debate.CheckpointTimeoutS}} {
		if t.n != nil && *t.n <= 0 {
			bad = append(bad, limit{"debate: " + t.key, strconv.Itoa(*t.n), t.eg})
		}
	}
	if len(bad) > 0 {
		return nil, &UsageError{Err: fmt.Errorf("config file %s: %s %s: give a positive time limit, such as %s (0 is not \"no limit\")", c.path, bad[0].key, bad[0].value, bad[0].eg)}
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
	// Provider and model: flags, then the environment, then the file. With
	// --offline the file's are not used: they are defaults for the runs
	// with a model, as the environment's are (never read offline), and
	// --offline refuses only the models asked for with a flag.
	offline := o.Offline
	unused := src + " (not used: --offline runs no model)"
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
		case pm.file != "" && offline:
			out = append(out, setting{pm.key, pm.file, unused})
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
		if offline {
			out = append(out, setting{"models." + r, c.Models[r], unused})
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
	// The formats' options: a flag given, else the file's value, else each
	// format's default. A value from the file is a default, not a request:
	// a format that does not take the option is not refused for it
	// (setup.Request.FromConfig).
	for _, d := range c.union {
		key := configKey(d)
		fv, has := c.Options[d.Name]
		switch {
		case set != nil && set(d.Name):
			out = append(out, setting{key, shownValue(o.Values[d.Name]), "flag --" + d.Name})
		case has:
			o.setValue(d.Name, fv.value)
			o.fromConfig = append(o.fromConfig, d.Name)
			out = append(out, setting{fv.key, shownValue(fv.value), src})
		default:
			out = append(out, setting{key, shownDefault(d), "default"})
		}
	}
	pick("decisions_dir", "decisions-dir", c.DecisionsDir != "", func() string { o.DecisionsDir = c.DecisionsDir; return c.DecisionsDir }, func() string { return o.DecisionsDir })
	// The prices are the App's (Factory.App), not a debate option: they
	// are read here so that a bad one stops a debate before it starts, and
	// so that `parley config` lists them.
	_, prices, err := priceTable(c, env)
	if err != nil {
		return nil, err
	}
	return append(out, prices...), nil
}

// shownValue is a format option's value as 'parley config' shows it.
func shownValue(v any) string {
	switch v := v.(type) {
	case fmt.Stringer:
		return v.String()
	case []string:
		return strings.Join(v, ", ")
	}
	return fmt.Sprint(v)
}

// shownDefault is the default of a format option, as 'parley config' shows
// it: the formats' one default, or each format's ("council 3, perspectives
// 5"); a zero value is "(not set)": the format's own choice (the
// moderator's number of perspectives, the built-in catalog).
func shownDefault(d setup.Declared) string {
	show := func(v any) string {
		if _, ok := v.(bool); ok {
			return shownValue(v)
		}
		if rv := reflect.ValueOf(v); !rv.IsValid() || rv.IsZero() || (rv.Kind() == reflect.Slice && rv.Len() == 0) {
			return "(not set)"
		}
		return shownValue(v)
	}
	if v, one := d.Default(); one {
		return show(v)
	}
	parts := make([]string, len(d.By))
	for i, o := range d.By {
		parts[i] = d.Formats[i] + " " + show(o.Value())
	}
	return strings.Join(parts, ", ")
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
			c, err := loadConfig(f.Env, f.Formats)
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
