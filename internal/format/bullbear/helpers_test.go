package bullbear_test

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/store/memstore"
)

var created = time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// nvda analyses the NVDA companyfacts of the offline snapshot.
func nvda(t *testing.T) (*analysis.Report, string) {
	t.Helper()
	ctx := context.Background()
	snap := snapshot.New()
	c, err := snap.Lookup(ctx, "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := snap.CompanyFacts(ctx, c.CIK)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := (&bullbear.Analyzer{}).Report(raw.Body, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rep, raw.Provenance.Label()
}

// nvdaOptions are the options the CLI would store for NVDA offline.
func nvdaOptions(t *testing.T) bullbear.Options {
	rep, data := nvda(t)
	return bullbear.Options{Ticker: "NVDA", Company: "NVIDIA CORP", CIK: "0001045810", FiscalYear: rep.Financials.FiscalYear,
		Figures: bullbear.Figures(rep), Data: data, Offline: true}
}

// Scripted texts. The bear's opening has three points; the bull's rebuttal
// quotes its second point word for word.
const (
	bullOpening = `Bull case:
- Revenue grew 65% in FY2026 to lead the market (10-K 0001045810-26-000021)
- Gross margin of 71% shows pricing power (10-K FY2026)
- Operating margin of 60% funds the roadmap (10-K FY2026)`
	bearOpening = `Bear case:
- Operating margins contracted by two points year over year (10-K FY2026)
- Cash conversion of 0.86x means earnings outrun cash (10-K FY2026)
- A handful of hyperscalers buy most of the output (10-K FY2026)`
	bullRebuttal = `The bear says "Cash conversion of 0.86x means earnings outrun cash", but free cash flow margin of 45% (10-K FY2026) shows the cash is there.`
	bearRebuttal = "> Gross margin of 71% shows pricing power\n\nPricing power fades when supply catches up."
)

func synthesisJSON(score int, stance string) json.RawMessage {
	return mustJSON(map[string]any{
		"bull_case":   []string{"Revenue grew 65% (10-K FY2026)", "Gross margin of 71%"},
		"bear_case":   []string{"Cash conversion of 0.86x", "Customer concentration"},
		"contentions": []map[string]string{{"topic": "Earnings quality", "bull": "FCF margin of 45%", "bear": "cash conversion below 1x"}, {"topic": "Margins", "bull": "71% gross margin", "bear": "margins contracting"}},
		"consensus":   false, "agreements": []string{},
		"evidence_buckets": []map[string]string{{"bucket": "growth", "favours": "bull", "evidence": "65% revenue growth"}},
		"score":            score,
		"conviction":       "7/10 because growth and margins outweigh weaker cash conversion. Would be 8/10 if cash conversion rises above 1x.",
		"stance":           stance,
		"thesis_breaker":   "Bull thesis breaks if: gross margin falls below 60%",
		"discrepancies":    []string{},
		"summary":          "Most financial metrics favour the bull.",
	})
}

// baseRules script a whole quick debate.
func baseRules() []script.Rule {
	return []script.Rule{
		{Tag: "research/bull", Reply: &script.Reply{Text: "Bull research: revenue, margins and cash flow for FY2026."}},
		{Tag: "research/bear", Reply: &script.Reply{Text: "Bear research: margin trend and cash conversion for FY2026."}},
		{Tag: "opening/bull", Reply: &script.Reply{Text: bullOpening}},
		{Tag: "opening/bear", Reply: &script.Reply{Text: bearOpening}},
		{TagRegexp: "^rebuttal/\\d/bull$", Reply: &script.Reply{Text: bullRebuttal}},
		{TagRegexp: "^rebuttal/\\d/bear$", Reply: &script.Reply{Text: bearRebuttal}},
		{TagPrefix: "reconcile/", Reply: &script.Reply{Text: "I correct my figure to the 10-K's."}},
		{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: synthesisJSON(7, "STRONG BULL")}},
	}
}

type fixture struct {
	t      *testing.T
	id     string
	store  *memstore.Store
	prov   *script.Provider
	runner *debate.Runner
	proto  debate.Protocol
	opts   bullbear.Options
}

// newFixture runs a bullbear debate on the script provider. Rules given
// first take precedence over baseRules.
func newFixture(t *testing.T, opts bullbear.Options, rules ...script.Rule) *fixture {
	t.Helper()
	sc, err := script.New(append(rules, baseRules()...)...)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, id: "DEB-bb1", store: memstore.New(), prov: script.NewProvider(sc), opts: opts}
	t.Cleanup(func() { _ = f.store.Close() })
	f.runner = &debate.Runner{
		Store: f.store,
		Cast:  debate.Cast{Default: debate.Model{Provider: f.prov, Name: "test-model"}},
		Now:   func() time.Time { return created },
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	raw := mustJSON(opts)
	if f.proto, err = (bullbear.Format{}).Protocol(opts.Ticker, raw); err != nil {
		t.Fatal(err)
	}
	if err := f.runner.Create(context.Background(), f.id, debate.Created{Format: bullbear.Name, Topic: opts.Ticker, Options: raw, Limits: debate.DefaultLimits()}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) mustRun() *debate.State {
	f.t.Helper()
	s, err := f.runner.Run(context.Background(), f.id, f.proto)
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

// prompt is all the text of the requests for a tag.
func (f *fixture) prompt(tag string) string {
	f.t.Helper()
	var b strings.Builder
	n := 0
	for _, r := range f.prov.Requests() {
		if r.Tag != tag {
			continue
		}
		n++
		b.WriteString(r.System)
		for _, m := range r.Messages {
			b.WriteString("\n" + m.Text)
		}
	}
	if n == 0 {
		f.t.Fatalf("no request for %s; requests: %v", tag, f.tags())
	}
	return b.String()
}

func (f *fixture) events() []debate.Event {
	evs, err := f.store.Load(context.Background(), f.id, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return evs
}

func result(t *testing.T, s *debate.State) bullbear.Result {
	t.Helper()
	var r bullbear.Result
	if err := json.Unmarshal(s.Verdict, &r); err != nil {
		t.Fatalf("verdict %s: %v", s.Verdict, err)
	}
	return r
}

// barrierProvider holds requests whose tag has a prefix until n of them are
// in flight, proving that they run concurrently.
type barrierProvider struct {
	llm.Provider
	prefix string
	n      int

	mu      sync.Mutex
	arrived int
	all     chan struct{}
	failed  bool
}

func (b *barrierProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	if strings.HasPrefix(req.Tag, b.prefix) {
		b.mu.Lock()
		b.arrived++
		if b.arrived == b.n {
			close(b.all)
		}
		b.mu.Unlock()
		select {
		case <-b.all:
		case <-time.After(5 * time.Second):
			b.mu.Lock()
			b.failed = true
			b.mu.Unlock()
		}
	}
	return b.Provider.Stream(ctx, req)
}
