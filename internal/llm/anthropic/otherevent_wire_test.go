package anthropic_test

import (
	"errors"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// An event of a type the API does not send whose data is not JSON (a
// proxy's heartbeat) is passed over, as the streaming docs ask of unknown
// event types; the SDK decodes every event's data and failed the call on
// it. An event of the API's own type whose data is not JSON still fails.
func TestEventOfAnotherTypeWithoutJSON(t *testing.T) {
	for name, beat := range map[string]string{
		"heartbeat":       "event: heartbeat\ndata: ping\n\n",
		"two data lines":  "event: keep-alive\ndata: still\ndata: here\n\n",
		"name, then id":   "event: heartbeat\nid: 7\ndata: {not json\n\n",
		"JSON, of no use": "event: heartbeat\ndata: {\"type\":\"heartbeat\"}\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(start+beat+text+beat+delta("end_turn")+stopEv)))
			if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
				t.Fatalf("got %+v, %v; want the reply", r, err)
			}
		})
	}
	_, err := ask(rawServer(t, sse(start+"event: content_block_delta\ndata: ping\n\n"+text+delta("end_turn")+stopEv)))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed {
		t.Fatalf("content_block_delta with data not JSON: %v, want a malformed event", err)
	}
}
