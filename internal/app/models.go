package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/setup"
)

// Models are the provider and model choices a user can make.
type Models struct {
	Provider string   // anthropic | openai | ollama
	Model    string   // model name for every role without its own
	ModelFor []string // role=[provider/]model
}

// defaultModel is the model used when the user names a provider but no model;
// local servers have no default, their models are whatever was pulled.
func defaultModel(provider string) string {
	switch provider {
	case "anthropic":
		return "claude-sonnet-4-5"
	case "openai":
		return "gpt-4.1"
	}
	return ""
}

// ResolveCast builds the cast of models from flags and environment. It
// returns an empty cast (no default provider) when nothing is configured; the
// caller decides whether the format can do without.
func ResolveCast(mf Models, env func(string) string) (debate.Cast, map[string]string, error) {
	cast, record, _, err := ResolveCastEndpoints(mf, env)
	return cast, record, err
}

// baseURLVar is the environment variable that points a provider elsewhere.
var baseURLVar = map[string]string{"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL", "ollama": "OLLAMA_HOST"}

// BaseURLVar names the environment variable that points a provider
// elsewhere ("OPENAI_BASE_URL"); "" for a provider without one.
func BaseURLVar(provider string) string { return baseURLVar[provider] }

// ResolveCastEndpoints is ResolveCast that also returns, per provider used,
// the base URL it was reached at when the environment set one.
func ResolveCastEndpoints(mf Models, env func(string) string) (debate.Cast, map[string]string, map[string]string, error) {
	cast, record, err := resolveCastFrom(mf, env)
	if err != nil {
		return cast, nil, nil, err
	}
	endpoints := map[string]string{}
	for _, ref := range record {
		p, _, _ := strings.Cut(ref, "/")
		if v := baseURLVar[p]; v != "" && env(v) != "" {
			endpoints[p] = env(v)
		}
	}
	return cast, record, endpoints, nil
}

// CastFromRecord rebuilds a debate's recorded cast: each role's recorded
// provider and model, at the recorded base URL (or the provider's default,
// whatever the environment says now); only the keys come from the
// environment. A provider that cannot be set up now is an error naming what
// is missing: nothing is substituted.
func CastFromRecord(id string, models, endpoints map[string]string, env func(string) string) (debate.Cast, error) {
	return castFromRecord(id, models, endpoints, env, false)
}

// castFromRecord is CastFromRecord; followUp words its errors for a
// follow-up question, which names another model itself (--model): they
// told 'parley ask' to resume, which a finished debate refuses.
func castFromRecord(id string, models, endpoints map[string]string, env func(string) string, followUp bool) (debate.Cast, error) {
	again := "resume"
	if followUp {
		again = "ask"
	}
	cast := debate.Cast{ByRole: map[string]debate.Model{}}
	providers := map[string]llm.Provider{}
	roles := slices.Sorted(maps.Keys(models))
	for _, role := range roles {
		ref := models[role]
		pname, mname, ok := strings.Cut(ref, "/")
		if !ok || !knownProvider(pname) || mname == "" {
			if followUp {
				return cast, fmt.Errorf("debate %s records the model %q for %s, which Parley cannot use: ask with --provider and --model to choose one", id, ref, RoleName(role))
			}
			return cast, fmt.Errorf("debate %s records the model %q for %s, which Parley cannot use: resume with --provider and --model to choose one (the change is recorded)", id, ref, RoleName(role))
		}
		p, ok := providers[pname]
		if !ok {
			recorded := func(k string) string {
				if k == baseURLVar[pname] {
					return endpoints[pname]
				}
				return env(k)
			}
			// The errors that ask to correct the address name the
			// record, not the variable, when the variable names
			// another: correcting it changed nothing.
			from := ""
			if v := baseURLVar[pname]; v != "" && endpoints[pname] != "" && endpoints[pname] != env(v) {
				from = "the debate recorded: to move it to the address " + v + " names, " + again + " naming the model again (--model or --model-for)"
			}
			var err error
			if p, err = newProvider(pname, recorded, from); err != nil {
				return cast, &RecordedModelError{ID: id, Ref: ref, Role: role, Err: err, FollowUp: followUp}
			}
			providers[pname] = p
		}
		m := debate.Model{Provider: p, Name: mname}
		if role == "*" {
			cast.Default = m
		} else {
			cast.ByRole[role] = m
		}
	}
	return cast, nil
}

