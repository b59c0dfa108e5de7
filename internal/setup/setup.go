// Package setup is the contract between a debate format and the front-ends
// that start it (the command line, the shell, the server, the workers): how
// a request becomes the options stored with a debate, and what a run of the
// debate needs besides its models. It lives apart from every front-end so
// that what a format needs from its options lives with the format.
package setup

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/tool"
)

// Request is a request to start a debate, whatever front-end it came from.
// The options of a format are in Values, by the names the formats declare
// them under (Optioner); each format reads its own.
type Request struct {
	Topic  string
	Format string

	NoCheckpoints bool // run to the end: a permission, not a setting (a format with no checkpoint has nothing to ask)
	Offline       bool // no network and no model: data-only agents on the shipped SEC snapshot

	// Values are the format options the request gives, by name, each of
	// its option's kind (an int, a bool, a string, a []string). An option
	// it does not give reads as the default of the format the request is
	// for (Defaults).
	Values Values

	// Given reports whether the user chose a setting explicitly (by the
	// name of its command-line flag, such as "max-rounds" or "format"),
	// as opposed to its default. Nil means nothing was given.
	Given func(name string) bool
	// FromConfig names the options Given counts that the config file set
	// rather than the request (a default max_rounds): they are not asked of
	// a format that does not read them.
	FromConfig []string

	// defaults are the values of the format's options the request does
	// not give (Defaults).
	defaults Values
}

// Values are format options' values by option name.
type Values map[string]any

// Defaults sets the defaults of the options the format the request is for
// declares: what Int, Bool, String and Strings read of an option the
// request does not give.
func (r *Request) Defaults(opts []Option) {
	r.defaults = Values{}
	for _, o := range opts {
		r.defaults[o.Name] = o.Value()
	}
}

// Value is the value of the option named: the request's, else its
// format's default (nil when neither has one).
func (r *Request) Value(name string) any {
	if v, ok := r.Values[name]; ok {
		return v
	}
	return r.defaults[name]
}

// Has reports whether the request gives a value of the option named.
func (r *Request) Has(name string) bool {
	_, ok := r.Values[name]
	return ok
}

// Int is the value of an Int option.
func (r *Request) Int(name string) int { v, _ := r.Value(name).(int); return v }

// Bool is the value of a Bool option.
func (r *Request) Bool(name string) bool { v, _ := r.Value(name).(bool); return v }

// String is the value of a String option.
func (r *Request) String(name string) string { v, _ := r.Value(name).(string); return v }

// Strings is the value of a Strings option.
func (r *Request) Strings(name string) []string { v, _ := r.Value(name).([]string); return v }

// CheckValues finds a value of Values that is not of its option's kind in
// opts: a front-end's mistake, not the user's (the front-ends decode each
// option by its kind).
func (r *Request) CheckValues(opts []Declared) error {
	for _, d := range opts {
		v, ok := r.Values[d.Name]
		if !ok {
			continue
		}
		want := d.Kind.goType()
		if d.Kind == Custom {
			want = reflect.TypeOf(d.Option.Default)
		}
		if reflect.TypeOf(v) != want {
			return fmt.Errorf("option %s: the value %#v is a %T, not of its kind, %s", d.Name, v, v, d.Kind)
		}
	}
	return nil
}

// Set reports whether the user chose the setting named.
func (r *Request) Set(name string) bool { return r.Given != nil && r.Given(name) }

// HasWords reports whether s holds a letter or a digit: a topic, a question
// or a hint of none ("...", "?!") asks nothing of a debate or an agent. One
// rule for the front-ends (internal/app) and the formats that read such
// text from their options (bullbear's --hint).
func HasWords(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) })
}

// DataFlag names what asked for the shipped SEC snapshot ("" when nothing
// did), for messages.
func (r *Request) DataFlag() string {
	switch {
	case r.Offline:
		return "--offline"
	case r.Bool(SnapshotName):
		return "--snapshot"
	}
	return ""
}

