package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// ExportedDebate is the JSON export of a debate.
type ExportedDebate struct {
	ID          string                      `json:"id"`
	Format      string                      `json:"format"`
	Topic       string                      `json:"topic"`
	Status      debate.Status               `json:"status"`
	Created     time.Time                   `json:"created"`
	Updated     time.Time                   `json:"updated"`
	Options     json.RawMessage             `json:"options,omitempty"`
	Models      map[string]string           `json:"models,omitempty"`
	Usage       llm.Usage                   `json:"usage"`
	CostUSD     float64                     `json:"cost_usd"`
	Agents      []ExportedAgent             `json:"agents,omitempty"`
	Verdict     json.RawMessage             `json:"verdict,omitempty"`
	Artifacts   []debate.ArtifactWritten    `json:"artifacts,omitempty"`
	Checkpoints []debate.CheckpointAnswered `json:"checkpoints,omitempty"`
	Hints       []debate.HintQueued         `json:"hints,omitempty"`
	Notes       []ExportedNote              `json:"notes,omitempty"`
	Turns       []ExportedTurn              `json:"turns,omitempty"`
}

// ExportedAgent is one agent's tokens and cost: the token and cost report.
type ExportedAgent struct {
	Agent   string    `json:"agent"`
	Turns   int       `json:"turns"`
	Usage   llm.Usage `json:"usage"`
	CostUSD float64   `json:"cost_usd"`
}

// ExportedNote is a format event in the export.
type ExportedNote struct {
	Kind string          `json:"kind"`
	Text string          `json:"text"`
	Data json.RawMessage `json:"data,omitempty"`
}

// ExportedTurn is one completed turn in the export.
type ExportedTurn struct {
	debate.TurnRef
	Text       string          `json:"text"`
	Move       json.RawMessage `json:"move,omitempty"`
	Invalid    string          `json:"invalid,omitempty"`
	Model      string          `json:"model,omitempty"`
	Usage      llm.Usage       `json:"usage"`
	CostUSD    float64         `json:"cost_usd,omitempty"`
	Superseded []string        `json:"superseded,omitempty"`
	Tools      []ExportedTool  `json:"tools,omitempty"`
	NoLLM      bool            `json:"no_llm,omitempty"`
}

// ExportedTool is a tool call and its result.
type ExportedTool struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result string          `json:"result,omitempty"`
	Error  bool            `json:"error,omitempty"`
	Cached bool            `json:"cached,omitempty"`
}

// ExportJSON is the JSON export of a debate; full includes the transcript.
func ExportJSON(st *debate.State, full bool) ExportedDebate {
	d := ExportedDebate{
		ID: st.ID, Format: st.Format, Topic: st.Topic, Status: st.Status, Created: st.Created, Updated: st.Updated,
		Options: st.Options, Models: st.Models, Usage: st.Usage, CostUSD: st.CostUSD, Verdict: st.Verdict, Artifacts: st.Artifacts,
	}
	for _, c := range st.Checkpoints {
		if c.Answer != nil {
			d.Checkpoints = append(d.Checkpoints, *c.Answer)
		}
	}
	for _, h := range st.Hints {
		d.Hints = append(d.Hints, h.HintQueued)
	}
	for _, n := range st.Notes {
		d.Notes = append(d.Notes, ExportedNote{Kind: n.Kind, Text: n.Text, Data: n.Data})
	}
	for _, t := range st.CompletedTurns() {
		i := slices.IndexFunc(d.Agents, func(a ExportedAgent) bool { return a.Agent == t.Agent })
		if i < 0 {
			d.Agents = append(d.Agents, ExportedAgent{Agent: t.Agent})
			i = len(d.Agents) - 1
		}
		a := &d.Agents[i]
		a.Turns++
		a.Usage = a.Usage.Add(t.Usage)
		a.CostUSD += t.CostUSD
	}
	// Turns that run concurrently complete in any order: sort for a stable export.
	slices.SortFunc(d.Agents, func(a, b ExportedAgent) int { return strings.Compare(a.Agent, b.Agent) })
	if !full {
		return d
	}
	for _, t := range st.CompletedTurns() {
		et := ExportedTurn{TurnRef: t.TurnRef, Text: t.Text, Move: t.Move, Invalid: t.Invalid, Model: t.Model,
			Usage: t.Usage, CostUSD: t.CostUSD, Superseded: t.Superseded, NoLLM: t.NoLLM}
		for _, x := range t.Tools {
			tool := ExportedTool{Name: x.Call.Name, Args: x.Call.Args}
			if x.Result != nil {
				tool.Result, tool.Error, tool.Cached = x.Result.Content, x.Result.IsError, x.Result.Cached
			}
			et.Tools = append(et.Tools, tool)
		}
		d.Turns = append(d.Turns, et)
	}
	return d
}

// RenderDoc renders a debate as Markdown for a terminal, a file or a PDF,
// with every control character from topics and model output made inert:
// every document Parley writes goes through it (InertDoc).
func RenderDoc(format debate.Format, st *debate.State, summary bool) (string, error) {
	doc, err := format.Render(st, debate.RenderOptions{Summary: summary})
	if err != nil {
		return "", err
	}
	return InertDoc(doc), nil
}

// InertDoc is a Markdown document that holds topics and model output made
// inert: control characters visible (textsafe.Clean), images and raw HTML
// shown as text (mdsafe.Inert). An image in a decision document is fetched
// by whoever opens it in a Markdown viewer, from an address a model chose
// and may have filled with what it read; the formats' own Markdown has
// neither.
func InertDoc(doc string) string { return mdsafe.Inert(textsafe.Clean(doc)) }

// Export renders a debate as a document to write to a file or standard
// output: as is "md", "json" (indented, its controls escaped) or "pdf";
// summary leaves the transcript out. The CLI and the shell export through
// it, so that a document is the same bytes whichever front-end wrote it.
func Export(format debate.Format, st *debate.State, as string, summary bool) ([]byte, error) {
	switch as {
	case "md":
		doc, err := RenderDoc(format, st, summary)
		return []byte(doc), err
	case "json":
		b, err := json.MarshalIndent(ExportJSON(st, !summary), "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode debate %s: %w", st.ID, err)
		}
		return append(textsafe.InertJSON(b), '\n'), nil
	case "pdf":
		return ExportPDF(st, format, summary)
	}
	return nil, fmt.Errorf("export as %q: choose md, json or pdf", as)
}