// RecordedModelError is a debate's recorded model that this environment
// cannot set up (its key is not set, say). It is worded for the command
// line; a front-end whose fix is another (the server's environment) words
// it from its fields.
type RecordedModelError struct {
	ID   string // the debate
	Ref  string // the recorded provider/model
	Role string // the cast role ("*": every role)
	Err  error  // what is missing
	// FollowUp: the model was to answer a follow-up question, which
	// chooses another model itself, with nothing recorded but its turn.
	FollowUp bool
}

func (e *RecordedModelError) Error() string {
	if e.FollowUp {
		return fmt.Sprintf("debate %s was created with %s for %s, and %v; or ask with --provider/--model to choose another model", e.ID, e.Ref, RoleName(e.Role), e.Err)
	}
	return fmt.Sprintf("debate %s was created with %s for %s, and %v; or resume with --provider/--model to choose another model explicitly (the change is recorded)", e.ID, e.Ref, RoleName(e.Role), e.Err)
}

func (e *RecordedModelError) Unwrap() error { return e.Err }

// CheckRecordedModels reports whether this environment can run the rest of
// a debate with the models it records, as Resume would: a
// *setup.ConfigError wrapping a *RecordedModelError when it cannot. It is
// nil for a debate Resume refuses for another reason (not found, completed),
// which Resume says.
func (a *App) CheckRecordedModels(ctx context.Context, id string) error {
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		if errors.Is(err, debate.ErrNotFound) {
			return nil
		}
		return err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return err
	}
	if st.Status == debate.StatusCompleted {
		return nil
	}
	if _, err := CastFromRecord(id, st.Models, st.Endpoints, a.Env.Getenv); err != nil {
		return &setup.ConfigError{Err: err}
	}
	return nil
}

// RoleName is how a cast role reads in a message.
func RoleName(role string) string {
	if role == "*" {
		return "every role"
	}
	return role
}

// DescribeCast says which model answers each role, for the line printed at
// the start of every debate and resume.
func DescribeCast(models map[string]string, dataOnly []string) string {
	if len(models) == 0 {
		return "Models: none: Parley's data-only agents answer, no LLM is used"
	}
	var parts []string
	if m, ok := models["*"]; ok {
		parts = append(parts, "every role → "+m)
	}
	for _, role := range slices.Sorted(maps.Keys(models)) {
		if role != "*" {
			parts = append(parts, role+" → "+models[role])
		}
	}
	line := "Models: " + strings.Join(parts, "; ")
	if len(dataOnly) > 0 {
		line += "; data-only, no LLM: " + strings.Join(dataOnly, ", ")
	}
	return line
}

// OverrideCast applies the model flags given on a resume to the recorded
// cast (models, at the recorded endpoints): --provider or --model replace
// the default ("*"), --model-for one role. It returns the changes to record;
// roles the flags do not name keep their recorded model. A role named with
// its recorded model changes when the environment now points its provider
// at another server: naming the model is how a resume is told to follow a
// corrected OPENAI_BASE_URL, which a plain resume does not.
func OverrideCast(mf Models, models, endpoints map[string]string, env func(string) string) ([]debate.CastChanged, error) {
	_, record, now, err := ResolveCastEndpoints(mf, env)
	if err != nil {
		return nil, err
	}
	var roles []string
	if mf.Provider != "" || mf.Model != "" {
		roles = append(roles, "*")
	}
	for _, spec := range mf.ModelFor {
		role, _, _ := strings.Cut(spec, "=")
		roles = append(roles, strings.TrimSpace(role))
	}
	var changes []debate.CastChanged
	for _, role := range roles {
		to := record[role]
		p, _, _ := strings.Cut(to, "/")
		if to == models[role] && (now[p] == "" || now[p] == endpoints[p]) {
			continue
		}
		changes = append(changes, debate.CastChanged{Role: role, From: models[role], To: to, Endpoint: now[p]})
	}
	return changes, nil
}

