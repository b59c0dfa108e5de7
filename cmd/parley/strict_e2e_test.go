package main_test

import (
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestFineTunedModelStrictSchemas runs the formats whose schemas carried
// range and item-count keywords on a fine-tuned OpenAI model id, which
// strict mode holds to the narrower subset: every structured request goes
// out strict and none is refused (fakeOpenAI fails the test on a refusal).
// Before the schemas lost those keywords, council's first position was
// refused ('minimum' is not permitted) and it and the 6 later ones went out
// without strict; bullbear's synthesis was refused ('maxItems') and sent
// again without strict.
func TestFineTunedModelStrictSchemas(t *testing.T) {
	const model = "ft:gpt-4o-mini-2024-07-18:acme::x1"
	for _, tc := range []struct {
		name, script string
		args         []string
	}{
		{"council", "council.yaml", []string{"debate", "Acme Corp", "--format", "council", "--max-rounds", "3", "--model", model}},
		{"bullbear", "bullbear.yaml", []string{"debate", "NVDA", "--snapshot", "--model", model}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, dir, env := fakeOpenAI(t, loadScript(t, tc.script))
			mustParley(t, dir, env, "", tc.args...)
			strict := 0
			for _, r := range srv.Requests() {
				var body struct {
					Model          string `json:"model"`
					ResponseFormat *struct {
						JSONSchema struct {
							Strict bool `json:"strict"`
						} `json:"json_schema"`
					} `json:"response_format"`
				}
				if err := json.Unmarshal(r.Body, &body); err != nil {
					t.Fatalf("request body: %v", err)
				}
				if body.ResponseFormat == nil {
					continue
				}
				if !body.ResponseFormat.JSONSchema.Strict {
					t.Errorf("%s: a schema went out without strict to %s", r.Header.Get(fakellm.TagHeader), body.Model)
				}
				if body.Model == model {
					strict++
				}
			}
			if strict == 0 {
				t.Errorf("no structured request was sent to %s", model)
			}
		})
	}
}
