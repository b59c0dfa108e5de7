package crux

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// Format is the crux format for the registry.
type Format struct{}

// Name implements debate.Format.
func (Format) Name() string { return Name }

// Options are the options a crux debate takes (setup.Optioner).
func (Format) Options() []setup.Option {
	return []setup.Option{
		{Name: "agents", Kind: setup.Strings, Split: true, Usage: "agents or personas, comma-separated", Note: "two personas",
			Label: "Personas", Placeholder: "two, comma-separated, e.g. saylor,hayes; empty: the moderator chooses",
			Choices: func() []string {
				ps, err := BuiltinPersonas()
				if err != nil {
					return nil
				}
				return ps.IDs()
			}},
		{Name: "personas", Kind: setup.String, File: true, Usage: "YAML `file` of personas"},
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

// Render implements debate.Format: the crux report, and with the full option
// the transcript by stage after it.
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
	v, err := p.derive(s)
	if err != nil {
		return "", err
	}
	th := v.th
	res := v.result
	if res == nil {
		r := p.result(th, v)
		res = &r
	}
	c := res.Crux
	var b strings.Builder
	q := c.Question
	if q == "" {
		q = "(no question yet)"
	}
	// The question, the positions, the falsifiers, the criteria and the
	// stages' reasons are model output: each list item and the title are
	// kept to one line (report.Item), so that none opens a section of the
	// report or leaves a code block open.
	fmt.Fprintf(&b, "# Crux: %s\n\n", report.Item(q))
	head := []string{"**Topic:** " + mdsafe.Literal(p.topic), "**Debate ID:** " + s.ID}
	names := make([]string, len(th.agents))
	for i, a := range th.agents {
		names[i] = a.Name
	}
	head = append(head, "**Personas:** "+report.Item(strings.Join(names, " vs ")))
	if v.result == nil {
		head = append(head, fmt.Sprintf("**Status:** %s, stage %s (the debate has not finished; this report is partial)", s.Status, th.stage))
	} else {
		head = append(head, "**Locked:** "+yesNo(c.Locked), "**Validated:** "+yesNo(c.Validated), "**Ended because:** "+orDash(res.EndReason))
	}
	b.WriteString(report.HardLines(head...))
	b.WriteString("\n## Positions\n\n")
	if len(c.Positions) == 0 {
		b.WriteString("No commitments.\n")
	}
	for _, a := range th.agents {
		if ps, ok := c.Positions[a.ID]; ok {
			fmt.Fprintf(&b, "%s\n", report.Item(fmt.Sprintf("- **%s: %s** (confidence %.0f%%); top claim: %s [%s, %.0f%%]", a.Name, ps.Side, ps.Confidence*100, ps.TopClaim.Statement, ps.TopClaim.Side, ps.TopClaim.Confidence*100)))
		}
	}
	b.WriteString("\n## Falsifiers\n\n")
	if len(c.Falsifiers) == 0 {
		b.WriteString("None declared.\n")
	}
	for _, fl := range c.Falsifiers {
		line := fmt.Sprintf("- %s: **%s** %s by %s", th.name(fl.Agent), fl.Metric, fl.Threshold, fl.Deadline)
		if fl.Reasoning != "" {
			line += " — " + fl.Reasoning
		}
		if fl.ProposedBy != "" {
			line += fmt.Sprintf(" (proposed by the %s)", fl.ProposedBy)
		}
		b.WriteString(report.Item(line) + "\n")
	}
	b.WriteString("\n## Steelmans\n\n")
	for _, sm := range res.Steelmans {
		b.WriteString(report.Item(steelmanLine(th, sm)) + "\n")
	}
	if v.result != nil {
		b.WriteString("\n## Counterfactual\n\n")
		for _, a := range th.agents {
			if cf, ok := c.Counterfactual[a.ID]; ok {
				fmt.Fprintf(&b, "- %s's top claim would flip: %s — %s\n", a.Name, yesNo(cf.WouldFlip), oneLine(cf.Reasoning))
			}
		}
		if len(c.Counterfactual) == 0 {
			b.WriteString("Not assessed.\n")
		}
		b.WriteString("\n## Resolution Criteria\n\n")
		for _, r := range c.ResolutionCriteria {
			fmt.Fprintf(&b, "- %s\n", report.Item(r))
		}
		if len(c.ResolutionCriteria) == 0 {
			b.WriteString("None.\n")
		}
		b.WriteString("\n## Validation\n\n")
		for _, x := range c.Validation {
			fmt.Fprintf(&b, "- %s %s: %s\n", mark(x.Passed), x.Name, report.Item(x.Detail))
		}
		if c.Summary != "" {
			fmt.Fprintf(&b, "\n## Summary\n\n%s\n", report.Prose(c.Summary))
		}
	}
	if len(res.Concessions) > 0 {
		b.WriteString("\n## Concessions\n\n")
		for _, cn := range res.Concessions {
			kind := "changes the top claim"
			if cn.Cheap {
				kind = "cheap: the top claim is unchanged"
			}
			fmt.Fprintf(&b, "- %s (message %d, %s): %s\n", th.name(cn.Agent), cn.Message, kind, oneLine(cn.Content))
		}
	}
	b.WriteString("\n## Stages\n\n")
	b.WriteString("- DISCOVERY from message 1\n")
	for _, t := range th.transitions {
		fmt.Fprintf(&b, "- %s → %s after message %d: %s\n", t.From, t.To, t.AtMessage, report.Item(t.Reason))
	}
	if len(th.locks) > 0 {
		b.WriteString("\n## Lock Attempts\n")
		for _, l := range th.locks {
			fmt.Fprintf(&b, "\n### Attempt %d (after message %d): %s\n\n", l.Attempt, l.AtMessage, map[bool]string{true: "locked", false: "failed"}[l.Passed])
			for _, x := range l.Criteria {
				fmt.Fprintf(&b, "- %s %s: %s\n", mark(x.Passed), x.Name, report.Item(x.Detail))
			}
		}
	}
	if len(th.interventions) > 0 {
		b.WriteString("\n## Moderator Interventions\n\n")
		for _, iv := range th.interventions {
			fmt.Fprintf(&b, "- After attempt %d (%s): %s\n", iv.Attempt, iv.Kind, report.Item(iv.Text))
		}
	}
	if opt.Summary {
		return b.String(), nil
	}
	b.WriteString("\n---\n\n## Transcript\n")
	stage := Stage("")
	for _, m := range th.msgs {
		if m.Stage != stage {
			stage = m.Stage
			fmt.Fprintf(&b, "\n### %s\n", stage)
		}
		if m.Move == nil {
			fmt.Fprintf(&b, "\n**%d. %s** — refused: %s\n", m.N, th.name(m.Agent), oneLine(m.Refused))
			continue
		}
		fmt.Fprintf(&b, "\n**%d. %s — %s**\n\n%s\n", m.N, th.name(m.Agent), report.Item(describeMove(th, *m.Move)), report.Nested(strings.TrimSpace(m.Move.Content), 4))
	}
	var notes []string
	for _, n := range s.Notes {
		if n.Kind == "crux.moderator_intervention" {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n### Moderator\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String(), nil
}

// describeMove is a move's one-line header.
func describeMove(th *thread, m Move) string {
	switch m.Move {
	case MoveSteelman, MoveChallenge:
		return fmt.Sprintf("%s → %s", m.Move, th.name(m.Target))
	case MoveGrade:
		return fmt.Sprintf("%s of %s: %s", m.Move, th.name(m.Target), m.Grade)
	case MoveCommit:
		return fmt.Sprintf("%s %s (%.0f%%); top claim: %s", m.Move, m.Side, m.Confidence*100, m.TopClaim.Statement)
	case MovePropose:
		return fmt.Sprintf("%s: %s", m.Move, m.Question)
	case MoveFalsifier:
		return fmt.Sprintf("%s: %s %s by %s", m.Move, m.Falsifier.Metric, m.Falsifier.Threshold, m.Falsifier.Deadline)
	case MoveConcede:
		if m.TopClaimChanged {
			return m.Move + " (top claim changed)"
		}
		return m.Move + " (top claim unchanged)"
	}
	return m.Move
}

// Describe summarises a completed turn for live views, which show structured
// (JSON) turns as prose rather than raw JSON.
func (Format) Describe(t *debate.Turn) string {
	if t.Invalid != "" || len(t.Move) == 0 {
		return ""
	}
	switch t.ID {
	case modFrameDiscovery, modFrameLock:
		var f Frame
		if json.Unmarshal(t.Move, &f) != nil {
			return ""
		}
		return fmt.Sprintf("Question: %s\n%s", f.Question, f.Rationale)
	case modFalsifiers:
		var pr Proposals
		if json.Unmarshal(t.Move, &pr) != nil {
			return ""
		}
		var lines []string
		for _, f := range pr.Falsifiers {
			lines = append(lines, fmt.Sprintf("%s: %s %s by %s", f.Agent, f.Metric, f.Threshold, f.Deadline))
		}
		return "Proposed falsifiers:\n" + strings.Join(lines, "\n")
	case modCrystallise:
		var c Crystallisation
		if json.Unmarshal(t.Move, &c) != nil {
			return ""
		}
		return c.Summary
	}
	var m Move
	if json.Unmarshal(t.Move, &m) != nil || m.Move == "" {
		return ""
	}
	th := &thread{}
	return describeMove(th, m) + "\n" + strings.TrimSpace(m.Content)
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// Roles lists the roles this format's turns take: the names --model-for
// accepts.
func (Format) Roles() []string { return []string{roleDebater, roleModerator} }

// steelmanLine is one steelman pair's status: its grade (or that it awaits
// one, or was never attempted), the attempts and the grader's reason.
func steelmanLine(th *thread, sm Steelman) string {
	status := sm.Grade
	switch {
	case sm.Attempts == 0:
		return fmt.Sprintf("- %s → %s: not attempted", th.name(sm.From), th.name(sm.To))
	case sm.Pending:
		status = "awaiting grade"
	}
	line := fmt.Sprintf("- %s → %s: **%s** after %s", th.name(sm.From), th.name(sm.To), status, counted(sm.Attempts, "attempt"))
	if !sm.Pending && sm.Reason != "" {
		line += fmt.Sprintf(" — %s: %s", th.name(sm.To), oneLine(sm.Reason))
	}
	return line
}
