package sectools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/tool"
)

type fakeWeb struct{ queries []string }

func (f *fakeWeb) Name() string { return "SearXNG at http://searx.test" }
func (f *fakeWeb) Search(ctx context.Context, q string, limit int) ([]WebResult, error) {
	f.queries = append(f.queries, q)
	return []WebResult{{Title: "Chip rules", URL: "https://example.com/a", Snippet: "export rules", Published: "2026-06-30"}}, nil
}

// TestWebSearchTool is offered only when configured, and labels its results.
func TestWebSearchTool(t *testing.T) {
	if names := toolNames(companySet(t, snapshot.New(), "NVDA", nil)); strings.Contains(names, NameWeb) {
		t.Errorf("web_search offered without configuration: %s", names)
	}
	web := &fakeWeb{}
	now := func() time.Time { return time.Date(2026, 7, 8, 15, 0, 0, 0, time.UTC) }
	r := registry(t, companySet(t, snapshot.New(), "NVDA", func(c *Config) { c.Web, c.Now = web, now }))
	var got struct {
		Engine, Retrieved, Label string
		Results                  []WebResult
	}
	callJSON(t, r, NameWeb, `{"query":"NVIDIA export controls"}`, &got)
	if got.Engine != "SearXNG at http://searx.test" || got.Retrieved != "2026-07-08" || got.Label != WebLabel ||
		len(got.Results) != 1 || got.Results[0].URL != "https://example.com/a" || got.Results[0].Published != "2026-06-30" {
		t.Errorf("result = %+v", got)
	}
	for _, bad := range []string{`{}`, `{"query":"x","limit":99}`, `{"q":"x"}`} {
		if _, err := r.Call(context.Background(), NameWeb, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func toolNames(s *Set) string {
	var names []string
	for _, t := range s.Tools() {
		names = append(names, t.Spec().Name)
	}
	return strings.Join(names, ",")
}