// resumeNotices says a resume's cast changes, with the servers when they
// moved (before: the recorded endpoints, after: with the changes), and each
// provider of the cast (models) that the environment points at another
// server than the one the debate uses: a resume keeps the recorded one.
func resumeNotices(changes []debate.CastChanged, before, models, after map[string]string, env func(string) string) []string {
	var notes []string
	changed := map[string]bool{}
	for _, c := range changes {
		pFrom, _, _ := strings.Cut(c.From, "/")
		pTo, _, _ := strings.Cut(c.To, "/")
		from, to := describeModel(c.From), describeModel(c.To)
		if c.From != "" && c.To != "" && (pFrom != pTo || before[pFrom] != after[pTo]) && (before[pFrom] != "" || after[pTo] != "") {
			from += " at " + describeServer(before[pFrom])
			to += " at " + describeServer(after[pTo])
		}
		notes = append(notes, fmt.Sprintf("%s now answers with %s, was %s", RoleName(c.Role), to, from))
		changed[pTo] = true
	}
	for _, p := range slices.Sorted(maps.Keys(providersOf(models))) {
		v := baseURLVar[p]
		if v == "" || changed[p] {
			continue
		}
		if set := env(v); set != "" && strings.TrimRight(set, "/") != strings.TrimRight(after[p], "/") {
			notes = append(notes, fmt.Sprintf("%s names %s, but this debate's %s models answer at %s, as recorded: to move them, resume naming the model again (--model or --model-for; the change is recorded)",
				v, set, p, describeServer(after[p])))
		}
	}
	return notes
}

// providersOf returns the providers a cast record uses.
func providersOf(models map[string]string) map[string]bool {
	ps := map[string]bool{}
	for _, ref := range models {
		if p, _, ok := strings.Cut(ref, "/"); ok {
			ps[p] = true
		}
	}
	return ps
}

func describeModel(ref string) string {
	if ref == "" {
		return "data-only agents"
	}
	return ref
}

func describeServer(url string) string {
	if url == "" {
		return "the provider's default address"
	}
	return url
}

// resolveCastFrom is ResolveCast's work: the cast and its record.
func resolveCastFrom(mf Models, env func(string) string) (debate.Cast, map[string]string, error) {
	cast := debate.Cast{ByRole: map[string]debate.Model{}}
	record := map[string]string{}
	providers := map[string]llm.Provider{}
	get := func(name string) (llm.Provider, error) {
		if p, ok := providers[name]; ok {
			return p, nil
		}
		p, err := newProvider(name, env, "")
		if err != nil {
			return nil, err
		}
		providers[name] = p
		return p, nil
	}

	// The refusal of an unknown name says where it came from: the user
	// who set PARLEY_PROVIDER passed no --provider flag.
	name, source := strings.ToLower(strings.TrimSpace(mf.Provider)), "--provider"
	if name == "" {
		name, source = strings.ToLower(strings.TrimSpace(env("PARLEY_PROVIDER"))), "PARLEY_PROVIDER"
	}
	if name == "" {
		name = detectProvider(env)
	}
	if name != "" {
		if err := CheckProvider(source, name); err != nil {
			return cast, nil, err
		}
	}
	model, modelSource := mf.Model, "--model"
	if model == "" {
		model, modelSource = env("PARLEY_MODEL"), "PARLEY_MODEL"
	}
	if model != "" {
		if err := CheckModelName(modelSource, model); err != nil {
			return cast, nil, err
		}
	}
	if name != "" {
		p, err := get(name)
		if err != nil {
			return cast, nil, err
		}
		if model == "" {
			model = defaultModel(name)
		}
		if model == "" {
			return cast, nil, fmt.Errorf("--provider %s needs --model NAME (the server's model name, for example llama3.1)", name)
		}
		cast.Default = debate.Model{Provider: p, Name: model}
		record["*"] = cast.Default.String()
	} else if model != "" {
		return cast, nil, fmt.Errorf("--model %s: no provider is configured to run it; set ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL or OLLAMA_HOST, or pass --provider", model)
	}

	for _, spec := range mf.ModelFor {
		role, ref, ok := strings.Cut(spec, "=")
		role, ref = strings.TrimSpace(role), strings.TrimSpace(ref)
		if !ok || role == "" || ref == "" {
			return cast, nil, setup.Inputf("--model-for %q: write ROLE=MODEL or ROLE=PROVIDER/MODEL, for example moderator=claude-opus-4-1", spec)
		}
		pname, mname := name, ref
		if pp, mm, ok := strings.Cut(ref, "/"); ok && knownProvider(pp) {
			pname, mname = pp, mm
		}
		if err := CheckModelName("--model-for "+role, mname); err != nil {
			return cast, nil, err
		}
		if pname == "" {
			return cast, nil, fmt.Errorf("--model-for %s: no provider is configured; write %s=anthropic/%s or set an API key", spec, role, mname)
		}
		p, err := get(pname)
		if err != nil {
			return cast, nil, err
		}
		cast.ByRole[role] = debate.Model{Provider: p, Name: mname}
		record[role] = cast.ByRole[role].String()
	}
	return cast, record, nil
}

