package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/parleyhq/parley/internal/llm"
)

// params translates req into a request of shape sh.
func (p *Provider) params(req llm.Request, sh shape) (sdk.ChatCompletionNewParams, error) {
	var params sdk.ChatCompletionNewParams
	if req.Model == "" {
		return params, errors.New("no model: set the model name")
	}
	if len(req.Messages) == 0 {
		return params, errors.New("no messages: a request needs at least one user message")
	}
	params.Model = req.Model
	if !sh.noStreamOptions {
		params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
	}
	if limit := req.MaxTokens; limit > 0 {
		if sh.maxCap > 0 {
			limit = min(limit, sh.maxCap)
		}
		if sh.legacyMax {
			params.MaxTokens = sdk.Int(int64(limit))
		} else {
			params.MaxCompletionTokens = sdk.Int(int64(limit))
		}
	}
	if req.Temperature != nil && !sh.noTemperature {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	system := req.System
	if req.Schema != nil && sh.noResponseFormat {
		// The server takes no json_schema response_format: the schema is
		// asked for in words instead.
		doc, err := schemaText(req.Schema.JSON)
		if err != nil {
			return params, fmt.Errorf("schema %s: %w", req.Schema.Name, err)
		}
		if system != "" {
			system += "\n\n"
		}
		system += "Reply with only a JSON document, with no other text, that validates against this JSON Schema:\n" + doc
	}
	if system != "" {
		params.Messages = append(params.Messages, sdk.SystemMessage(system))
	}
	for i, m := range req.Messages {
		switch m.Role {
		case llm.RoleUser:
			// Tool results first: they answer the previous assistant turn.
			for _, tr := range m.ToolResults {
				content := tr.Content
				if tr.IsError {
					// The API has no error flag; say it in the content.
					content = "Error: " + content
				}
				params.Messages = append(params.Messages, sdk.ToolMessage(content, tr.CallID))
			}
			if m.Text != "" {
				params.Messages = append(params.Messages, sdk.UserMessage(m.Text))
			}
			if m.Text == "" && len(m.ToolResults) == 0 {
				return params, fmt.Errorf("message %d (user) is empty: it needs text or tool results", i+1)
			}
		case llm.RoleAssistant:
			am := sdk.ChatCompletionAssistantMessageParam{}
			if m.Text != "" {
				am.Content.OfString = sdk.String(m.Text)
			}
			for _, tc := range m.ToolCalls {
				args := string(tc.Args)
				if args == "" {
					args = "{}"
				}
				am.ToolCalls = append(am.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
						ID:       tc.ID,
						Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: args},
					},
				})
			}
			if m.Text == "" && len(m.ToolCalls) == 0 {
				return params, fmt.Errorf("message %d (assistant) is empty: it needs text or tool calls", i+1)
			}
			params.Messages = append(params.Messages, sdk.ChatCompletionMessageParamUnion{OfAssistant: &am})
		default:
			return params, fmt.Errorf("message %d: role %q: want user or assistant", i+1, m.Role)
		}
	}
	for _, t := range req.Tools {
		schema, err := schemaMap(t.Schema)
		if err != nil {
			return params, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fd.Description = sdk.String(t.Description)
		}
		params.Tools = append(params.Tools, sdk.ChatCompletionFunctionTool(fd))
	}
	if s := req.Schema; s != nil && !sh.noResponseFormat {
		schema, err := schemaMap(s.JSON)
		if err != nil {
			return params, fmt.Errorf("schema %s: %w", s.Name, err)
		}
		name := s.Name
		if name == "" {
			name = "response"
		}
		js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: schema}
		if !sh.noStrict {
			js.Strict = sdk.Bool(true)
		}
		if s.Description != "" {
			js.Description = sdk.String(s.Description)
		}
		params.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js},
		}
	}
	return params, nil
}

func schemaMap(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("JSON Schema is not a JSON object: %w", err)
	}
	return m, nil
}

// schemaText is a JSON Schema as compact text, to quote in a prompt.
func schemaText(raw json.RawMessage) (string, error) {
	m, err := schemaMap(raw)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("JSON Schema: %w", err)
	}
	return string(b), nil
}
