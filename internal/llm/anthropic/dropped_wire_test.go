package anthropic_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Events the SDK's decoder drops whatever their data holds are read as
// what their data is: its text was lost, and the rest stood as the whole
// reply. A "ping" event carrying a content delta (the streaming docs give
// a ping no data but {"type": "ping"}; the SDK reads every other event by
// its data's type, and drops every ping); an event of the API's whose
// data has no "type" (read by it, it was of no type); an event without
// its event: line whose JSON goes on over two data: lines (which the SSE
// spec joins); a last event the stream ends after without the blank line
// that dispatches it.
func TestEventsTheSDKWouldDrop(t *testing.T) {
	blockStart := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	a := ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"A"}}`)
	blockStop := ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	end := blockStop + delta("end_turn") + stopEv
	for name, body := range map[string]string{
		"ping carrying a delta": start + blockStart + a + ev("ping", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"B"}}`) + end,
		"ping carrying the stop": start + blockStart + a + ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"B"}}`) + blockStop +
			ev("ping", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`) + stopEv,
		"data without its type": start + blockStart + a + ev("content_block_delta", `{"index":0,"delta":{"type":"text_delta","text":"B"}}`) + end,
		"data over two lines":   dataOnly(start+blockStart+a) + "data: {\"type\":\"content_block_delta\",\"index\":0,\ndata: \"delta\":{\"type\":\"text_delta\",\"text\":\"B\"}}\n\n" + dataOnly(end),
		"named, over two lines": start + blockStart + a + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\ndata: \"delta\":{\"type\":\"text_delta\",\"text\":\"B\"}}\n\n" + end,
		"no blank line at the end": start + blockStart + a + ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"B"}}`) + blockStop +
			strings.TrimSuffix(delta("end_turn"), "\n"),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(body)))
			if err != nil || r.Text != "AB" || r.StopReason != llm.StopEnd {
				t.Fatalf("got %q (stop %q), %v; want \"AB\", the whole reply", r.Text, r.StopReason, err)
			}
		})
	}
	// A ping as the API sends it, and one of no type of the API's, are
	// passed over.
	for _, p := range []string{`{"type": "ping"}`, `{"type":"heartbeat","text":"x"}`, `{}`} {
		r, err := ask(rawServer(t, sse(start+blockStart+a+ev("ping", p)+ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"B"}}`)+end)))
		if err != nil || r.Text != "AB" {
			t.Errorf("ping %s: %q, %v; want the reply", p, r.Text, err)
		}
	}
}

// A byte order mark at the start of any line, not only of the body (a
// proxy that writes each event with one), is dropped: the SDK read the
// line as a field named "\uFEFFevent", and the event was lost.
func TestByteOrderMarkOnEachLine(t *testing.T) {
	var body string
	for _, e := range strings.SplitAfter(start+text+delta("end_turn")+stopEv, "\n\n") {
		if e != "" {
			body += "\ufeff" + e
		}
	}
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
		t.Fatalf("got %q (stop %q), %v; want \"Hello\"", r.Text, r.StopReason, err)
	}
}
