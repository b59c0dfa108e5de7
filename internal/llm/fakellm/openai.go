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

// openaiAPI speaks POST /v1/chat/completions, or Azure OpenAI's
// deployment path.
type openaiAPI struct {
	// azure answers as Azure OpenAI does: the key in an api-key header,
	// its own 401, and a first chunk of prompt filter results.
	azure bool
}

func (openaiAPI) cacheMode() cacheMode { return cacheAutomatic }

func (openaiAPI) name() string { return "openai" }

func (a openaiAPI) keyOK(h http.Header, key string) bool {
	if a.azure {
		return h.Get("Api-Key") == key
	}
	return bearer(h) == key
}

// oaContent is a message's content: a string or a list of parts.
type oaContent string

func (c *oaContent) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = oaContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	*c = oaContent(strings.Join(texts, "\n"))
	return nil
}

type oaRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string    `json:"role"`
		Content    oaContent `json:"content"`
		ToolCallID string    `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Schema      json.RawMessage `json:"schema"`
			Strict      bool            `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
	MaxTokens           int  `json:"max_tokens"`
	MaxCompletionTokens int  `json:"max_completion_tokens"`
	Stream              bool `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (openaiAPI) parse(h http.Header, body []byte) (llm.Request, structuredMode, bool, error) {
	var mode structuredMode
	var or oaRequest
	if err := json.Unmarshal(body, &or); err != nil {
		//lint:ignore ST1005 the text is OpenAI's own error message
		return llm.Request{}, mode, false, fmt.Errorf("We could not parse the JSON body of your request: %w", err)
	}
	if or.Model == "" {
		return llm.Request{}, mode, or.Stream, errors.New("you must provide a model parameter")
	}
	if len(or.Messages) == 0 {
		return llm.Request{}, mode, or.Stream, errors.New("messages: at least one message is required")
	}
	req := llm.Request{Model: or.Model, Tag: h.Get(TagHeader), MaxTokens: max(or.MaxTokens, or.MaxCompletionTokens)}
	var sys []string
	for _, m := range or.Messages {
		switch m.Role {
		case "system", "developer":
			sys = append(sys, string(m.Content))
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: string(m.Content)})
		case "assistant":
			msg := llm.Message{Role: llm.RoleAssistant, Text: string(m.Content)}
			for _, tc := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
			}
			req.Messages = append(req.Messages, msg)
		case "tool":
			// Parley keeps tool results in one user message; OpenAI sends one
			// "tool" message per result.
			res := llm.ToolResult{CallID: m.ToolCallID, Content: string(m.Content)}
			if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == llm.RoleUser && len(req.Messages[n-1].ToolResults) > 0 {
				req.Messages[n-1].ToolResults = append(req.Messages[n-1].ToolResults, res)
			} else {
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{res}})
			}
		default:
			return req, mode, or.Stream, fmt.Errorf("messages: role %q is not supported by fakellm", m.Role)
		}
	}
	req.System = strings.Join(sys, "\n")
	// OpenAI caches long prompt prefixes by itself; the system prompt stands
	// in for that prefix.
	req.CacheSystem = req.System != ""
	for _, t := range or.Tools {
		req.Tools = append(req.Tools, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, Schema: t.Function.Parameters})
	}
	if rf := or.ResponseFormat; rf != nil && rf.Type == "json_schema" {
		if rf.JSONSchema == nil || len(rf.JSONSchema.Schema) == 0 {
			return req, mode, or.Stream, errors.New("response_format.json_schema: schema is required")
		}
		req.Schema = &llm.Schema{Name: rf.JSONSchema.Name, Description: rf.JSONSchema.Description, JSON: rf.JSONSchema.Schema}
	}
	if or.Stream && or.StreamOptions != nil && or.StreamOptions.IncludeUsage {
		mode.includeUsage = true
	}
	return req, mode, or.Stream, nil
}

// oaErrorType gives the error type and code the API sends with each status.
func oaErrorType(status int) (string, string) {
	switch status {
	case 401:
		return "invalid_request_error", "invalid_api_key"
	case 403:
		return "invalid_request_error", "unsupported_country_region_territory"
	case 404:
		return "invalid_request_error", "model_not_found"
	case 429:
		return "requests", "rate_limit_exceeded"
	case 503, 529:
		return "server_error", "overloaded"
	}
	if status >= 500 {
		return "server_error", ""
	}
	return "invalid_request_error", ""
}

// rateLimitHeaders sets the headers with which OpenAI's API answers a
// request over its request limit, which resets in retryAfter seconds:
// each limit, what is left of it and when it is whole again, as a Go
// duration ("1s", "6m0s"). The token limit is not spent.
func rateLimitHeaders(h http.Header, retryAfter string) {
	reset := "1s"
	if secs, err := strconv.Atoi(retryAfter); err == nil && secs > 0 {
		reset = (time.Duration(secs) * time.Second).String()
	}
	h.Set("X-Ratelimit-Limit-Requests", "500")
	h.Set("X-Ratelimit-Remaining-Requests", "0")
	h.Set("X-Ratelimit-Reset-Requests", reset)
	h.Set("X-Ratelimit-Limit-Tokens", "30000")
	h.Set("X-Ratelimit-Remaining-Tokens", "29000")
	h.Set("X-Ratelimit-Reset-Tokens", "2ms")
}

func oaErrorBody(status int, errType, msg string) map[string]any {
	t, code := oaErrorType(status)
	if errType != "" {
		t = errType
	}
	var c any
	if code != "" {
		c = code
	}
	return map[string]any{"error": map[string]any{"message": msg, "type": t, "param": nil, "code": c}}
}

func (openaiAPI) writeError(w http.ResponseWriter, status int, errType, msg string) {
	writeJSON(w, status, oaErrorBody(status, errType, msg))
}

func (a openaiAPI) writeAuthError(w http.ResponseWriter, h http.Header) {
	if a.azure {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"code": "401",
			"message": "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}})
		return
	}
	key := bearer(h)
	msg := "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
	if key != "" {
		msg = fmt.Sprintf("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", mask(key))
	}
	a.writeError(w, http.StatusUnauthorized, "", msg)
}

func oaFinish(s string) string {
	switch s {
	case llm.StopToolUse:
		return "tool_calls"
	case llm.StopMaxTokens:
		return "length"
	case llm.StopContextWindow:
		// Mistral's word; OpenAI's API says "length" for both.
		return "model_length"
	}
	return "stop"
}

func oaUsage(u llm.Usage, shape UsageShape) map[string]any {
	// prompt_tokens counts every input token, cached or not.
	prompt := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
	out := map[string]any{
		"prompt_tokens":     prompt,
		"completion_tokens": u.OutputTokens,
		"total_tokens":      prompt + u.OutputTokens,
	}
	switch shape {
	case UsageZeros:
		return map[string]any{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
	case UsageDeepSeek:
		out["prompt_cache_hit_tokens"] = u.CacheReadTokens
		out["prompt_cache_miss_tokens"] = prompt - u.CacheReadTokens
	case UsageMoonshot:
		out["cached_tokens"] = u.CacheReadTokens
	case UsageGemini:
		thoughts := u.OutputTokens / 2
		out["completion_tokens"] = u.OutputTokens - thoughts
		out["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CacheReadTokens}
		out["completion_tokens_details"] = map[string]any{"reasoning_tokens": thoughts}
	case UsageOpenRouter:
		out["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CacheReadTokens}
		out["completion_tokens_details"] = map[string]any{"reasoning_tokens": 0}
		out["cost"] = OpenRouterCost(u)
		out["is_byok"] = false
		out["cost_details"] = map[string]any{"upstream_inference_cost": nil}
	default:
		out["prompt_tokens_details"] = map[string]any{"cached_tokens": u.CacheReadTokens, "audio_tokens": 0}
		out["completion_tokens_details"] = map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
	}
	return out
}

func oaToolCalls(a answer) []map[string]any {
	var out []map[string]any
	for _, tc := range a.ToolCalls {
		out = append(out, map[string]any{"id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": string(tc.Args)}})
	}
	return out
}

func (api openaiAPI) writeJSON(w http.ResponseWriter, a answer) {
	if f := a.Fault; f != nil {
		switch f.Stream {
		case "cut":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`))
			panic(http.ErrAbortHandler)
		case "malformed":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":"chatcmpl-fake",,}`))
			return
		case "error":
			api.writeError(w, f.Status, f.Type, faultMessage(f))
			return
		}
	}
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	switch {
	case a.StopReason == llm.StopRefusal:
		// The API says why in its own field, not as content.
		msg["refusal"] = a.Text
	case a.Text != "":
		msg["content"] = a.Text
	}
	if tcs := oaToolCalls(a); len(tcs) > 0 {
		msg["tool_calls"] = tcs
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake%d", a.ID),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   a.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": oaFinish(a.StopReason)}},
		"usage":   oaUsage(a.Usage, a.UsageShape),
	})
}

