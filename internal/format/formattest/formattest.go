// Package formattest is test support for the debate formats' tests: a debate
// on the script provider and an in-memory store, golden-file comparison and a
// provider that proves turns run concurrently. It is for tests only; no
// production code imports it.
package formattest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// Debate is one debate of a format on the script provider and a memstore,
// created and ready to run. Tests may replace Runner's provider or human.
type Debate struct {
	T      testing.TB
	ID     string
	Store  *memstore.Store
	Prov   *script.Provider
	Runner *debate.Runner
	Proto  debate.Protocol

	// asked holds, for each turn the protocol asked for, the turns that were
	// completed when it asked: what the turn's step was built from (see
	// MeasureTokens).
	mu    sync.Mutex
	asked map[string][]string
}

// Setup says how to create a Debate.
type Setup struct {
	Format  debate.Format
	ID      string    // the debate's id
	Topic   string    // the topic given to the format
	Created time.Time // the runner's clock, fixed so output is stable
	Options any       // the format's options, stored as JSON
}

// New creates the debate of s scripted by rules; the store closes when the
// test ends. The runner's clock stands still at s.Created and its backoff
// sleeps return at once.
func New(t testing.TB, s Setup, rules ...script.Rule) *Debate {
	t.Helper()
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	d := &Debate{T: t, ID: s.ID, Store: memstore.New(), Prov: script.NewProvider(sc)}
	t.Cleanup(func() { _ = d.Store.Close() })
	d.Runner = &debate.Runner{
		Store: d.Store,
		Cast:  debate.Cast{Default: debate.Model{Provider: d.Prov, Name: "test-model"}},
		Now:   func() time.Time { return s.Created },
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
	raw := JSON(s.Options)
	if d.Proto, err = s.Format.Protocol(s.Topic, raw); err != nil {
		t.Fatal(err)
	}
	created := debate.Created{Format: s.Format.Name(), Topic: s.Topic, Options: raw, Limits: debate.DefaultLimits()}
	if err := d.Runner.Create(context.Background(), d.ID, created); err != nil {
		t.Fatal(err)
	}
	return d
}

// Rescript replaces the provider with a fresh one scripted by rules, as a
// resumed debate meets a new model; from then on Tags, Requests and the
// prompts see only the new provider's requests.
func (d *Debate) Rescript(rules ...script.Rule) {
	d.T.Helper()
	sc, err := script.New(rules...)
	if err != nil {
		d.T.Fatal(err)
	}
	d.Prov = script.NewProvider(sc)
	d.Runner.Cast.Default.Provider = d.Prov
}

// Run runs (or resumes) the debate.
func (d *Debate) Run() (*debate.State, error) {
	return d.Runner.Run(context.Background(), d.ID, recorder{Protocol: d.Proto, d: d})
}

// recorder is the debate's protocol, noting for each turn it asks for which
// turns were completed at that moment. The runner runs a step's turns and
// only then calls Next again, so this is the transcript the whole step was
// built from.
type recorder struct {
	debate.Protocol
	d *Debate
}

func (r recorder) Next(s *debate.State) (debate.Step, error) {
	st, err := r.Protocol.Next(s)
	if err != nil || len(st.Turns) == 0 {
		return st, err
	}
	r.d.mu.Lock()
	defer r.d.mu.Unlock()
	if r.d.asked == nil {
		r.d.asked = map[string][]string{}
	}
	for _, t := range st.Turns {
		// The first time counts: a step resumed after a crash asks again
		// for the turns it did not finish, but they were built for the step.
		if _, ok := r.d.asked[t.ID]; !ok {
			r.d.asked[t.ID] = slices.Clone(s.Done)
		}
	}
	return st, nil
}

// MustRun runs the debate and fails the test unless it completes.
func (d *Debate) MustRun() *debate.State {
	d.T.Helper()
	s, err := d.Run()
	if err != nil {
		d.T.Fatalf("Run: %v\nrequests: %v", err, d.Tags())
	}
	if s.Status != debate.StatusCompleted {
		d.T.Fatalf("status %s", s.Status)
	}
	return s
}

// Tags are the tags of the requests the script provider received, in order.
func (d *Debate) Tags() []string {
	var out []string
	for _, r := range d.Prov.Requests() {
		out = append(out, r.Tag)
	}
	return out
}

// Requests are the requests with a tag, in order.
func (d *Debate) Requests(tag string) []llm.Request {
	var out []llm.Request
	for _, r := range d.Prov.Requests() {
		if r.Tag == tag {
			out = append(out, r)
		}
	}
	return out
}

// Prompt is all the text of the first request for a tag.
func (d *Debate) Prompt(tag string) string {
	d.T.Helper()
	return d.PromptAt(tag, 0)
}

// PromptAt is all the text of the n-th request for a tag; a negative n
// counts from the last (-1 is the last).
func (d *Debate) PromptAt(tag string, n int) string {
	d.T.Helper()
	rs := d.Requests(tag)
	i := n
	if n < 0 {
		i = len(rs) + n
	}
	if i < 0 || i >= len(rs) {
		d.T.Fatalf("no request %d for %s; requests: %v", n, tag, d.Tags())
	}
	return Text(rs[i])
}

// Prompts is all the text of every request for a tag, run together.
func (d *Debate) Prompts(tag string) string {
	d.T.Helper()
	rs := d.Requests(tag)
	if len(rs) == 0 {
		d.T.Fatalf("no request for %s; requests: %v", tag, d.Tags())
	}
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(Text(r))
	}
	return b.String()
}

// Text is a request's system prompt and messages, a line apart.
func Text(r llm.Request) string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, m := range r.Messages {
		b.WriteString("\n" + m.Text)
	}
	return b.String()
}

// Events are the debate's events as stored.
func (d *Debate) Events() []debate.Event {
	d.T.Helper()
	evs, err := d.Store.Load(context.Background(), d.ID, 0)
	if err != nil {
		d.T.Fatal(err)
	}
	return evs
}

// JSON marshals v, panicking on failure: test values always marshal.
func JSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Verdict decodes a finished debate's verdict as a format's result type.
func Verdict[R any](t testing.TB, s *debate.State) R {
	t.Helper()
	var r R
	if err := json.Unmarshal(s.Verdict, &r); err != nil {
		t.Fatalf("verdict %s: %v", s.Verdict, err)
	}
	return r
}

// Notes are the state's notes of a kind, in order.
func Notes(s *debate.State, kind string) []debate.NoteEvent {
	var out []debate.NoteEvent
	for _, n := range s.Notes {
		if n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}
