package debate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/tool"
)

// TestToolCallsAreBounded: tool calls are model output a server sends, as
// many and as large as it likes. A server that calls tools in every reply,
// tools offered or not, ends the turn (it looped for ever, a request and
// two events a round); one reply with a thousand calls records no more
// than the calls left and the one refused; arguments count towards the
// reply's MaxReplyBytes. The text the turn ends with is the format's to
// judge (the toy protocol takes any).
func TestToolCallsAreBounded(t *testing.T) {
	call := func(i int, args string) script.ToolCall {
		return script.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "echo", Args: json.RawMessage(args)}
	}
	var many []script.ToolCall
	for i := range 1000 {
		many = append(many, call(i, `{"x":1}`))
	}
	huge := `{"x":1,"pad":"` + strings.Repeat("a", debate.MaxReplyBytes) + `"}`
	for name, reply := range map[string]*script.Reply{
		"endless": {ToolCalls: []script.ToolCall{call(1, `{"x":1}`)}},
		"many":    {ToolCalls: many},
		"huge":    {ToolCalls: []script.ToolCall{call(1, huge)}},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, script.Rule{Tag: "t", Reply: reply})
			reg, err := tool.NewRegistry(&echoTool{})
			if err != nil {
				t.Fatal(err)
			}
			e.runner.Tools = reg
			lim := testLimits()
			lim.MaxToolCalls = 3
			e.create("d", lim)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := e.runner.Run(ctx, "d", &toyProto{steps: []toyStep{turns(toolTurn("t", "alpha"))}})
			if err != nil {
				t.Fatalf("the turn did not end: %v (%d requests)", err, len(e.requests("t")))
			}
			if n := len(e.requests("t")); n > lim.MaxToolCalls+3 {
				t.Errorf("%d requests for one turn with %d tool calls allowed", n, lim.MaxToolCalls)
			}
			evs := e.events("d")
			if n := len(decodeAll[debate.ToolCalled](t, evs)); n > lim.MaxToolCalls+1 {
				t.Errorf("%d tool calls recorded, want at most the %d allowed and one refused", n, lim.MaxToolCalls)
			}
			size := 0
			for _, ev := range evs {
				size += len(ev.Data)
			}
			if size > 2*debate.MaxReplyBytes {
				t.Errorf("the log holds %d bytes for one turn", size)
			}
			if name == "huge" && !strings.Contains(s.Turns["t"].Invalid, "cut at") {
				t.Errorf("a reply over MaxReplyBytes in its arguments is not marked cut: %q", s.Turns["t"].Invalid)
			}
		})
	}
}