func (api openaiAPI) writeStream(sw *sseWriter, a answer) {
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		c := map[string]any{
			"id": fmt.Sprintf("chatcmpl-fake%d", a.ID), "object": "chat.completion.chunk", "created": created,
			"model": a.Model, "system_fingerprint": nil,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
		if a.Mode.includeUsage {
			c["usage"] = nil
		}
		return c
	}
	if api.azure && !sw.event("", map[string]any{"choices": []any{}, "created": 0, "id": "", "model": "", "object": "",
		"prompt_filter_results": []any{map[string]any{"prompt_index": 0, "content_filter_results": map[string]any{
			"hate": map[string]any{"filtered": false, "severity": "safe"}, "self_harm": map[string]any{"filtered": false, "severity": "safe"}}}}}) {
		// Azure's first chunk: what its content filter found in the
		// prompt, with no choice.
		return
	}
	if !sw.event("", chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil)) {
		return
	}
	// end sends what follows the finish chunk: the usage, when asked
	// for, in a last chunk with no choice.
	end := func() bool {
		return !a.Mode.includeUsage || a.UsageShape == UsageMoonshot || sw.event("", map[string]any{
			"id": fmt.Sprintf("chatcmpl-fake%d", a.ID), "object": "chat.completion.chunk", "created": created,
			"model": a.Model, "system_fingerprint": nil, "choices": []any{}, "usage": oaUsage(a.Usage, a.UsageShape),
		})
	}
	// finish is the chunk that ends the reply with reason: Moonshot's
	// carries the counts in its choice, whether asked for or not.
	finish := func(reason string) map[string]any {
		c := chunk(map[string]any{}, reason)
		if a.UsageShape == UsageMoonshot {
			c["choices"].([]any)[0].(map[string]any)["usage"] = oaUsage(a.Usage, a.UsageShape)
		}
		return c
	}
	if a.Finish != "" && a.Fault == nil {
		// The server gave up half way, and says so only in the
		// finish_reason.
		pieces := script.Split(a.Text)
		for _, piece := range pieces[:len(pieces)/2] {
			if !sw.event("", chunk(map[string]any{"content": piece}, nil)) {
				return
			}
		}
		if !sw.event("", finish(a.Finish)) {
			return
		}
		if end() {
			sw.done()
		}
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
			sw.raw("", `{"id":"chatcmpl-fake","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"unterminated`)
		case "error":
			if sw.errorField {
				// llama.cpp's server.
				t := f.Type
				if t == "" {
					t, _ = oaErrorType(f.Status)
				}
				b, _ := json.Marshal(map[string]any{"code": f.Status, "message": faultMessage(f), "type": t})
				sw.write("error", "", string(b))
				break
			}
			sw.event("", oaErrorBody(f.Status, f.Type, faultMessage(f)))
		}
		return true
	}
	for _, piece := range script.Split(a.Text) {
		if fault() {
			return
		}
		field := "content"
		if a.StopReason == llm.StopRefusal {
			field = "refusal"
		}
		if !sw.event("", chunk(map[string]any{field: piece}, nil)) {
			return
		}
		sent++
	}
	if fault() {
		return
	}
	if a.Fault != nil {
		sent = a.Fault.After
		fault()
		return
	}
	if a.FunctionCall && len(a.ToolCalls) > 0 {
		tc := a.ToolCalls[0]
		if !sw.event("", chunk(map[string]any{"function_call": map[string]any{"name": tc.Name, "arguments": ""}}, nil)) {
			return
		}
		for _, piece := range splitJSON(string(tc.Args)) {
			if !sw.event("", chunk(map[string]any{"function_call": map[string]any{"arguments": piece}}, nil)) {
				return
			}
		}
		if sw.event("", finish("function_call")) && end() {
			sw.done()
		}
		return
	}
	for i, tc := range a.ToolCalls {
		first := map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}}}
		if !sw.event("", chunk(first, nil)) {
			return
		}
		for _, piece := range splitJSON(string(tc.Args)) {
			d := map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}
			if !sw.event("", chunk(d, nil)) {
				return
			}
		}
	}
	if !sw.event("", finish(oaFinish(a.StopReason))) {
		return
	}
	if end() {
		sw.done()
	}
}

