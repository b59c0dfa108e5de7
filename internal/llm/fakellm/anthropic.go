package fakellm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/llm/strictschema"
)

// anthropicAPI speaks POST /v1/messages.
type anthropicAPI struct{}

func (anthropicAPI) cacheMode() cacheMode { return cacheExplicit }

func (anthropicAPI) name() string { return "anthropic" }

func (anthropicAPI) keyOK(h http.Header, key string) bool {
	return h.Get("X-Api-Key") == key || bearer(h) == key
}

type antBlock struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      json.RawMessage `json:"content,omitempty"` // string or blocks
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

// antContent is a message's content: a string or a list of blocks.
type antContent []antBlock

func (c *antContent) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = antContent{{Type: "text", Text: s}}
		return nil
	}
	var blocks []antBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

type antRequest struct {
	Model     string     `json:"model"`
	MaxTokens int        `json:"max_tokens"`
	System    antContent `json:"system"`
	Messages  []struct {
		Role    string     `json:"role"`
		Content antContent `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
	ToolChoice *struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tool_choice"`
	OutputConfig *struct {
		Format *struct {
			Type   string          `json:"type"`
			Schema json.RawMessage `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
	Stream bool `json:"stream"`
}

func (anthropicAPI) parse(h http.Header, body []byte) (llm.Request, structuredMode, bool, error) {
	var mode structuredMode
	if h.Get("Anthropic-Version") == "" {
		return llm.Request{}, mode, false, errors.New("anthropic-version: header is required")
	}
	var ar antRequest
	if err := json.Unmarshal(body, &ar); err != nil {
		return llm.Request{}, mode, false, fmt.Errorf("invalid JSON body: %w", err)
	}
	switch {
	case ar.Model == "":
		return llm.Request{}, mode, ar.Stream, errors.New("model: Field required")
	case ar.MaxTokens <= 0:
		return llm.Request{}, mode, ar.Stream, errors.New("max_tokens: Field required")
	case len(ar.Messages) == 0:
		return llm.Request{}, mode, ar.Stream, errors.New("messages: at least one message is required")
	}
	req := llm.Request{Model: ar.Model, MaxTokens: ar.MaxTokens, Tag: h.Get(TagHeader)}
	var sys []string
	for _, b := range ar.System {
		sys = append(sys, b.Text)
		if len(b.CacheControl) > 0 {
			req.CacheSystem = true
		}
	}
	req.System = strings.Join(sys, "\n")
	for _, m := range ar.Messages {
		msg := llm.Message{Role: llm.MessageRole(m.Role)}
		var texts []string
		for _, b := range m.Content {
			if len(b.CacheControl) > 0 {
				msg.Cache = true
			}
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Args: b.Input})
			case "tool_result":
				msg.ToolResults = append(msg.ToolResults, llm.ToolResult{CallID: b.ToolUseID, Content: resultText(b.Content), IsError: b.IsError})
			default:
				return req, mode, ar.Stream, fmt.Errorf("messages: content block type %q is not supported by fakellm", b.Type)
			}
		}
		msg.Text = strings.Join(texts, "\n")
		req.Messages = append(req.Messages, msg)
	}
	forced := ""
	if ar.ToolChoice != nil && ar.ToolChoice.Type == "tool" {
		forced = ar.ToolChoice.Name
	}
	for _, t := range ar.Tools {
		if t.Name == forced {
			// The forced tool is how the caller asks for structured output.
			req.Schema = &llm.Schema{Name: t.Name, Description: t.Description, JSON: t.InputSchema}
			mode.forcedTool = t.Name
			continue
		}
		req.Tools = append(req.Tools, llm.ToolSpec{Name: t.Name, Description: t.Description, Schema: t.InputSchema})
	}
	if forced != "" && mode.forcedTool == "" {
		return req, mode, ar.Stream, fmt.Errorf("tool_choice: tool %q is not in tools", forced)
	}
	if oc := ar.OutputConfig; oc != nil && oc.Format != nil {
		if oc.Format.Type != "json_schema" || len(oc.Format.Schema) == 0 {
			return req, mode, ar.Stream, errors.New("output_config.format: want type json_schema with a schema")
		}
		req.Schema = &llm.Schema{Name: "output", JSON: oc.Format.Schema}
	}
	return req, mode, ar.Stream, nil
}

func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []antBlock
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// antErrorType is the error.type the API sends with each status.
func antErrorType(status int) string {
	switch status {
	case 400, 422:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 504:
		return "timeout_error"
	case 529, 503:
		return "overloaded_error"
	}
	return "api_error"
}

func antErrorBody(status int, errType, msg string) map[string]any {
	if errType == "" {
		errType = antErrorType(status)
	}
	return map[string]any{
		"type":       "error",
		"error":      map[string]any{"type": errType, "message": msg},
		"request_id": "req_fake",
	}
}

func (anthropicAPI) writeError(w http.ResponseWriter, status int, errType, msg string) {
	writeJSON(w, status, antErrorBody(status, errType, msg))
}

func (a anthropicAPI) writeAuthError(w http.ResponseWriter, _ http.Header) {
	a.writeError(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
}

// anthropicRateLimitHeaders sets the anthropic-ratelimit-* headers of a
// 429 whose request limit is spent until retryAfter seconds (1 when it
// is not a number) after now; the token limits are not spent and reset
// sooner.
func anthropicRateLimitHeaders(h http.Header, retryAfter string, now time.Time) {
	secs, err := strconv.Atoi(retryAfter)
	if err != nil || secs <= 0 {
		secs = 1
	}
	at := func(d time.Duration) string { return now.Add(d).UTC().Format(time.RFC3339) }
	h.Set("Anthropic-Ratelimit-Requests-Limit", "50")
	h.Set("Anthropic-Ratelimit-Requests-Remaining", "0")
	h.Set("Anthropic-Ratelimit-Requests-Reset", at(time.Duration(secs)*time.Second))
	h.Set("Anthropic-Ratelimit-Input-Tokens-Limit", "30000")
	h.Set("Anthropic-Ratelimit-Input-Tokens-Remaining", "29000")
	h.Set("Anthropic-Ratelimit-Input-Tokens-Reset", at(time.Second))
	h.Set("Anthropic-Ratelimit-Output-Tokens-Limit", "8000")
	h.Set("Anthropic-Ratelimit-Output-Tokens-Remaining", "7000")
	h.Set("Anthropic-Ratelimit-Output-Tokens-Reset", at(time.Second))
}

// refusalCategory and refusalExplanation are the stop_details of every
// refusal the fake server sends, as the API words them: a policy category
// and an explanation meant for the user.
const (
	refusalCategory    = "cyber"
	refusalExplanation = "This request was declined because it asks for help with malicious code."
)

// stopDetails is the stop_details of a message that stopped for stop: a
// refusal's category and explanation, null for the other reasons.
func stopDetails(stop string) any {
	if stop != "refusal" {
		return nil
	}
	return map[string]any{"type": "refusal", "category": refusalCategory, "explanation": refusalExplanation}
}

func antStop(s string) string {
	switch s {
	case llm.StopToolUse:
		return "tool_use"
	case llm.StopMaxTokens:
		return "max_tokens"
	case llm.StopContextWindow:
		return "model_context_window_exceeded"
	case llm.StopRefusal:
		return "refusal"
	case stopPauseTurn:
		return stopPauseTurn
	}
	return "end_turn"
}

func antUsage(u llm.Usage) map[string]any {
	return map[string]any{
		"input_tokens":                u.InputTokens,
		"output_tokens":               u.OutputTokens,
		"cache_read_input_tokens":     u.CacheReadTokens,
		"cache_creation_input_tokens": u.CacheWriteTokens,
	}
}

// blocks lists the content blocks of the answer. In forced-tool mode the reply
// text is the tool's input.
func (anthropicAPI) blocks(a answer) []map[string]any {
	var out []map[string]any
	if a.Mode.forcedTool != "" && a.Text != "" {
		input := json.RawMessage(a.Text)
		if !json.Valid(input) {
			// A real model cannot send invalid tool input; keep the text so
			// the client still sees what the script said.
			input, _ = json.Marshal(map[string]string{"text": a.Text})
		}
		out = append(out, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%d", a.ID), "name": a.Mode.forcedTool, "input": input})
	} else if a.Text != "" {
		out = append(out, map[string]any{"type": "text", "text": a.Text})
	}
	for _, tc := range a.ToolCalls {
		out = append(out, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": tc.Args})
	}
	return out
}

func (api anthropicAPI) stop(a answer) string {
	if a.Mode.forcedTool != "" && a.Text != "" {
		return "tool_use"
	}
	return antStop(a.StopReason)
}

func (api anthropicAPI) writeJSON(w http.ResponseWriter, a answer) {
	if f := a.Fault; f != nil {
		switch f.Stream {
		case "cut":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":"msg_fake","type":"message","content":[{"type":"text","text":"`))
			panic(http.ErrAbortHandler)
		case "malformed":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":"msg_fake","type":"message",,}`))
			return
		case "error":
			api.writeError(w, f.Status, f.Type, faultMessage(f))
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":            fmt.Sprintf("msg_fake_%d", a.ID),
		"type":          "message",
		"role":          "assistant",
		"model":         a.Model,
		"content":       api.blocks(a),
		"stop_reason":   api.stop(a),
		"stop_sequence": nil,
		"stop_details":  stopDetails(api.stop(a)),
		"usage":         antUsage(a.Usage),
	})
}

