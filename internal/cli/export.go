package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/textsafe"
)

// ExportOptions are the `parley export` flags.
type ExportOptions struct {
	ID      string
	As      string
	Full    bool
	Summary bool
	Output  string
	asSet   bool // --as was given
}

func newExportCmd(f *Factory, run func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Export a debate as Markdown, JSON or PDF",
		Long: `Export a debate rendered from its event log.

--full (the default) includes the transcript; --summary only the result.
--as pdf writes a PDF document; give -o FILE (it goes to standard output only
when that is not a terminal).`,
		Example: "  parley export DEB-1a2b3c4d\n  parley export DEB-1a2b3c4d --as json -o debate.json\n  parley export DEB-1a2b3c4d --summary -o decision.md\n  parley export DEB-1a2b3c4d --as pdf -o debate.pdf",
		Args:    exactID,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			opts.asSet = cmd.Flags().Changed("as")
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runExport(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.As, "as", "md", "output `format`: md, json or pdf (default: from the -o file name, else md)")
	cmd.Flags().BoolVar(&opts.Full, "full", false, "include the whole transcript (default)")
	cmd.Flags().BoolVar(&opts.Summary, "summary", false, "only the result")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `file` instead of standard output")
	cmd.MarkFlagsMutuallyExclusive("full", "summary")
	return cmd
}

// formatOfFile is the export format a file name asks for, "" if none.
func formatOfFile(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf":
		return "pdf"
	case ".json":
		return "json"
	case ".md", ".markdown":
		return "md"
	}
	return ""
}

func runExport(ctx context.Context, f *Factory, o *ExportOptions) error {
	if want := formatOfFile(o.Output); want != "" {
		switch {
		case !o.asSet:
			o.As = want
		case want != o.As:
			return usageErrorf("--as %s, but -o %s names a %s file: drop --as to write %s, or name the file .%s", o.As, o.Output, want, want, o.As)
		}
	}
	switch o.As {
	case "md", "json":
	case "pdf":
		if o.Output == "" && f.IO.IsTerminal() {
			return usageErrorf("--as pdf writes a binary file: give -o FILE (for example -o %s.pdf), or redirect standard output", o.ID)
		}
	default:
		return usageErrorf("--as %q: choose md, json or pdf", o.As)
	}
	store, ok, err := f.OpenStoreReadOnly(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return usageErrorf("no debate %s: no debate has been run yet ('parley list' shows the debates)", o.ID)
	}
	defer store.Close()
	st, format, err := loadDebate(ctx, f, store, o.ID)
	if err != nil {
		return err
	}
	var out []byte
	switch o.As {
	case "md":
		doc, err := renderDoc(format, st, o.Summary)
		if err != nil {
			return err
		}
		out = []byte(doc)
	case "json":
		b, err := json.MarshalIndent(exportJSON(st, !o.Summary), "", "  ")
		if err != nil {
			return fmt.Errorf("encode debate %s: %w", st.ID, err)
		}
		out = append(b, '\n')
	case "pdf":
		if out, err = exportPDF(st, format, o.Summary); err != nil {
			return err
		}
	}
	if o.Output == "" {
		_, err := f.IO.Out.Write(out)
		return err
	}
	if err := writeFileAtomic(o.Output, out); err != nil {
		return fmt.Errorf("write %s: %w", o.Output, err)
	}
	fmt.Fprintf(f.IO.ErrOut, "Wrote %s\n", o.Output)
	return nil
}

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

func exportJSON(st *debate.State, full bool) ExportedDebate {
	d := ExportedDebate{
		ID: st.ID, Format: st.Format, Topic: st.Topic, Status: st.Status, Created: st.Created, Updated: st.Updated,
		Options: st.Options, Models: st.Models, Usage: st.Usage, CostUSD: st.CostUSD, Verdict: st.Verdict, Artifacts: st.Artifacts,
	}
	for _, c := range st.Checkpoints {
		if c.Answer != nil {
			d.Checkpoints = append(d.Checkpoints, *c.Answer)
		}
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

// renderDoc renders a debate as Markdown for a terminal, a file or a PDF,
// with every control character from topics and model output made inert:
// every document Parley writes goes through it.
func renderDoc(format debate.Format, st *debate.State, summary bool) (string, error) {
	doc, err := format.Render(st, debate.RenderOptions{Summary: summary})
	if err != nil {
		return "", err
	}
	return textsafe.Clean(doc), nil
}
