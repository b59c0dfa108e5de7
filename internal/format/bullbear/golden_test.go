package bullbear_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

func TestRenderGolden(t *testing.T) {
	o := nvdaOptions(t)
	o.Framework = "piotroski"
	o.FrameworkSummary = "Piotroski F-score FY2026: 4/9"
	_, doc := dataOnlyDebate(t, o)
	formattest.Golden(t, "testdata/data_only.full.md", doc)

	wrong := "Bear case:\n- Revenue grew only 40% in FY2026, a slowdown (10-K FY2026)\n- Cash conversion of 0.86x means earnings outrun cash (10-K FY2026)\n- A handful of hyperscalers buy most of the output (10-K FY2026)"
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: wrong}})
	// One turn at a time: which of two concurrent turns writes the shared
	// prompt cache first would otherwise decide the per-agent cached figures.
	lim := debate.DefaultLimits()
	lim.Concurrency = 1
	f.Runner.Limits = &lim
	s := f.MustRun()
	sum, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/discrepancy.summary.md", sum)
	full, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/discrepancy.full.md", full)
}
