package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestWireSchemaRefused: a council debate against a server that refuses
// the json_schema response_format (DeepSeek: 400 "This response_format
// type is unavailable now"), streaming or answering every call whole.
// Parley asks for the schema in the system prompt instead, says so once
// for the debate (not once per turn), and still holds the replies, no
// longer constrained by the server, to the format: a reply wrapped in
// prose and a fence is read, and one that breaks the schema (a position
// that is neither GO nor NOGO) is sent back for repair rather than
// recorded.
func TestWireSchemaRefused(t *testing.T) {
	base := loadScript(t, "council.yaml")
	sc := func(t *testing.T) *script.Script {
		s, err := script.New(append([]script.Rule{
			{Tag: "r1/search", Reply: &script.Reply{Text: "Here is my assessment as JSON:\n\n```json\n" +
				`{"position": "GO", "confidence": 0.7, "rationale": "Founders with two exits and a documented market gap.", "challenges": ["Sentiment overweights one negative press cycle."], "persuaded_by": ""}` +
				"\n```\n"}},
			{Tag: "r1/valuation", Replies: []script.Reply{
				{JSON: json.RawMessage(`{"position": "LEAN GO", "confidence": 0.65, "rationale": "Priced at 5x revenue.", "challenges": [], "persuaded_by": ""}`)},
				{JSON: json.RawMessage(`{"position": "GO", "confidence": 0.65, "rationale": "Priced at 5x revenue against comparables at 6x.", "challenges": ["Sentiment's outage story is one quarter old."], "persuaded_by": ""}`)},
			}},
		}, base.Rules...)...)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		opts []fakellm.Option
	}{
		{"streaming", nil},
		{"whole replies", []fakellm.Option{fakellm.WithoutStreaming()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakellm.Start(sc(t), append([]fakellm.Option{fakellm.WithAPIKey("test-key"), fakellm.WithRejectedParams("response_format")}, tc.opts...)...)
			defer srv.Close()
			dir := t.TempDir()
			env := openaiEnv(srv, filepath.Join(dir, "parley.db"))
			r := mustParley(t, dir, env, "", "debate", "Acme Corp", "--format", "council", "--max-rounds", "3", "--model", "deepseek-chat")
			for _, want := range []string{
				"Round 1: Search: GO, Sentiment: NOGO, Valuation: GO (no consensus)",
				"Round 2: Search: GO, Sentiment: GO, Valuation: GO (consensus: GO)",
				"position must be GO or NOGO",
				"## Verdict: GO",
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
			if n := strings.Count(r.stderr, "field=response_format"); n != 1 {
				t.Errorf("stderr says the response_format was refused %d times, want once:\n%s", n, r.stderr)
			}
			refused, answered := 0, 0
			for _, rq := range srv.Requests() {
				var body map[string]json.RawMessage
				if err := json.Unmarshal(rq.Body, &body); err != nil {
					t.Fatal(err)
				}
				_, withFormat := body["response_format"]
				switch {
				case rq.Rule == "":
					refused++
					if !withFormat {
						t.Errorf("%s: refused without a response_format", rq.Header.Get(fakellm.TagHeader))
					}
				case withFormat:
					t.Errorf("%s: answered with a response_format", rq.Header.Get(fakellm.TagHeader))
				default:
					answered++
					if strings.HasPrefix(rq.Parsed.Tag, "r") && !strings.Contains(rq.Parsed.System, `"persuaded_by"`) {
						t.Errorf("%s: the system prompt does not give the schema:\n%s", rq.Parsed.Tag, rq.Parsed.System)
					}
				}
			}
			// The three round-1 calls go at once: each may be refused
			// before one learns the shape; none after.
			if refused < 1 || refused > 3 {
				t.Errorf("%d calls refused, want 1 to 3 (the first calls at once, none after)", refused)
			}
			// One call per turn plus the repairs of r1/valuation and
			// r2/sentiment.
			if answered != 11 {
				t.Errorf("%d calls answered, want 11", answered)
			}
		})
	}
}
