package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/parleyhq/parley/internal/llm"
)

// params translates req into a request of shape sh. forced is the name of
// the tool that carries structured output in StructuredForcedTool mode, ""
// otherwise.
func (p *Provider) params(req llm.Request, sh shape) (params sdk.MessageNewParams, forced string, err error) {
	if req.Model == "" {
		return params, "", errors.New("no model: set the model name")
	}
	if len(req.Messages) == 0 {
		return params, "", errors.New("no messages: a request needs at least one user message")
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.cfg.MaxTokens
	}
	params = sdk.MessageNewParams{Model: req.Model, MaxTokens: int64(maxTokens)}
	if req.System != "" {
		block := sdk.TextBlockParam{Text: req.System}
		if req.CacheSystem && !sh.noCache {
			block.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		params.System = []sdk.TextBlockParam{block}
	}
	for i, m := range req.Messages {
		var blocks []sdk.ContentBlockParamUnion
		if m.Text != "" {
			blocks = append(blocks, sdk.NewTextBlock(m.Text))
		}
		for _, tc := range m.ToolCalls {
			args := tc.Args
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			blocks = append(blocks, sdk.NewToolUseBlock(tc.ID, args, tc.Name))
		}
		for _, tr := range m.ToolResults {
			blocks = append(blocks, sdk.NewToolResultBlock(tr.CallID, tr.Content, tr.IsError))
		}
		if len(blocks) == 0 {
			return params, "", fmt.Errorf("message %d (%s) is empty: it needs text, tool calls or tool results", i+1, m.Role)
		}
		if m.Cache && !sh.noCache {
			// The breakpoint goes on the message's last block: everything up
			// to and including it is the cached prefix.
			if cc := blocks[len(blocks)-1].GetCacheControl(); cc != nil {
				*cc = sdk.NewCacheControlEphemeralParam()
			}
		}
		switch m.Role {
		case llm.RoleUser:
			params.Messages = append(params.Messages, sdk.NewUserMessage(blocks...))
		case llm.RoleAssistant:
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(blocks...))
		default:
			return params, "", fmt.Errorf("message %d: role %q: want user or assistant", i+1, m.Role)
		}
	}
	for _, t := range req.Tools {
		tp, err := toolParam(t.Name, t.Description, t.Schema)
		if err != nil {
			return params, "", err
		}
		params.Tools = append(params.Tools, tp)
	}
	if s := req.Schema; s != nil {
		schema, err := schemaMap(s.JSON)
		if err != nil {
			return params, "", fmt.Errorf("schema %s: %w", s.Name, err)
		}
		switch sh.structured {
		case StructuredForcedTool:
			forced = s.Name
			if forced == "" {
				forced = "respond"
			}
			desc := s.Description
			if desc == "" {
				desc = "Give the answer in this shape."
			}
			tp, err := toolParam(forced, desc, s.JSON)
			if err != nil {
				return params, "", err
			}
			params.Tools = append(params.Tools, tp)
			params.ToolChoice = sdk.ToolChoiceParamOfTool(forced)
		default:
			params.OutputConfig = sdk.OutputConfigParam{Format: sdk.JSONOutputFormatParam{Schema: schema}}
		}
	}
	return params, forced, nil
}

func schemaMap(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return nil, errors.New("empty JSON Schema")
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("JSON Schema is not a JSON object: %w", err)
	}
	return m, nil
}

// toolParam builds a tool definition from a JSON Schema, keeping every
// keyword of the schema (the SDK type names only properties and required).
func toolParam(name, desc string, raw json.RawMessage) (sdk.ToolUnionParam, error) {
	if raw == nil {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	m, err := schemaMap(raw)
	if err != nil {
		return sdk.ToolUnionParam{}, fmt.Errorf("tool %s: %w", name, err)
	}
	if t, ok := m["type"]; ok && t != "object" {
		return sdk.ToolUnionParam{}, fmt.Errorf("tool %s: schema type %v: tool input must be an object", name, t)
	}
	in := sdk.ToolInputSchemaParam{Properties: m["properties"], ExtraFields: map[string]any{}}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range m {
		switch k {
		case "type", "properties", "required":
		default:
			in.ExtraFields[k] = v
		}
	}
	tp := sdk.ToolUnionParamOfTool(in, name)
	if desc != "" {
		tp.OfTool.Description = sdk.String(desc)
	}
	return tp, nil
}
