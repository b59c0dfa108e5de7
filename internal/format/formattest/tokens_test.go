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

// TestNewBytes: the first request is new as a whole; a later one only in
// what no run of an earlier request repeats (here the reply it is the
// first to carry), wherever the repeated parts stand in it.
func TestNewBytes(t *testing.T) {
	rules := Prose("rules", 60, "alpha", "beta", "gamma", "delta", "omega")
	reply := Prose("reply", 40, "north", "south", "east", "west", "centre")
	first := llm.Request{System: rules, Messages: []llm.Message{{Role: llm.RoleUser, Text: "open the debate"}}}
	second := llm.Request{System: rules, Messages: []llm.Message{{Role: llm.RoleUser, Text: "open the debate"}, {Role: llm.RoleAssistant, Text: reply}, {Role: llm.RoleUser, Text: "open the debate"}}}
	rep := MeasureTokens(nil, []llm.Request{first, second}, nil)
	f1, f2 := flatten(first), flatten(second)
	// The second request's new bytes are the reply and the few bytes of
	// framing around it that no 32-byte run of the first holds.
	if got := rep.NewBytes - len(f1); got < len(reply) || got > len(reply)+2*NovelRun {
		t.Errorf("the second request has %d new bytes, want the reply's %d and at most %d of framing", got, len(reply), 2*NovelRun)
	}
	if rep.NewBytes > rep.TotalBytes || len(f2) <= len(f1) {
		t.Fatalf("new %d of %d bytes", rep.NewBytes, rep.TotalBytes)
	}
	// The floor at 80% shared: five times the new bytes, in tokens.
	want := float64(rep.NewBytes) * 5 * float64(rep.Input) / float64(rep.TotalBytes) / float64(rep.Naive)
	if got := rep.FloorAt(0.8); got < want*0.999 || got > want*1.001 {
		t.Errorf("FloorAt(0.8) = %.3f, want %.3f", got, want)
	}
}