// rejectParam returns the status and body a real server answers a request
// with when it does not accept one of the fields the body carries, or 0
// when the body carries none of them. Each field is refused in the words
// of a server that refuses it.
func rejectParam(body []byte, fields []string) (int, any) {
	if len(fields) == 0 {
		return 0, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return 0, nil // parse reports it
	}
	for _, f := range fields {
		if f == "strict" {
			if status, answer := rejectStrict(body); status != 0 {
				return status, answer
			}
			continue
		}
		if v, ok := top[f]; !ok || string(v) == "null" {
			continue
		}
		switch f {
		case "stream_options":
			// Groq.
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": "property 'stream_options' is unsupported, did you mean 'stream'?", "type": "invalid_request_error"}}
		case "max_completion_tokens":
			// Azure OpenAI before API version 2024-09-01-preview.
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": "Unrecognized request argument supplied: max_completion_tokens", "type": "invalid_request_error", "param": nil, "code": nil}}
		case "tools":
			// Ollama, for a model whose template has no tools.
			var model string
			_ = json.Unmarshal(top["model"], &model)
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", model), "type": "api_error", "param": nil, "code": nil}}
		case "response_format":
			// DeepSeek.
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": "This response_format type is unavailable now", "type": "invalid_request_error", "param": nil, "code": "invalid_request_error"}}
		case "max_tokens":
			// OpenAI's reasoning models.
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
				"type":    "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}}
		default:
			return http.StatusBadRequest, map[string]any{"error": map[string]any{
				"message": fmt.Sprintf("Unsupported parameter: '%s' is not supported with this model.", f),
				"type":    "invalid_request_error", "param": f, "code": "unsupported_parameter"}}
		}
	}
	return 0, nil
}

