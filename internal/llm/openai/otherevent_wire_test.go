package openai_test

import (
	"errors"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// An event of a type of its own whose data is not JSON (a proxy's
// heartbeat) is passed over: no chunk is in it. The SDK decodes every
// event's data and failed the call on it. Data that is not JSON in an
// event without a name, or named "message", is still a broken chunk.
func TestEventOfAnotherTypeWithoutJSON(t *testing.T) {
	for name, beat := range map[string]string{
		"heartbeat":       "event: heartbeat\ndata: ping\n\n",
		"two data lines":  "event: keep-alive\ndata: still\ndata: here\n\n",
		"name, then id":   "event: heartbeat\nid: 7\ndata: {not json\n\n",
		"JSON, of no use": "event: heartbeat\ndata: {\"t\":1}\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c1)+beat+chunk(c2)+beat+chunk(stop)+chunk(use)+done)))
			if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
				t.Fatalf("got %+v, %v; want the reply", r, err)
			}
		})
	}
	for name, body := range map[string]string{
		"no name":       "data: ping\n\n",
		"named message": "event: message\ndata: ping\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ask(rawServer(t, sse(chunk(c1)+body+chunk(c2)+chunk(stop)+done)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed {
				t.Fatalf("got %v, want a malformed chunk", err)
			}
		})
	}
}
