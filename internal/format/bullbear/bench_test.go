package bullbear_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// BenchmarkDebateInputTokens measures what a bull vs. bear debate on NVDA
// sends to the model, with and without prompt caching, on the scripted
// provider (which simulates caching: a prefix marked cacheable is written
// once and read on every later request that repeats it; a token is a word).
//
// The replies are as long as a real debate's (research summaries citing
// every reported figure, five-point openings, quoting rebuttals) and one
// figure is off, so that the reconciliation turns run too. Metrics per
// debate:
//
//	input-tokens    prompt tokens billed at the full rate (all of them without caching)
//	cache-read      prompt tokens read from the cache
//	cache-write     prompt tokens written to the cache
//	billed-input    input-tokens + 0.1×cache-read + 1.25×cache-write: Anthropic's rates, in input-token units
//	saved-%         how much less billed-input than without caching
func BenchmarkDebateInputTokens(b *testing.B) {
	opts := nvdaOptions(b)
	for _, mode := range []string{"quick", "deep"} {
		o := opts
		o.Deep = mode == "deep"
		var off llm.Usage
		for _, caching := range []bool{false, true} {
			name := fmt.Sprintf("%s/cache=%s", mode, map[bool]string{false: "off", true: "on"}[caching])
			b.Run(name, func(b *testing.B) {
				var u llm.Usage
				for b.Loop() {
					u = benchDebate(b, o, caching)
				}
				billed := float64(u.InputTokens) + 0.1*float64(u.CacheReadTokens) + 1.25*float64(u.CacheWriteTokens)
				b.ReportMetric(float64(u.InputTokens), "input-tokens")
				b.ReportMetric(float64(u.CacheReadTokens), "cache-read")
				b.ReportMetric(float64(u.CacheWriteTokens), "cache-write")
				b.ReportMetric(billed, "billed-input")
				if !caching {
					off = u
					return
				}
				if off.InputTokens > 0 {
					b.ReportMetric(100*(1-billed/float64(off.InputTokens)), "saved-%")
				}
			})
		}
	}
}

// benchDebate runs one debate on a fresh script (so that no cache carries
// over from the previous one) and returns its usage.
func benchDebate(b *testing.B, o bullbear.Options, caching bool) llm.Usage {
	sc, err := script.New(benchRules(o)...)
	if err != nil {
		b.Fatal(err)
	}
	var prov llm.Provider = script.NewProvider(sc)
	if !caching {
		prov = noCache{prov}
	}
	store := memstore.New()
	defer store.Close()
	r := &debate.Runner{Store: store, Cast: debate.Cast{Default: debate.Model{Provider: prov, Name: "claude-sonnet-4-5"}}, Now: func() time.Time { return created }}
	raw := formattest.JSON(o)
	proto, err := bullbear.Format{}.Protocol(o.Ticker, raw)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := r.Create(ctx, "DEB-bench", debate.Created{Format: bullbear.Name, Topic: o.Ticker, Options: raw, Limits: debate.Limits{}}); err != nil {
		b.Fatal(err)
	}
	s, err := r.Run(ctx, "DEB-bench", proto)
	if err != nil {
		b.Fatal(err)
	}
	if s.Status != debate.StatusCompleted || s.Completed("reconcile/bear") == nil {
		b.Fatalf("debate %s, turns %v", s.Status, s.Done)
	}
	return s.Usage
}

// noCache is a provider whose requests mark nothing cacheable: the debate
// without prompt caching.
type noCache struct{ llm.Provider }

func (p noCache) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	req.CacheSystem = false
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		m.Cache = false
		msgs[i] = m
	}
	req.Messages = msgs
	return p.Provider.Stream(ctx, req)
}

// benchRules script a debate with replies of realistic length.
func benchRules(o bullbear.Options) []script.Rule {
	var research strings.Builder
	research.WriteString("Research summary, figures from the 10-K:\n")
	for _, f := range o.Figures {
		fmt.Fprintf(&research, "- %s: %s in FY%d (%s)\n", f.Label, f.Display, f.FiscalYear, f.Citation)
	}
	elaborate := " This matters because it compounds over the next several fiscal years, and the filing's segment disclosure supports it."
	bull := "Bull case:\n" +
		"- Revenue grew 65% in FY2026 to lead the market (10-K 0001045810-26-000021)." + elaborate + "\n" +
		"- Gross margin of 71% shows pricing power (10-K FY2026)." + elaborate + "\n" +
		"- Operating margin of 60% funds the roadmap (10-K FY2026)." + elaborate + "\n" +
		"- Free cash flow covers buybacks and research spending with room to spare (10-K FY2026)." + elaborate + "\n" +
		"- The software ecosystem keeps customers on the platform (10-K FY2026)." + elaborate
	bear := "Bear case:\n" +
		"- Revenue grew only 40% in FY2026, a slowdown (10-K FY2026)." + elaborate + "\n" +
		"- Cash conversion of 0.86x means earnings outrun cash (10-K FY2026)." + elaborate + "\n" +
		"- A handful of hyperscalers buy most of the output (10-K FY2026)." + elaborate + "\n" +
		"- Export controls cap sales in a large market (10-K FY2026)." + elaborate + "\n" +
		"- Competitors' accelerators narrow the performance gap (10-K FY2026)." + elaborate
	long := strings.Repeat(" The filing's own numbers support this reading, and the opposing case overstates the risk.", 4)
	return []script.Rule{
		{TagPrefix: "research/", Reply: &script.Reply{Text: research.String()}},
		{Tag: "opening/bull", Reply: &script.Reply{Text: bull}},
		{Tag: "opening/bear", Reply: &script.Reply{Text: bear}},
		{TagRegexp: `^rebuttal/\d/bull$`, Reply: &script.Reply{Text: `The bear says "Cash conversion of 0.86x means earnings outrun cash", but free cash flow margin of 45% (10-K FY2026) shows the cash is there.` + long}},
		{TagRegexp: `^rebuttal/\d/bear$`, Reply: &script.Reply{Text: "> Gross margin of 71% shows pricing power\n\nPricing power fades when supply catches up." + long}},
		{TagPrefix: "reconcile/", Reply: &script.Reply{Text: "I correct my figure to the 10-K's 65.5%; it does not change my case."}},
		{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: synthesisJSON(7, "STRONG BULL")}},
	}
}

// BenchmarkAnalyzer measures what a debate's Analyzer pays for NVIDIA's
// companyfacts document of the offline snapshot (4 MB) the first time it
// sees it: Parse (hashing the document for the Analyzer's cache, then
// xbrl's parse), and Report (Parse, then the analysis of the latest year).
// Each round uses a new Analyzer, so that nothing is cached between rounds.
func BenchmarkAnalyzer(b *testing.B) {
	raw, err := snapshot.New().CompanyFacts(context.Background(), 1045810)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(raw.Body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := (&bullbear.Analyzer{}).Parse(raw.Body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Report", func(b *testing.B) {
		b.SetBytes(int64(len(raw.Body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := (&bullbear.Analyzer{}).Report(raw.Body, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