// Env is what a format's setup may use from its host: the environment, the
// clock, and where to say what it did ("SEC data: …", warnings).
type Env struct {
	Getenv func(string) string
	Now    func() time.Time
	Notice io.Writer
	// SECRate, when set, spaces EDGAR requests in place of the machine-wide
	// file limiter: workers on several machines share the SEC's limit
	// through their database.
	SECRate RateLimiter
	// SECMemo, when set, remembers EDGAR's answers for a few minutes, so
	// that a debate's setup, its data-only agents and its research tools
	// fetch a company's facts once (one per process, see edgar.Memo).
	SECMemo *edgar.Memo
}

// RateLimiter spaces requests: Wait blocks until one may be sent, or ctx
// ends.
type RateLimiter interface {
	Wait(ctx context.Context) error
}

// Noticef writes one notice line.
func (e Env) Noticef(format string, a ...any) {
	if e.Notice != nil {
		fmt.Fprintf(e.Notice, format+"\n", a...)
	}
}

// Run is a run of a debate, new or resumed, being prepared.
type Run struct {
	Topic   string
	Options json.RawMessage
	// Offline: no network, even if the environment configures some
	// (market data, web search).
	Offline bool
	// Cast is the debate's models; Prepare may add data-only responders.
	Cast *debate.Cast
	// Queued: the run is prepared only to check that it can be, for a new
	// debate queued for a worker, which prepares it again before it runs
	// it. Prepare refuses what it would refuse for the run, but leaves out
	// the data work only the run needs (the facts, events and valuation
	// the data-only agents argue from): done here it would be done twice,
	// and with live SEC data fetched twice. Its responders are not run.
	Queued bool
}

// Starter is implemented by a format that can be started: it turns a
// request into the options stored with the debate.
type Starter interface {
	// Setup builds the format's stored options from a request. Bad input
	// is an *InputError.
	Setup(ctx context.Context, env Env, req *Request) (json.RawMessage, error)
	// Prepare readies a run (new or resumed) of a debate with these
	// options: it may add responders to the cast (data-only agents when no
	// model is configured) and returns the tools agents may call (nil for
	// none). No model where one is needed is a *ConfigError.
	Prepare(ctx context.Context, env Env, run *Run) (*tool.Registry, error)
}

// SnapshotName is the name of SnapshotOption, which a format reads its
// value by.
const SnapshotName = "snapshot"

// SnapshotOption is --snapshot, the SEC data shipped with Parley in place
// of EDGAR, which the formats that read SEC data declare (DataFlag). A
// function, not a shared variable: each caller gets its own copy, which no
// other can change.
func SnapshotOption() Option {
	return Option{Name: SnapshotName, Kind: Bool, Usage: "the SEC data shipped with Parley instead of live EDGAR, with your model"}
}

// Checkpointer is implemented by a format whose debates stop at
// checkpoints to ask a person (perspectives, after each round): a
// front-end offers to run them to the end without asking
// (Request.NoCheckpoints) for such a format only.
type Checkpointer interface {
	Checkpoints() bool
}

// TopicNormalizer is implemented by a format whose topics have one
// spelling, such as a ticker in capitals: a debate is stored, listed and
// shown under it, whatever case it was typed in.
type TopicNormalizer interface {
	// NormalizeTopic returns a trimmed topic in the format's spelling, or
	// unchanged when it is not a topic the format spells (Setup then
	// refuses it with its own message).
	NormalizeTopic(topic string) string
}

// Implier is implemented by a format that a request naming no format can
// imply: its topic (a ticker) or options only this format reads (--deep).
// The application layer asks each registered format (app.FormatFor), so
// that no front-end names a format to infer it.
type Implier interface {
	// Implied reports whether r, which names no format, is a debate of
	// this format. Pure: it reads the request only.
	Implied(r *Request) bool
}

// Questioner is implemented by a format whose Setup does I/O (fetches a
// filing's figures, a market price) or whose stored options hold, besides
// what the request decided, data gathered when the debate was created. It
// says which question a debate asks, so that a front-end can find a debate
// that already asks a request's question without running Setup, and two
// debates asking the same question the same way compare equal though their
// data were fetched at other times (or from a fallback). A format without it
// is compared on all the options its Setup builds.
type Questioner interface {
	// Question is the question a debate created with these options asks.
	Question(opts json.RawMessage) (json.RawMessage, error)
	// Asks is the question req would ask, from the request and the
	// environment alone, with no I/O. For every request Setup accepts,
	// Question(Setup(req)) equals Asks(req).
	Asks(env Env, req *Request) (json.RawMessage, error)
}