// rejectStrict answers a request that sets "strict" in its json_schema
// response format or in a tool's function as servers without strict mode
// do, or returns 0 when it sets none: a gateway in front of Gemini, whose
// API refuses the field it does not know, in the tools; a server that
// answers as OpenAI does to a parameter it does not know, naming its path,
// in the response format.
func rejectStrict(body []byte) (int, any) {
	var req struct {
		ResponseFormat struct {
			JSONSchema struct {
				Strict json.RawMessage `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
		Tools []struct {
			Function struct {
				Strict json.RawMessage `json:"strict"`
			} `json:"function"`
		} `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil {
		return 0, nil
	}
	for i, t := range req.Tools {
		if len(t.Function.Strict) > 0 && string(t.Function.Strict) != "null" {
			return http.StatusBadRequest, []any{map[string]any{"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT",
				"message": fmt.Sprintf("Invalid JSON payload received. Unknown name \"strict\" at 'request.tools[0].function_declarations[%d]': Cannot find field.", i)}}}
		}
	}
	if st := req.ResponseFormat.JSONSchema.Strict; len(st) > 0 && string(st) != "null" {
		return http.StatusBadRequest, map[string]any{"error": map[string]any{
			"message": "Unknown parameter: 'response_format.json_schema.strict'.", "type": "invalid_request_error",
			"param": "response_format.json_schema.strict", "code": "unknown_parameter"}}
	}
	return 0, nil
}

// strictSchemaError answers, as OpenAI's API does, a request whose
// json_schema response format sets strict true and whose schema strict
// mode does not take (see package strictschema for the rules and their
// source), or returns 0. The API names what it refuses by its path from
// the root, a Python tuple:
//
//	400 {"error": {"message": "Invalid schema for response_format 'NAME': In context=('properties', 'x'),
//	     'additionalProperties' is required to be supplied and to be false.",
//	     "type": "invalid_request_error", "param": "response_format", "code": null}}
//
// A fine-tuned model (an id "ft:...") is held to the narrower subset.
func strictSchemaError(body []byte) (int, map[string]any) {
	var req struct {
		Model          string `json:"model"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string          `json:"name"`
				Strict *bool           `json:"strict"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if json.Unmarshal(body, &req) != nil || req.ResponseFormat.Type != "json_schema" {
		return 0, nil
	}
	js := req.ResponseFormat.JSONSchema
	if js.Strict == nil || !*js.Strict {
		return 0, nil
	}
	why, err := strictschema.Check(js.Schema, strictschema.FineTuned(req.Model))
	if err != nil || why == "" {
		return 0, nil
	}
	return http.StatusBadRequest, map[string]any{"error": map[string]any{
		"message": fmt.Sprintf("Invalid schema for response_format '%s': %s", js.Name, why),
		"type":    "invalid_request_error", "param": "response_format", "code": nil}}
}
