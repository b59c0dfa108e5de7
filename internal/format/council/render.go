package council

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// Format is the council format for the registry.
type Format struct{}

// Name implements debate.Format.
func (Format) Name() string { return Name }

// Options are the options a council debate takes (setup.Optioner).
func (Format) Options() []setup.Option {
	return []setup.Option{
		{Name: "agents", Kind: setup.Strings, Split: true, Usage: "agents or personas, comma-separated", Note: "the analysts",
			Placeholder: "comma-separated; empty for the default council",
			Choices: func() []string {
				var ids []string
				for _, a := range DefaultAgents() {
					ids = append(ids, a.ID)
				}
				return ids
			}},
		{Name: "max-rounds", Kind: setup.Int, Usage: "cap on rounds", Note: fmt.Sprintf("1-%d", MaxMaxRounds), Default: DefaultMaxRounds,
			Min: 1, Max: MaxMaxRounds, Label: "Rounds"},
		{Name: "risk", Kind: setup.String, Usage: "risk stance: " + RiskNeutral + " or " + RiskAverse, Default: RiskNeutral,
			Label: "Risk tolerance", Choices: func() []string { return []string{RiskNeutral, RiskAverse} }},
		setup.SnapshotOption(),
	}
}

// Protocol implements debate.Format.
func (Format) Protocol(topic string, options json.RawMessage) (debate.Protocol, error) {
	o, err := debate.DecodeOptions[Options](Name, options)
	if err != nil {
		return nil, err
	}
	return NewProtocol(topic, o)
}

// Render implements debate.Format: the council report (verdict, a section per
// debate round), and with the full option the Phase 1 analyses after it.
// report.WithUsage ends it, as every format's document, with the follow-up
// questions and the per-agent token and cost table.
func (f Format) Render(s *debate.State, opt debate.RenderOptions) (string, error) {
	doc, err := f.render(s, opt)
	return report.WithUsage(s, doc, err)
}

func (f Format) render(s *debate.State, opt debate.RenderOptions) (string, error) {
	proto, err := f.Protocol(s.Topic, s.Options)
	if err != nil {
		return "", err
	}
	p := proto.(*Protocol)
	v := p.derive(s)
	res := v.result
	if res == nil {
		r := p.result(v.rounds)
		res = &r
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Council: %s\n\n", mdsafe.Literal(oneLine(p.company, 120)))
	head := []string{
		"**Debate ID:** " + s.ID,
		"**Agents:** " + strings.Join(agentNames(p.opts.Agents), ", "),
		"**Risk tolerance:** " + p.opts.Risk,
	}
	if s.Status != debate.StatusCompleted || v.result == nil {
		head = append(head, fmt.Sprintf("**Status:** %s (the debate has not finished; this report is partial)", s.Status))
	}
	b.WriteString(report.HardLines(head...))
	if v.result != nil {
		fmt.Fprintf(&b, "\n## Verdict: %s\n\n", res.Decision)
		fmt.Fprintf(&b, "- Consensus reached: %s\n", yesNo(res.ConsensusReached))
		fmt.Fprintf(&b, "- Rounds: %d of at most %d\n", res.Rounds, res.MaxRounds)
		fmt.Fprintf(&b, "- Final round: %d GO, %d NOGO\n", res.Votes.GO, res.Votes.NOGO)
		fmt.Fprintf(&b, "- Why: %s\n", res.Reason)
	}
	b.WriteString("\n## Debate Rounds\n")
	if len(v.rounds) == 0 && len(v.partial) == 0 {
		b.WriteString("\nNo debate round has completed yet.\n")
	}
	for _, r := range v.rounds {
		label := "no consensus"
		if r.ConsensusReached {
			label = "consensus: " + r.ConsensusPosition
		}
		fmt.Fprintf(&b, "\n### Round %d — %s\n", r.Round, label)
		writePositions(&b, r.Positions)
	}
	if len(v.partial) > 0 {
		fmt.Fprintf(&b, "\n### Round %d — in progress\n", v.partial[0].Round)
		writePositions(&b, v.partial)
	}
	if opt.Summary {
		return b.String(), nil
	}
	b.WriteString("\n## Phase 1 Analysis\n")
	for _, a := range p.opts.Agents {
		fmt.Fprintf(&b, "\n### %s Agent\n\n", a.Name)
		if t := v.analyses[a.ID]; t != nil {
			b.WriteString(report.Nested(strings.TrimSpace(t.Text), 4) + "\n")
		} else {
			b.WriteString("Not written yet.\n")
		}
	}
	var notes []string
	for _, n := range s.Notes {
		if strings.HasPrefix(n.Kind, "council.") {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n## Progress\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String(), nil
}

func writePositions(b *strings.Builder, ps []Position) {
	for _, ps := range ps {
		fmt.Fprintf(b, "\n**%s Agent: %s** (confidence %.0f%%)", ps.Name, ps.Position, ps.Confidence*100)
		if ps.Fallback {
			b.WriteString(" — *fallback: the reply could not be parsed*")
		}
		b.WriteString("\n\n")
		fmt.Fprintf(b, "%s\n", report.Nested(strings.TrimSpace(ps.Rationale), 4))
		if ps.Fallback && ps.FallbackReason != "" {
			fmt.Fprintf(b, "\nParse error: %s\n", oneLine(ps.FallbackReason, 300))
		}
		if ps.PersuadedBy != "" {
			fmt.Fprintf(b, "\nPersuaded by: %s\n", report.Item(ps.PersuadedBy))
		}
		if len(ps.Challenges) > 0 {
			b.WriteString("\nChallenges:\n")
			for _, c := range ps.Challenges {
				fmt.Fprintf(b, "- %s\n", oneLine(c, 0))
			}
		}
	}
}

func agentNames(as []Agent) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Describe summarises a completed debate turn for live views, which show
// structured (JSON) turns as prose rather than raw JSON.
func (Format) Describe(t *debate.Turn) string {
	if t.Invalid != "" || len(t.Move) == 0 {
		return ""
	}
	var r reply
	if json.Unmarshal(t.Move, &r) != nil || r.Position == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (confidence %.0f%%): %s", r.Position, r.Confidence*100, strings.TrimSpace(r.Rationale))
	for _, c := range r.Challenges {
		fmt.Fprintf(&b, "\n  ↳ %s", oneLine(c, 0))
	}
	if r.PersuadedBy != "" {
		fmt.Fprintf(&b, "\nPersuaded by: %s", r.PersuadedBy)
	}
	return b.String()
}

// Roles lists the roles this format's turns take: the names --model-for
// accepts.
func (Format) Roles() []string { return []string{roleAnalyst} }
