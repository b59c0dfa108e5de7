package ops

import (
	"context"
	"iter"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// provider answers with usage, or fails with a rate limit.
type provider struct{ fail bool }

func (provider) Name() string   { return "openai" }
func (provider) Caps() llm.Caps { return llm.Caps{} }
func (p provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if p.fail {
			yield(llm.Chunk{}, &llm.Error{Provider: "openai", Kind: llm.ErrRateLimited})
			return
		}
		if !yield(llm.Chunk{Text: "hi"}, nil) {
			return
		}
		yield(llm.Chunk{Usage: &llm.Usage{InputTokens: 100, OutputTokens: 7, CacheReadTokens: 60}}, nil)
	}
}

func drain(p llm.Provider) {
	for range p.Stream(context.Background(), llm.Request{}) {
	}
}

func TestMetrics(t *testing.T) {
	store := memstore.New()
	defer store.Close()
	e, _ := debate.NewEvent("DEB-00000001", time.Now(), debate.Created{Format: "crux", Topic: "t", Limits: debate.DefaultLimits()})
	if _, err := store.Append(context.Background(), "DEB-00000001", e); err != nil {
		t.Fatal(err)
	}
	// A completed debate, counted by the store, and one waiting at a
	// checkpoint with its runner alive, read with its lease.
	for _, d := range []struct {
		id string
		ps []debate.Payload
	}{
		{"DEB-00000002", []debate.Payload{debate.Created{Format: "bullbear", Topic: "t", Limits: debate.DefaultLimits()},
			debate.TurnCompleted{Turn: debate.TurnRef{ID: "t1", Agent: "bull"}, Text: "x", Model: "openai/gpt-4o", CostUSD: 0.5, Priced: true},
			debate.Completed{}}},
		{"DEB-00000003", []debate.Payload{debate.Created{Format: "crux", Topic: "t", Limits: debate.DefaultLimits()},
			debate.CheckpointReached{ID: "c1", Round: 1, Options: []string{debate.ActionContinue}}}},
	} {
		for _, p := range d.ps {
			e, _ := debate.NewEvent(d.id, time.Now(), p)
			if _, err := store.Append(context.Background(), d.id, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := store.AcquireLease(context.Background(), "DEB-00000003", debate.LeaseOwner{ID: "r", Host: "elsewhere", PID: 1}, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	calls := &Calls{}
	drain(calls.Wrap(provider{}))
	drain(calls.Wrap(provider{}))
	drain(calls.Wrap(provider{fail: true}))
	h := &Handler{Store: store, Calls: calls, Started: time.Unix(1700000000, 0), Role: "worker"}
	w := httptest.NewRecorder()
	h.Metrics(w, httptest.NewRequest("GET", "/metrics", nil))
	out := w.Body.String()
	for _, want := range []string{
		`parley_debates{status="interrupted"} 1`, // running in its log, no runner holds it
		`parley_debates{status="checkpoint"} 1`,
		`parley_debates{status="completed"} 1`,
		`parley_debates{status="queued"} 0`,
		`parley_debates_by_format{format="crux"} 2`,
		`parley_debates_by_format{format="bullbear"} 1`,
		"parley_turns_completed_total 1\n",
		"parley_cost_usd_total 0.5\n",
		`parley_provider_calls_total{provider="openai"} 3`,
		`parley_provider_tokens_total{provider="openai",kind="input"} 200`,
		`parley_provider_tokens_total{provider="openai",kind="output"} 14`,
		`parley_provider_tokens_total{provider="openai",kind="cache_read"} 120`,
		`parley_provider_errors_total{provider="openai",kind="rate_limited"} 1`,
		`parley_process_start_time_seconds{role="worker"} 1700000000`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	}
	w = httptest.NewRecorder()
	h.Healthz(w, httptest.NewRequest("GET", "/healthz", nil))
	if w.Code != 200 {
		t.Fatalf("healthz: %d %s", w.Code, w.Body)
	}
	store.Close()
	w = httptest.NewRecorder()
	h.Healthz(w, httptest.NewRequest("GET", "/healthz", nil))
	if w.Code != 503 {
		t.Errorf("healthz with the store closed: %d, want 503", w.Code)
	}
}