func (api anthropicAPI) writeStream(sw *sseWriter, a answer) {
	start := antUsage(a.Usage)
	start["output_tokens"] = 0 // the API counts output as it goes; final count in message_delta
	if !sw.event("message_start", map[string]any{
		"type": "message_start",
		"message": map[string]any{
			"id": fmt.Sprintf("msg_fake_%d", a.ID), "type": "message", "role": "assistant", "model": a.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": start,
		},
	}) {
		return
	}
	if !sw.event("ping", map[string]any{"type": "ping"}) {
		return
	}
	sent := 0
	fault := func() bool {
		f := a.Fault
		if f == nil || sent != f.After {
			return false
		}
		switch f.Stream {
		case "cut":
			sw.cut()
		case "malformed":
			sw.raw("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"unterminated`)
		case "error":
			sw.event("error", antErrorBody(f.Status, f.Type, faultMessage(f)))
		}
		return true
	}
	index := 0
	forced := a.Mode.forcedTool != "" && a.Text != ""
	if a.Finish != "" && a.Fault == nil && a.Text != "" && !forced {
		// The server gave up half way (WithFinishReason), as vLLM's
		// /v1/messages says so: the stop reason its table has for the
		// finish reason, null for the words it has none for ("abort").
		pieces := script.Split(a.Text)
		if !sw.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}) {
			return
		}
		for _, piece := range pieces[:len(pieces)/2] {
			if !sw.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": piece}}) {
				return
			}
		}
		var stop any
		switch a.Finish {
		case "stop":
			stop = "end_turn"
		case "length":
			stop = "max_tokens"
		case "tool_calls":
			stop = "tool_use"
		}
		if sw.blockStop(0) &&
			sw.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": antUsage(a.Usage)}) {
			sw.done()
		}
		return
	}
	if a.Text != "" && !forced {
		if !sw.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "text", "text": ""}}) {
			return
		}
		for _, piece := range script.Split(a.Text) {
			if fault() {
				return
			}
			if !sw.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "text_delta", "text": piece}}) {
				return
			}
			sent++
		}
		if !sw.blockStop(index) {
			return
		}
		index++
	}
	if fault() {
		return
	}
	if a.Fault != nil {
		// After is past the end of the text: fail before the message ends.
		sent = a.Fault.After
		fault()
		return
	}
	type tool struct{ id, name, args string }
	var tools []tool
	if forced {
		tools = append(tools, tool{fmt.Sprintf("toolu_fake_%d", a.ID), a.Mode.forcedTool, a.Text})
	}
	for _, tc := range a.ToolCalls {
		tools = append(tools, tool{tc.ID, tc.Name, string(tc.Args)})
	}
	for _, t := range tools {
		if !sw.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": t.id, "name": t.name, "input": map[string]any{}}}) {
			return
		}
		for _, piece := range splitJSON(t.args) {
			if !sw.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": piece}}) {
				return
			}
		}
		if !sw.blockStop(index) {
			return
		}
		index++
	}
	if !sw.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": api.stop(a), "stop_sequence": nil, "stop_details": stopDetails(api.stop(a))},
		"usage": antUsage(a.Usage),
	}) {
		return
	}
	sw.done()
}

// blockStop ends content block index with content_block_stop, unless
// the server sends none (WithoutBlockStops), and reports whether the
// client is still there.
func (sw *sseWriter) blockStop(index int) bool {
	if sw.noBlockStops {
		return !sw.dead
	}
	return sw.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// rejectAnthropicParam returns the status and body the Messages API
// answers a request with when it carries a field the API does not know, or
// 0 when the body carries none of fields: a top-level field, or
// cache_control in any block, named by its path as the API names it.
func rejectAnthropicParam(body []byte, fields []string) (int, any) {
	if len(fields) == 0 {
		return 0, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return 0, nil // parse reports it
	}
	refuse := func(path string) (int, any) {
		return http.StatusBadRequest, map[string]any{"type": "error",
			"error":      map[string]any{"type": "invalid_request_error", "message": path + ": Extra inputs are not permitted"},
			"request_id": "req_fake"}
	}
	for _, f := range fields {
		if v, ok := top[f]; ok && string(v) != "null" {
			return refuse(f)
		}
		if f != "cache_control" {
			continue
		}
		var req struct {
			System   []map[string]json.RawMessage `json:"system"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		for i, b := range req.System {
			if _, ok := b["cache_control"]; ok {
				return refuse(fmt.Sprintf("system.%d.cache_control", i))
			}
		}
		for i, m := range req.Messages {
			var blocks []map[string]json.RawMessage
			_ = json.Unmarshal(m.Content, &blocks) // a string content has no blocks
			for j, b := range blocks {
				if _, ok := b["cache_control"]; ok {
					return refuse(fmt.Sprintf("messages.%d.content.%d.cache_control", i, j))
				}
			}
		}
	}
	return 0, nil
}

// anthropicSchemaError answers, as Anthropic's API does, a request whose
// output_config.format schema its structured outputs do not take (see
// strictschema.CheckAnthropic for the rules and their source), or returns
// 0. The API names the field that carries the schema, then what it
// refuses:
//
//	400 {"type": "error", "error": {"type": "invalid_request_error",
//	     "message": "output_config.format.schema: For 'integer' type, property 'minimum' is not supported"}}
//
// A tool's input_schema is not checked: the API holds it to these rules
// only with strict true, which Parley does not send.
func anthropicSchemaError(body []byte) (int, map[string]any) {
	var req struct {
		OutputConfig struct {
			Format struct {
				Type   string          `json:"type"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
		} `json:"output_config"`
	}
	if json.Unmarshal(body, &req) != nil || req.OutputConfig.Format.Type != "json_schema" || len(req.OutputConfig.Format.Schema) == 0 {
		return 0, nil
	}
	why, err := strictschema.CheckAnthropic(req.OutputConfig.Format.Schema)
	if err != nil || why == "" {
		return 0, nil
	}
	return http.StatusBadRequest, antErrorBody(http.StatusBadRequest, "invalid_request_error", "output_config.format.schema: "+why)
}
