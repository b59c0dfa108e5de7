package bullbear_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/script"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
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

func TestRenderGolden(t *testing.T) {
	o := nvdaOptions(t)
	o.Framework = "piotroski"
	o.FrameworkSummary = "Piotroski F-score FY2026: 4/9"
	_, doc := dataOnlyDebate(t, o)
	golden(t, "data_only.full.md", doc)

	wrong := "Bear case:\n- Revenue grew only 40% in FY2026, a slowdown (10-K FY2026)\n- Cash conversion of 0.86x means earnings outrun cash (10-K FY2026)\n- A handful of hyperscalers buy most of the output (10-K FY2026)"
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: wrong}})
	s := f.mustRun()
	sum, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "discrepancy.summary.md", sum)
	full, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "discrepancy.full.md", full)
}
