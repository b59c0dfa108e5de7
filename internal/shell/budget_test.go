package shell

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
)

// TestBudgetPauseSaysHowToGoOn: a debate paused on its token budget is not
// told "Type /resume to go on", which pauses it again at once on the same
// budget; the shell names the command that gives a larger one, and that
// command goes on with it.
func TestBudgetPauseSaysHowToGoOn(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 120, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?" --model test-model --no-checkpoints --debate-budget 100`)
	h.settle()
	id := h.m.current
	tr := h.flat()
	if strings.Contains(tr, "Type /resume to go on") || !strings.Contains(tr, "/debate --resume "+h.normalize(id)+" --debate-budget N") {
		t.Fatalf("a budget pause does not say how to give a larger budget:\n%s", h.transcript())
	}
	h.typeLine("/debate --resume " + id + " --debate-budget 1000000")
	h.settle()
	st, _, err := h.m.app.Load(h.m.ctx, id)
	if err != nil || st.Status != debate.StatusCompleted {
		t.Fatalf("after a resume with a larger budget: %v, %v; want it completed", st.Status, err)
	}
}
