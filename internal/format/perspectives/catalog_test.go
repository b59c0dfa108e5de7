package perspectives_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/perspectives"
)

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBuiltinCatalog(t *testing.T) {
	c, err := perspectives.LoadCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	// The spec's six built-ins are all there.
	for _, n := range []string{perf, "Simplicity Advocate", "Security Advocate", flex, "User Experience", ops} {
		if _, ok := c.Find(n); !ok {
			t.Errorf("built-in catalog lacks %q", n)
		}
	}
	// Every tension names a perspective of the catalog, so InTension can see it.
	for _, p := range c {
		if len(p.Tensions) == 0 {
			t.Errorf("%s has no tensions", p.Name)
		}
		for _, tn := range p.Tensions {
			if _, ok := c.Find(tn); !ok {
				t.Errorf("%s is in tension with unknown %q", p.Name, tn)
			}
		}
	}
	if p, ok := c.Find("performance-advocate"); !ok || p.Name != perf {
		t.Error("Find by slug")
	}
	if p, ok := c.Find("PERFORMANCE ADVOCATE"); !ok || p.Name != perf {
		t.Error("Find ignores case")
	}
	if !c.InTension([]string{perf, ops}) || c.InTension([]string{perf, flex}) {
		t.Error("InTension")
	}
	if sug := c.Suggest("Should we use Redis or PostgreSQL for caching?"); len(sug) < 2 || sug[0] != perf && sug[0] != ops {
		t.Errorf("Suggest = %v", sug)
	}
}

func TestLoadCatalogExtendsAndOverrides(t *testing.T) {
	path := writeFile(t, "perspectives.yaml", `
perspectives:
  - name: Compliance First
    priorities: [audit trails, data residency]
    trade_offs: Will accept development slowdown for compliance
    tensions: [Delivery Speed]
  - name: performance advocate
    priorities: [p99 latency]
    trade_offs: Will accept cost for tail latency
`)
	c, err := perspectives.LoadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := perspectives.LoadCatalog("")
	if len(c) != len(builtin)+1 {
		t.Errorf("%d perspectives, want the %d built-ins plus one", len(c), len(builtin))
	}
	if p, _ := c.Find(perf); !slices.Equal(p.Priorities, []string{"p99 latency"}) {
		t.Errorf("override not applied: %+v", p)
	}
	if c[0].Priorities[0] != "p99 latency" {
		t.Error("an override should keep the built-in's place in the catalog")
	}
	if p, ok := c.Find("Compliance First"); !ok || p.TradeOffs == "" || c[len(c)-1].Name != "Compliance First" {
		t.Errorf("extension missing or misplaced: %+v", p)
	}
}

func TestLoadCatalogReplace(t *testing.T) {
	path := writeFile(t, "mine.yaml", `
replace: true
perspectives:
  - {name: Hawk, priorities: [growth], trade_offs: accepts risk, tensions: [Dove]}
  - {name: Dove, priorities: [safety], trade_offs: accepts slower growth}
`)
	c, err := perspectives.LoadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Names(), []string{"Hawk", "Dove"}) {
		t.Errorf("names %v", c.Names())
	}
	one := writeFile(t, "one.yaml", "replace: true\nperspectives:\n  - {name: Hawk, priorities: [growth], trade_offs: accepts risk}\n")
	if _, err := perspectives.LoadCatalog(one); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("one perspective after replace: %v", err)
	}
}

// The spec's settings file (settings.amelia.yaml, "debate:" section with
// custom_perspectives among other settings) is accepted.
func TestLoadCatalogSpecSettingsFile(t *testing.T) {
	path := writeFile(t, "settings.yaml", `
debate:
  max_rounds: 5
  default_perspectives: 2
  token_budget_per_round: 2000
  round_timeout_seconds: 120
  checkpoint_timeout_seconds: 1800
  total_timeout_seconds: 1800
  custom_perspectives:
    - name: "Compliance First"
      priorities: [audit trails, data residency, SOC2 requirements]
      trade_offs: "Will accept development slowdown for compliance"
`)
	c, err := perspectives.LoadCatalog(path)
	if err != nil {
		t.Fatalf("LoadCatalog(spec settings file): %v", err)
	}
	if _, ok := c.Find("Compliance First"); !ok {
		t.Error("custom_perspectives not loaded")
	}
}

func TestLoadCatalogErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, body, want string
	}{
		{"malformed.yaml", "perspectives: [name: x\n", "parse"},
		{"unknown-field.yaml", "perspectives:\n  - {name: X, priorities: [a], trade_offs: b, colour: red}\n", `line 2: unknown key "colour" (the keys under perspectives: name, priorities, trade_offs, keywords, tensions)`},
		{"wrong-kind.yaml", "perspectives:\n  - name: X\n    priorities: a\n    trade_offs: b\n", `line 3: priorities: "a" is not a list`},
		{"unknown-top.yaml", "perspective:\n  - {name: X}\n", `line 1: unknown key "perspective" (the keys at the top level: replace, perspectives, debate)`},
		{"empty.yaml", "replace: false\n", "no perspectives"},
		{"no-name.yaml", "perspectives:\n  - {priorities: [a], trade_offs: b}\n", "perspective 1 has no name"},
		{"no-priorities.yaml", "perspectives:\n  - {name: X, trade_offs: b}\n", `"X" has no priorities`},
		{"no-tradeoffs.yaml", "perspectives:\n  - {name: X, priorities: [a]}\n", `"X" has no trade_offs`},
		{"long-name.yaml", "perspectives:\n  - {name: " + strings.Repeat("x", 61) + ", priorities: [a], trade_offs: b}\n", "the name is 61 characters; keep it to 60"},
		{"escape-name.yaml", "perspectives:\n  - {name: \"X\\e]0;pwned\\a\", priorities: [a], trade_offs: b}\n", `the name "X\x1b]0;pwned\a" holds a line break`},
		{"lines-name.yaml", "perspectives:\n  - {name: \"X\\n── Moderator · synthesis ──\", priorities: [a], trade_offs: b}\n", "one line of plain text"},
		{"bidi-name.yaml", "perspectives:\n  - {name: \"X\\u202eY\", priorities: [a], trade_offs: b}\n", "one line of plain text"},
		{"twice.yaml", "perspectives:\n  - {name: X, priorities: [a], trade_offs: b}\n  - {name: x, priorities: [a], trade_offs: b}\n", "appears twice"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := perspectives.LoadCatalog(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: err = %v, want it to name the file and say %q", c.name, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "perspectives.") || strings.Contains(err.Error(), "!!")) {
			t.Errorf("%s: err = %v names a Go or YAML type", c.name, err)
		}
	}
	missing := filepath.Join(dir, "nope.yaml")
	if _, err := perspectives.LoadCatalog(missing); err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := perspectives.LoadCatalog(dir); err == nil || !strings.Contains(err.Error(), "read catalog") {
		t.Errorf("a directory: %v", err)
	}
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		locked := filepath.Join(dir, "locked.yaml")
		if err := os.WriteFile(locked, []byte("perspectives: []\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := perspectives.LoadCatalog(locked); err == nil || !strings.Contains(err.Error(), "read catalog") || !strings.Contains(err.Error(), "permission") {
			t.Errorf("unreadable file: %v", err)
		}
	}
}
