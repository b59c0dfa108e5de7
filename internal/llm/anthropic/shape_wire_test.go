package anthropic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A content_block_delta whose delta is not an object (a string, a list)
// fails as malformed and is asked once more: the SDK read it as absent,
// the text in it was lost, and the rest of the reply stood as whole. An
// empty one carries nothing and is passed over.
func TestDeltaOfAnotherShape(t *testing.T) {
	open := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	d := func(x string) string {
		return ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":`+x+`}`)
	}
	end := ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv
	for name, bad := range map[string]string{"a string": `"Hel"`, "a list": `[{"type":"text_delta","text":"Hel"}]`} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(start+open+d(bad)+d(`{"type":"text_delta","text":"lo"}`)+end)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 || !strings.Contains(err.Error(), "delta is not an object") {
				t.Fatalf("got %+v, %v; want a malformed delta", r, err)
			}
		})
	}
	r, err := ask(rawServer(t, sse(start+open+d(`{"type":"text_delta","text":"Hel"}`)+d(`""`)+d(`{"type":"text_delta","text":"lo"}`)+end)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("empty delta: %+v, %v; want the reply", r, err)
	}
}