// InputError is bad input: a setting, a topic, a file the user named.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Inputf is an *InputError with a formatted message.
func Inputf(format string, a ...any) error { return &InputError{Err: fmt.Errorf(format, a...)} }

// OptionError is a value of one option that a format refuses, said
// without naming the option, so that each front-end names it its own way:
// the command line by its flag, the HTTP API by its field, the dashboard's
// form by its label. A format returns it (wrapped in an *InputError)
// rather than a message naming its flag, which a caller of the API, who
// has no flags, could not act on.
type OptionError struct {
	// Option is the option's name ("agents").
	Option string
	// Problem is what is wrong and how to fix it, in words any front-end
	// can say ("no persona \"zz\"; known: hayes, saylor").
	Problem string
	// Local is what only the command line, which reads local files, can
	// also do ("add your own with --personas FILE"); "" for nothing.
	// Front-ends that never reach a file leave it out.
	Local string
}

func (e *OptionError) Error() string {
	msg := "--" + e.Option + ": " + e.Problem
	if e.Local != "" {
		msg += " (" + e.Local + ")"
	}
	return msg
}

// ConfigError is a missing or wrong provider configuration.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrNoModelConfigured is a format that needs a model when none is
// configured. It carries what is missing; Error words the fix for the
// command line, ForAPI for a caller of the HTTP API, whose flags are the
// request's fields and whose environment is the server's.
type ErrNoModelConfigured struct{ Format string }

func (e *ErrNoModelConfigured) Error() string {
	return fmt.Sprintf("%s. %s", e.problem(), HowToConfigure)
}

// ForAPI is the error worded for an HTTP API caller.
func (e *ErrNoModelConfigured) ForAPI() string {
	return fmt.Sprintf("%s. %s", e.problem(), HowToConfigureAPI)
}

// ForForm is the error worded for a person filling in the dashboard's
// new-debate form.
func (e *ErrNoModelConfigured) ForForm() string {
	return fmt.Sprintf("%s. %s", e.problem(), HowToConfigureForm)
}

func (e *ErrNoModelConfigured) problem() string {
	return fmt.Sprintf("the %s format needs a language model, and none is configured", e.Format)
}

// HowToConfigure lists every way to configure a model. Its lines fit an
// 80-column terminal as the shell shows them (indented by four): longer,
// they were folded mid-command, "export" at the end of a line and its
// variable on the next.
const HowToConfigure = `Configure one of:
  - Anthropic: export ANTHROPIC_API_KEY=sk-ant-...
      (optionally --model claude-sonnet-4-5)
  - OpenAI: export OPENAI_API_KEY=sk-... (optionally --model gpt-4.1)
  - A local or compatible server (Ollama, vLLM, llama.cpp, LM Studio):
      export OPENAI_BASE_URL=http://localhost:8000/v1
      or export OLLAMA_HOST=localhost:11434, and pass --model NAME
  - Flags: --provider anthropic|openai|ollama --model NAME,
      and a model per role with --model-for moderator=NAME`

// HowToConfigureAPI lists the ways an HTTP API caller configures a model:
// the request's fields, or the environment the server was started with.
const HowToConfigureAPI = `Name one in the request's fields: "provider" (anthropic, openai or ollama) and "model", ` +
	`and a model per role with "model_for" (["moderator=NAME"]); or ` + serverEnvironment

// HowToConfigureForm lists the ways a person filling in the dashboard's
// form configures a model: its Provider and Model fields, or the server's
// environment.
const HowToConfigureForm = `Choose a provider and name a model under “Model” below; or ` + serverEnvironment

// serverEnvironment is how the server's own environment gives a model, for
// a request or a form that names none.
const serverEnvironment = `start the server with ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL or OLLAMA_HOST ` +
	`in its environment (anthropic and openai need their key there)`

// NeedModel is the error of a format that cannot run without a model when
// the cast has none.
func NeedModel(format string, cast *debate.Cast) error {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 && len(cast.ByAgent) == 0 {
		return &ConfigError{Err: &ErrNoModelConfigured{Format: format}}
	}
	return nil
}