// CheckModelName refuses a model name no provider serves: blank, or
// holding a space or a control character (a stray quote or paste:
// "gpt-4.1 "). Taken, it is recorded with the debate and sent with every
// call, and the server's "model not found" comes only once the debate has
// started; source says where the name came from.
func CheckModelName(source, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return setup.Inputf("%s %q is blank: name a model, such as gpt-4.1 or claude-sonnet-4-5, or leave it out for the provider's default", source, name)
	case strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return setup.Inputf("%s %q: a model name has no spaces or control characters; check the quotes (the provider's model list has the exact name)", source, name)
	}
	return nil
}

// CheckProvider refuses a provider name Parley has no client for, naming
// where the name came from (source: "--provider", "PARLEY_PROVIDER",
// "provider" in the config file) and the providers there are.
func CheckProvider(source, name string) error {
	if knownProvider(name) {
		return nil
	}
	known := []string{"anthropic", "openai", "ollama"}
	sort.Strings(known)
	return fmt.Errorf("%s %q: unknown provider; choose one of %s", source, name, strings.Join(known, ", "))
}

func knownProvider(name string) bool {
	switch name {
	case "anthropic", "openai", "ollama":
		return true
	}
	return false
}

// detectProvider picks a provider from the environment, in a fixed order.
func detectProvider(env func(string) string) string {
	switch {
	case env("ANTHROPIC_API_KEY") != "":
		return "anthropic"
	case env("OPENAI_API_KEY") != "" || env("OPENAI_BASE_URL") != "":
		return "openai"
	case env("OLLAMA_HOST") != "":
		return "ollama"
	}
	return ""
}

func newProvider(name string, env func(string) string, baseURLFrom string) (llm.Provider, error) {
	switch name {
	case "anthropic":
		key := env("ANTHROPIC_API_KEY")
		if key == "" {
			// Named as the provider: it may come from PARLEY_PROVIDER, the
			// config file or a debate's record as well as --provider.
			return nil, fmt.Errorf("anthropic: ANTHROPIC_API_KEY is not set; export it with your key from console.anthropic.com")
		}
		return anthropic.New(anthropic.Config{APIKey: key, BaseURL: env("ANTHROPIC_BASE_URL"), BaseURLFrom: baseURLFrom})
	case "openai":
		base := env("OPENAI_BASE_URL")
		key := env("OPENAI_API_KEY")
		if key == "" && base == "" {
			return nil, fmt.Errorf("openai: OPENAI_API_KEY is not set; export it, or set OPENAI_BASE_URL for a local server")
		}
		if base != "" {
			if _, err := url.ParseRequestURI(base); err != nil {
				return nil, fmt.Errorf("OPENAI_BASE_URL %q is not a URL: write it like http://localhost:8000/v1", base)
			}
		}
		return openai.New(openai.Config{APIKey: key, BaseURL: base, Name: "openai", BaseURLFrom: baseURLFrom})
	case "ollama":
		cfg := openai.OllamaConfig(env("OLLAMA_HOST"))
		cfg.BaseURLFrom = baseURLFrom
		return openai.New(cfg)
	}
	return nil, CheckProvider("--provider", name)
}
