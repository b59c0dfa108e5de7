package bullbear_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// TestDataOnlyAgentsUseEventsAndValuation runs data-only debates on the
// shipped data with the events timeline and the valuation: the research
// turns list both with their sources, and the bear argues valuation (and,
// for Apple, an officer change) with the source and date of each.
func TestDataOnlyAgentsUseEventsAndValuation(t *testing.T) {
	for _, tc := range []struct {
		ticker string
		want   []string // in the bear's opening
	}{
		{"NVDA", []string{"Valuation: P/E (TTM) of 25.1x (public float, 10-K 0001045810-26-000021, as of 2025-07-25; public float, not a market price)"}},
		{"AAPL", []string{"Valuation: P/E (TTM) of 27.6x (public float, 10-K 0000320193-25-000079, as of 2025-03-28",
			"Material event: 8-K filed 2026-01-02, item 5.02 (Departure of Directors or Certain Officers",
			"https://www.sec.gov/Archives/edgar/data/320193/000114036126000199/0001140361-26-000199-index.htm"}},
	} {
		t.Run(tc.ticker, func(t *testing.T) {
			ctx := context.Background()
			snap := snapshot.New()
			c, err := snap.Lookup(ctx, tc.ticker)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := snap.CompanyFacts(ctx, c.CIK)
			if err != nil {
				t.Fatal(err)
			}
			a := &bullbear.Analyzer{}
			rep, err := a.Report(raw.Body, 0)
			if err != nil {
				t.Fatal(err)
			}
			set, err := sectools.New(sectools.Config{Source: snap, Company: c, Valuation: a})
			if err != nil {
				t.Fatal(err)
			}
			var more bullbear.Research
			if more.Events, _, err = set.Events(ctx, "", nil); err != nil {
				t.Fatal(err)
			}
			if more.Valuation, _, err = set.Valuation(ctx); err != nil {
				t.Fatal(err)
			}
			agents := bullbear.NewDataAgents(analysis.Assess(rep), raw.Provenance.Label()).WithResearch(more)
			store := memstore.New()
			defer store.Close()
			r := &debate.Runner{Store: store, Now: func() time.Time { return created }, Cast: debate.Cast{Responders: agents.Responders()}}
			o := bullbear.Options{Ticker: tc.ticker, Company: c.Name, CIK: c.CIK.String(), FiscalYear: rep.Financials.FiscalYear,
				Figures: bullbear.Figures(rep), Data: raw.Provenance.Label(), Offline: true,
				Tools: []string{"sec_events", "valuation"}, Valuation: more.Valuation.Figures, ValuationBasis: more.Valuation.Basis}
			opts := formattest.JSON(o)
			proto, err := bullbear.Format{}.Protocol(o.Ticker, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Create(ctx, "DEB-r", debate.Created{Format: bullbear.Name, Topic: o.Ticker, Options: opts, Limits: debate.DefaultLimits()}); err != nil {
				t.Fatal(err)
			}
			s, err := r.Run(ctx, "DEB-r", proto)
			if err != nil || s.Status != debate.StatusCompleted {
				t.Fatalf("status %v: %v", s.Status, err)
			}
			// The timeline and the valuation are the same data for both
			// sides: the bull's note lists them, the bear's refers to it.
			shared := []string{"8-K events since", "offline snapshot recorded 2026-03-05", "Valuation (public float basis):", "P/E (TTM):"}
			res := s.Completed("research/bull").Text
			for _, want := range shared {
				if !strings.Contains(res, want) {
					t.Errorf("research/bull lacks %q:\n%s", want, res)
				}
			}
			bearRes := s.Completed("research/bear").Text
			if !strings.Contains(bearRes, "8-K events and valuation: the same data as in the bull's research above.") || strings.Contains(bearRes, shared[2]) {
				t.Errorf("research/bear repeats the bull's timeline and valuation:\n%s", bearRes)
			}
			// A research note does not repeat the points its opening argues.
			for _, side := range []string{"bull", "bear"} {
				res := s.Completed("research/" + side).Text
				for _, pt := range bullbear.Points(s.Completed("opening/" + side).Text) {
					if strings.Contains(res, pt) {
						t.Errorf("research/%s repeats the opening's point %q", side, pt)
					}
				}
			}
			op := s.Completed("opening/bear").Text
			for _, want := range tc.want {
				if !strings.Contains(op, want) {
					t.Errorf("bear opening lacks %q:\n%s", want, op)
				}
			}
			if n := len(bullbear.Points(op)); n < bullbear.MinPoints || n > bullbear.MaxPoints {
				t.Errorf("bear opening has %d points", n)
			}
			doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(doc, "**Tools available:** sec_events, valuation; market data: off (valuation from the public float); web search: off") {
				t.Errorf("report does not state the tools:\n%.800s", doc)
			}
		})
	}
}

// TestBearResearchListsSharedDataWhenTheBullHasAModel: with a model for the
// bull (as the recorded cast says), the bull's note is the model's, so the
// data-only bear's note lists the timeline and the valuation itself.
func TestBearResearchListsSharedDataWhenTheBullHasAModel(t *testing.T) {
	ctx := context.Background()
	snap := snapshot.New()
	c, err := snap.Lookup(ctx, "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	set, err := sectools.New(sectools.Config{Source: snap, Company: c, Valuation: &bullbear.Analyzer{}})
	if err != nil {
		t.Fatal(err)
	}
	var more bullbear.Research
	if more.Valuation, _, err = set.Valuation(ctx); err != nil {
		t.Fatal(err)
	}
	rep, data := nvda(t)
	agents := bullbear.NewDataAgents(analysis.Assess(rep), data).WithResearch(more)
	spec := debate.TurnSpec{TurnRef: debate.TurnRef{ID: "research/bear", Agent: "bear", Role: "bear"}}
	for _, tc := range []struct {
		models map[string]string
		listed bool
	}{{nil, false}, {map[string]string{"bull": "openai/gpt-test"}, true}, {map[string]string{"*": "openai/gpt-test"}, true}} {
		text, err := agents.Respond(ctx, &debate.State{Models: tc.models, Turns: map[string]*debate.Turn{}}, spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text, "Valuation (public float basis):"); got != tc.listed {
			t.Errorf("models %v: the bear's note lists the valuation: %v, want %v:\n%s", tc.models, got, tc.listed, text)
		}
	}
}
