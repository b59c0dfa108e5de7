package formattest

import (
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestMeasureTokensStepSiblings: two turns of one step, the first finishing
// before the second is started (as goroutine timing may have it), then a
// turn of the next step. The second sibling's naive request carries only
// what the step was built from; the next step's carries both.
func TestMeasureTokensStepSiblings(t *testing.T) {
	a, b := strings.Repeat("alpha ", 400), strings.Repeat("beta ", 200)
	var events []debate.Event
	add := func(p debate.Payload) {
		e, err := debate.NewEvent("DEB-t", time.Time{}, p)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	add(debate.TurnStarted{Turn: debate.TurnRef{ID: "a"}, Attempt: 1})
	add(debate.TurnCompleted{Turn: debate.TurnRef{ID: "a"}, Text: a})
	add(debate.TurnStarted{Turn: debate.TurnRef{ID: "b"}, Attempt: 1})
	add(debate.TurnCompleted{Turn: debate.TurnRef{ID: "b"}, Text: b})
	add(debate.TurnStarted{Turn: debate.TurnRef{ID: "c"}, Attempt: 1})
	add(debate.TurnCompleted{Turn: debate.TurnRef{ID: "c"}, Text: "done"})
	req := func(tag string) llm.Request {
		return llm.Request{Tag: tag, System: "rules", Messages: []llm.Message{{Role: llm.RoleUser, Text: "task " + tag}}}
	}
	reqs := []llm.Request{req("a"), req("b"), req("c")}
	asked := map[string][]string{"a": nil, "b": nil, "c": {"a", "b"}}
	rep := MeasureTokens(events, reqs, asked)
	own := fakellm.InputTokens(req("b"))
	ta, tb := fakellm.Tokens(a)+fakellm.MessageOverhead, fakellm.Tokens(b)+fakellm.MessageOverhead
	if got := rep.PerRequest[1].Naive; got != own {
		t.Errorf("b's naive request is %d tokens, want %d: it must not see a, its sibling in the step", got, own)
	}
	if got, want := rep.PerRequest[2].Naive, fakellm.InputTokens(req("c"))+ta+tb; got != want {
		t.Errorf("c's naive request is %d tokens, want %d (its own and the transcript of a and b)", got, want)
	}
}
