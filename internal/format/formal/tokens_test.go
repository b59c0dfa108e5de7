package formal_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
)

// TestTokensSharePrefixes: every request of the debate starts with one
// system prompt, the background (with a shared context of a few pages, as
// --context gives) and the dialogue so far, which only grows at its end; the
// party's role, the commitment stores and the task come last. So every
// debater's request after the first repeats nearly all of an earlier one as
// a prefix a provider has cached, whichever party spoke before. (The
// moderator's two requests carry their own structured-output schemas, which
// come before the system prompt, so they share no prefix: logged, not
// asserted.)
func TestTokensSharePrefixes(t *testing.T) {
	opts := formal.Options{Rounds: 1, Context: formal.Context{Dir: ".", Facts: []string{"Go monolith, 40 packages"},
		Digest: "Repository digest:\n" + strings.Repeat("internal/billing/invoice.go: invoices are built from usage records and plans.\n", 60)}}
	f := newFixture(t, opts, fullRules()...)
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	for i, r := range rep.PerRequest {
		if i == 0 || !strings.HasPrefix(r.Tag, "r") && !strings.HasPrefix(r.Tag, "closing/") {
			continue
		}
		if share := float64(r.Shared) / float64(r.Total); share < 0.8 {
			t.Errorf("request %d (%s) repeats %.0f%% of an earlier prefix, want at least 80%%", i, r.Tag, 100*share)
		}
	}
}

// TestForfeitedOpeningReport: a debate a side forfeited at the opening says
// so instead of printing empty stores, tables and map.
func TestForfeitedOpeningReport(t *testing.T) {
	f := newFixture(t, formal.Options{}, rules("r0/pro", moves(mv("why", "O1", "")), moves(mv("concede", "", ""))))
	s := f.MustRun()
	doc, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "the debate ended before an argument was exchanged") || strings.Contains(doc, "| ID | Content | Source | Score |") || strings.Contains(doc, "Argument Map (ASCII)") {
		t.Errorf("report:\n%s", doc)
	}
}
