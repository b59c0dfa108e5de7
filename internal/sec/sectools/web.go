package sectools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// NameWeb is the optional web search tool.
const NameWeb = "web_search"

// WebResult is one web search result.
type WebResult struct {
	Title     string `json:"title"`
	URL       string `json:"url"`
	Snippet   string `json:"snippet"`
	Published string `json:"published,omitempty"` // as the engine reports it; empty when unknown
}

// WebSearcher is a configured web search (a search API or a SearXNG
// instance).
type WebSearcher interface {
	// Name names the engine for citations ("SearXNG at https://…").
	Name() string
	Search(ctx context.Context, query string, limit int) ([]WebResult, error)
}

// WebLabel marks figures taken from the web.
const WebLabel = "web, not checked against filings"

type webTool struct{ s *Set }

func (t *webTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameWeb,
		Description: "Search the web (news, analyst commentary, product announcements). Cite each result by its URL and date. " +
			"Figures from the web are labelled \"" + WebLabel + "\": prefer the SEC tools for reported numbers.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 8, "default": 5}
  },
  "required": ["query"],
  "additionalProperties": false
}`),
	}
}

func (t *webTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := decodeArgs(NameWeb, raw, &a); err != nil {
		return "", err
	}
	a.Query = strings.TrimSpace(a.Query)
	if a.Query == "" || len(a.Query) > 400 {
		return "", badArgs(NameWeb, "query must be 1 to 400 characters")
	}
	switch {
	case a.Limit == 0:
		a.Limit = 5
	case a.Limit < 0 || a.Limit > 8:
		return "", badArgs(NameWeb, "limit %d is out of range 1..8", a.Limit)
	}
	res, err := t.s.cfg.Web.Search(ctx, a.Query, a.Limit)
	if err != nil {
		return "", fmt.Errorf("%s: %w", NameWeb, err)
	}
	if res == nil {
		res = []WebResult{}
	}
	return marshal(struct {
		Engine    string      `json:"engine"`
		Retrieved string      `json:"retrieved"`
		Label     string      `json:"label"`
		Results   []WebResult `json:"results"`
	}{t.s.cfg.Web.Name(), t.s.cfg.Now().UTC().Format("2006-01-02"), WebLabel, res})
}
