package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server that refuses the schema itself ("output_config.format.schema:
// For 'integer' type, property 'minimum' is not supported") does take
// output_config: the call fails at once with an error that names the
// schema and what was refused, rather than being sent again as a forced
// tool, which a model that refuses a forced tool_choice would refuse too,
// and which would be remembered as the model's shape.
func TestRefusedSchemaFailsNamingIt(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{JSON: json.RawMessage(`{"score":3}`)}}), fakellm.WithAPIKey("k"), fakellm.WithStrictSchemaCheck())
	defer srv.Close()
	var logs bytes.Buffer
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Score it."}},
		Schema: &llm.Schema{Name: "review", JSON: json.RawMessage(`{"type":"object","properties":{"score":{"type":"integer","minimum":1}},"required":["score"],"additionalProperties":false}`)}}
	for call := 1; call <= 2; call++ {
		before := len(srv.Requests())
		_, err := llm.Collect(p.Stream(context.Background(), req))
		var le *llm.Error
		if !errors.As(err, &le) || le.Kind != llm.ErrBadRequest {
			t.Fatalf("call %d: %v, want a bad-request error", call, err)
		}
		for _, want := range []string{`schema "review"`, "For 'integer' type, property 'minimum' is not supported"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("call %d: error %q does not say %q", call, err, want)
			}
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"output_config"`) {
			t.Errorf("call %d: %d requests, want 1 with output_config", call, len(reqs))
		}
	}
	if logs.Len() != 0 {
		t.Errorf("logged a change of shape: %s", logs.String())
	}
}
