package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server that frames its stream as line-delimited JSON (a chunk object
// a line, no "data:" field, no [DONE]) is read as the stream it is: the
// text, the tool calls with their arguments split over chunks, the
// counts of the last chunk, and an error sent as a line of its own. It
// was read as one reply sent whole, which did not parse, and every try of
// every call failed as malformed.
func TestLineDelimitedJSON(t *testing.T) {
	call := script.ToolCall{ID: "call_1", Name: "lookup", Args: json.RawMessage(`{"query":"revenue 2025","limit":3}`)}
	srv := fakellm.Start(script.MustNew(
		script.Rule{Tag: "tool", Reply: &script.Reply{ToolCalls: []script.ToolCall{call}}},
		script.Rule{Tag: "error", Reply: &script.Reply{Text: "Hello there, friend", Fault: &script.Fault{Stream: "error", After: 1, Status: 503, Message: "the model is overloaded"}}},
		script.Rule{Reply: &script.Reply{Text: "Hello there, friend"}},
	), fakellm.WithNDJSON())
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(tag string) (llm.Reply, error) {
		req := limited("m")
		req.Tag = tag
		req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
		return llm.Collect(p.Stream(context.Background(), req))
	}
	r, err := ask("text")
	if err != nil || r.Text != "Hello there, friend" || r.StopReason != llm.StopEnd || r.Usage.Unreported || r.Usage.OutputTokens == 0 {
		t.Errorf("text: %+v %v", r, err)
	}
	r, err = ask("tool")
	if err != nil || r.StopReason != llm.StopToolUse || len(r.ToolCalls) != 1 ||
		r.ToolCalls[0].Name != "lookup" || string(r.ToolCalls[0].Args) != string(call.Args) {
		t.Errorf("tool: %+v %v", r, err)
	}
	_, err = ask("error")
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrOverloaded {
		t.Errorf("error line: %v, want the server's overloaded error", err)
	}
	if srv.Requests()[0].Stream != true {
		t.Error("the request did not ask for a stream")
	}
}

// A line-delimited stream whose first chunk has no choice and no object
// name (Azure's filter results first) is a stream too.
func TestLineDelimitedJSONFirstChunkWithoutChoice(t *testing.T) {
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		for _, l := range []string{`{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`, c1, c2, stop, use} {
			_, _ = w.Write([]byte(l + "\n"))
			w.(http.Flusher).Flush()
		}
	})
	r, err := ask(p)
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd || r.Usage.InputTokens != 7 {
		t.Fatalf("%+v %v", r, err)
	}
}
