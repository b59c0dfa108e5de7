package formal_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/memstore"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const topic = "Should we migrate the monolith to microservices?"

var created = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// mv is a move as a debater sends it.
func mv(act, repliesTo, statement string, premises ...string) formal.MoveIn {
	if premises == nil {
		premises = []string{}
	}
	return formal.MoveIn{Act: act, RepliesTo: repliesTo, Statement: statement, Premises: premises, Explanation: "Because " + act + " " + repliesTo + "."}
}

// moves is a debater reply.
func moves(ms ...formal.MoveIn) *script.Reply {
	if ms == nil {
		ms = []formal.MoveIn{}
	}
	return &script.Reply{JSON: mustJSON(formal.Reply{Moves: ms})}
}

func closing(final string, ms ...formal.MoveIn) *script.Reply {
	if ms == nil {
		ms = []formal.MoveIn{}
	}
	return &script.Reply{JSON: mustJSON(formal.Reply{Moves: ms, FinalStatement: final})}
}

func rule(tag string, r *script.Reply) script.Rule { return script.Rule{Tag: tag, Reply: r} }

func rules(tag string, rs ...*script.Reply) script.Rule {
	out := script.Rule{Tag: tag}
	for _, r := range rs {
		out.Replies = append(out.Replies, *r)
	}
	return out
}

func classify(rel ...formal.Class) *script.Reply {
	if rel == nil {
		rel = []formal.Class{}
	}
	return &script.Reply{JSON: mustJSON(formal.Classification{Relations: rel, Rejected: []formal.Rejection{}})}
}

func verdictReply(rationale string) *script.Reply {
	return &script.Reply{JSON: mustJSON(formal.Judgment{
		Rationale:   rationale,
		ValidPoints: []formal.Point{{ID: "A2", Point: "Migration risk is real for a team this size."}},
		Consensus:   "Extract the deploy-blocking billing module first, behind a stable interface; keep the rest modular.",
		Revisit:     []string{"Deploy queue exceeds one hour again", "The team grows past five squads"},
		Unaddressed: []string{"What does the on-call load of ten services cost?"},
		Biases:      "PRO leaned on delivery speed, OPP on risk; both were weighed by argument strength.",
		Focus:       "",
	})}
}

// fixture is one formal debate on the script provider and a memstore.
type fixture struct {
	t      *testing.T
	id     string
	store  *memstore.Store
	prov   *script.Provider
	runner *debate.Runner
	proto  debate.Protocol
}

func newFixture(t *testing.T, opts formal.Options, rs ...script.Rule) *fixture {
	t.Helper()
	sc, err := script.New(rs...)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, id: "DEB-formal1", store: memstore.New(), prov: script.NewProvider(sc)}
	t.Cleanup(func() { _ = f.store.Close() })
	f.runner = &debate.Runner{
		Store: f.store,
		Cast:  debate.Cast{Default: debate.Model{Provider: f.prov, Name: "test-model"}},
		Now:   func() time.Time { return created },
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	raw := mustJSON(opts)
	f.proto, err = formal.Format{}.Protocol(topic, raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.runner.Create(context.Background(), f.id, debate.Created{Format: formal.Name, Topic: topic, Options: raw, Limits: debate.DefaultLimits()}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) run() (*debate.State, error) {
	return f.runner.Run(context.Background(), f.id, f.proto)
}

func (f *fixture) mustRun() *debate.State {
	f.t.Helper()
	s, err := f.run()
	if err != nil {
		f.t.Fatalf("Run: %v\nrequests: %v", err, f.tags())
	}
	if s.Status != debate.StatusCompleted {
		f.t.Fatalf("status %s", s.Status)
	}
	return s
}

func (f *fixture) tags() []string {
	var out []string
	for _, r := range f.prov.Requests() {
		out = append(out, r.Tag)
	}
	return out
}

func (f *fixture) requests(tag string) []llm.Request {
	var out []llm.Request
	for _, r := range f.prov.Requests() {
		if r.Tag == tag {
			out = append(out, r)
		}
	}
	return out
}

// prompt is all the text of the n-th request for a tag.
func (f *fixture) prompt(tag string, n int) string {
	f.t.Helper()
	rs := f.requests(tag)
	if len(rs) <= n {
		f.t.Fatalf("no request %d for %s; requests: %v", n, tag, f.tags())
	}
	var b strings.Builder
	b.WriteString(rs[n].System)
	for _, m := range rs[n].Messages {
		b.WriteString("\n" + m.Text)
	}
	return b.String()
}

func result(t *testing.T, s *debate.State) formal.Result {
	t.Helper()
	var r formal.Result
	if err := json.Unmarshal(s.Verdict, &r); err != nil {
		t.Fatalf("verdict %s: %v", s.Verdict, err)
	}
	return r
}

func notes(s *debate.State, kind string) []debate.NoteEvent {
	var out []debate.NoteEvent
	for _, n := range s.Notes {
		if n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}
