package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// The API pauses a long turn with stop_reason "pause_turn": the turn goes
// on when the paused content is sent back as the last, assistant,
// message. The call continues it, passing each part on once, and its
// usage is that of every message; it was taken for the end of the turn,
// and the reply kept cut short.
func TestPausedTurnContinues(t *testing.T) {
	const reply = "The bull case rests on three points: margins, share and cash."
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: reply}}), fakellm.WithAPIKey("k"), fakellm.WithPauseTurn(2))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	var r llm.Reply
	for c, err := range p.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "text", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Make the case."}}}) {
		if err != nil {
			t.Fatal(err)
		}
		deltas = append(deltas, c.Text)
		if c.Usage != nil {
			r.Usage, r.StopReason = *c.Usage, c.StopReason
		}
	}
	if got := strings.Join(deltas, ""); got != reply || r.StopReason != llm.StopEnd {
		t.Fatalf("got %q (%s), want the whole reply once", got, r.StopReason)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (the turn paused twice)", len(reqs))
	}
	for i, rq := range reqs[1:] {
		msgs := rq.Parsed.Messages
		if last := msgs[len(msgs)-1]; last.Role != llm.RoleAssistant || !strings.HasPrefix(reply, last.Text) || last.Text == "" {
			t.Errorf("continuation %d ends with %+v, want the paused content", i+1, last)
		}
	}
	// Each message's input counts the prompt it was sent: the call's is
	// their sum, more than one message's alone.
	once := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: reply}}))
	defer once.Close()
	q, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: once.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	r0, err := llm.Collect(q.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "text", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Make the case."}}}))
	if err != nil || r.Usage.Unreported || r.Usage.InputTokens < 3*r0.Usage.InputTokens || r.Usage.OutputTokens < r0.Usage.OutputTokens {
		t.Errorf("usage %+v, want the three messages' counts (one message: %+v) %v", r.Usage, r0.Usage, err)
	}
}

// A server that pauses for ever does not have the call run without end:
// it fails, saying so, after maxPauses continuations.
func TestPausedTurnWithoutEnd(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: strings.Repeat("word ", 40) + "end."}}),
		fakellm.WithPauseTurn(20))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ask(p)
	var e *llm.Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "pause_turn") || !strings.Contains(err.Error(), "not the whole reply") {
		t.Fatalf("%v, want an error naming the paused turn", err)
	}
	if n := len(srv.Requests()); n != 9 {
		t.Errorf("%d requests, want 9 (the call and 8 continuations)", n)
	}
}

// The paused content goes back as it came: thinking with its signature,
// the server tool's call and result blocks, and the text, in order.
func TestPausedTurnSendsContentBack(t *testing.T) {
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	paused := start +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Search first."}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBsig"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"acme margins\"}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) +
		ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"Acme","encrypted_content":"enc","page_age":null}]}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`) +
		ev("content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Hel"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":3}`) +
		delta("pause_turn") + stopEv
	rest := start +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		n := len(bodies)
		mu.Unlock()
		if n == 1 {
			sse(paused)(w, r)
			return
		}
		sse(rest)(w, r)
	})
	r, err := ask(p)
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
	want := llm.Usage{InputTokens: 20, CacheWriteTokens: 10, CacheReadTokens: 200, OutputTokens: 84}
	if r.Usage != want {
		t.Errorf("usage %+v, want both messages' %+v", r.Usage, want)
	}
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	var sent struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(bodies[1], &sent); err != nil {
		t.Fatal(err)
	}
	last := sent.Messages[len(sent.Messages)-1]
	var got []string
	for _, c := range last.Content {
		got = append(got, string(c))
	}
	all := strings.Join(got, "\n")
	if last.Role != "assistant" || len(got) != 4 {
		t.Fatalf("last message %s with %d blocks, want the assistant's 4:\n%s", last.Role, len(got), all)
	}
	for i, want := range []string{`"signature":"EqQBsig"`, `"id":"srvtoolu_1"`, `"encrypted_content":"enc"`, `"text":"Hel"`} {
		if !strings.Contains(got[i], want) {
			t.Errorf("block %d: %s, want %s", i, got[i], want)
		}
	}
	if !strings.Contains(got[0], `"thinking":"Search first."`) || !strings.Contains(got[1], `"query":"acme margins"`) {
		t.Errorf("blocks not sent back whole:\n%s", all)
	}
}

// A server that sends the paused message whole, not streamed, has its
// content sent back as well: the server tool's blocks and the thinking
// with its signature are not dropped on the way.
func TestPausedTurnSentWhole(t *testing.T) {
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		n := len(bodies)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if n == 1 {
			_, _ = w.Write([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[` +
				`{"type":"thinking","thinking":"Search first.","signature":"EqQBsig"},` +
				`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"acme margins"}},` +
				`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com","title":"Acme","encrypted_content":"enc","page_age":null}]},` +
				`{"type":"text","text":"Hel"}],"stop_reason":"pause_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":"msg_2","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"lo"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":30,"output_tokens":2}}`))
	})
	r, err := ask(p)
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd || r.Usage.InputTokens != 40 || r.Usage.OutputTokens != 7 {
		t.Fatalf("%+v %v", r, err)
	}
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	for _, want := range []string{`"signature":"EqQBsig"`, `"id":"srvtoolu_1"`, `"encrypted_content":"enc"`, `"text":"Hel"`} {
		if !strings.Contains(string(bodies[1]), want) {
			t.Errorf("continuation does not send back %s:\n%s", want, bodies[1])
		}
	}
}

// A compatible server that numbers its blocks from 1 (or with gaps) has
// its paused content sent back all the same.
func TestPausedTurnBlocksNumberedFromOne(t *testing.T) {
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	rest := start +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"lo"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) + delta("end_turn") + stopEv
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		n := len(bodies)
		mu.Unlock()
		if n == 1 {
			// text numbers its one block 1.
			sse(start+text+ev("content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`)+
				ev("content_block_delta", `{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":" and"}}`)+
				ev("content_block_stop", `{"type":"content_block_stop","index":3}`)+delta("pause_turn")+stopEv)(w, r)
			return
		}
		sse(rest)(w, r)
	})
	r, err := ask(p)
	if err != nil || r.Text != "Hello andlo" || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
	if len(bodies) != 2 || !strings.Contains(string(bodies[1]), `"text":"Hello"`) || !strings.Contains(string(bodies[1]), `"text":" and"`) {
		t.Errorf("continuation:\n%s", bodies[len(bodies)-1])
	}
}
