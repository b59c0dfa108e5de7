package formal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/argue/export"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// Format is the formal format for the registry.
type Format struct{}

// Name implements debate.Format.
func (Format) Name() string { return Name }

// Options are the options a formal debate takes (setup.Optioner).
func (Format) Options() []setup.Option {
	return []setup.Option{
		{Name: "rounds", Kind: setup.Int, Usage: fmt.Sprintf("argumentation rounds, 1-%d", MaxRounds), Default: DefaultRounds,
			Min: 1, Max: MaxRounds},
		{Name: "perspective", Kind: setup.String, Usage: "focus one `role`: PRO, OPP or MOD", Label: "Focus",
			Choices: func() []string { return []string{"pro", "opp", "mod"} }},
		{Name: "context", Kind: setup.String, File: true, Usage: "`directory` whose code, docs and git history form the shared context"},
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

// Render implements debate.Format: the spec's report. The summary leaves out
// the transcript (live views show it as the debate runs).
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
	res, err := p.result(s, v)
	if err != nil {
		return "", err
	}
	fw, err := p.framework(v)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Debate: \"%s\"\n\n", mdsafe.Literal(p.topic))
	if s.Status != debate.StatusCompleted {
		fmt.Fprintf(&b, "**Status:** %s (the debate has not finished; this report is partial)\n\n", s.Status)
	}
	b.WriteString("## Participants\n")
	for _, pe := range res.Participants {
		fmt.Fprintf(&b, "- **%s** %s — %s. Bias: %s.", pe.Role, pe.Title, pe.Persona, pe.Bias)
		if pe.Role == p.opts.Focus {
			b.WriteString(" *(in focus)*")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Shared Context (K)\n")
	if p.opts.Context.Dir != "" {
		fmt.Fprintf(&b, "Gathered from `%s` when the debate was created.\n\n", p.opts.Context.Dir)
	}
	b.WriteString(bullets(p.opts.Context.Facts, "No context was gathered (no --context directory): the debaters argued from general knowledge."))

	if !opt.Summary {
		b.WriteString("\n---\n\n## Transcript\n")
		b.WriteString(p.transcriptMD(s, v))
	}

	if len(res.Arguments) < 2 {
		// A side forfeited before the dialogue began: there are no stores,
		// framework or map to show, only what happened.
		fmt.Fprintf(&b, "\n---\n\n## Commitment Stores and Argumentation Framework\n\nNone: the debate ended before an argument was exchanged (%s). ", res.EndReason)
		b.WriteString("The verdict below follows from that, not from scores.\n")
	} else {
		b.WriteString("\n---\n\n## Commitment Stores (Final State)\n\n| Agent | Commitments | Retractions |\n|-------|-------------|-------------|\n")
		for _, c := range res.Commitments {
			fmt.Fprintf(&b, "| %s | {%s} | {%s} |\n", c.Party, strings.Join(c.Commitments, ", "), strings.Join(c.Retractions, ", "))
		}
		for _, c := range res.Commitments {
			if len(c.Conceded) > 0 {
				fmt.Fprintf(&b, "\n%s conceded %s.", c.Party, strings.Join(c.Conceded, ", "))
			}
		}
		b.WriteString("\n\n---\n\n## Argumentation Framework\n\n### Arguments\n| ID | Content | Source | Score |\n|----|---------|--------|-------|\n")
		for _, a := range res.Arguments {
			text := cell(a.Text)
			if a.Retracted {
				text += " *(retracted)*"
			}
			if a.Rejected != "" {
				text += " *(rejected by MOD: " + cell(a.Rejected) + ")*"
			}
			fmt.Fprintf(&b, "| %s | %s | %s (%s) | %.2f |\n", a.ID, text, a.Side, a.Statement, a.Score)
		}
		b.WriteString("\n### Relations\n| From | To | Type | Classification |\n|------|----|------|----------------|\n")
		for _, r := range res.Relations {
			typ, class := "Attack", map[string]string{"rebut": "Rebutting", "undercut": "Undercutting", "support": "Direct"}[r.Kind]
			if r.Kind == "support" {
				typ = "Support"
			}
			by := ""
			if r.By != "protocol" {
				by = " (" + r.By + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s%s |\n", r.From, r.To, typ, class, by)
		}
		if len(res.Unrelated) > 0 {
			fmt.Fprintf(&b, "\nCounter-claims the moderator found bear on nothing (no relation): %s.\n", strings.Join(res.Unrelated, ", "))
		}
		var ascii bytes.Buffer
		if err := export.ASCII(&ascii, fw.graph, fw.scores.Scores); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n### Argument Map (ASCII)\n\n```\n%s```\n", ascii.String())
		conv := "converged"
		if !res.Semantics.Converged {
			conv = "did NOT converge (scores are the last iterate)"
		}
		fmt.Fprintf(&b, "\nScores: gradual semantics `%s`", res.Semantics.Method)
		if res.Semantics.Rule != "" {
			fmt.Fprintf(&b, " (%s)", res.Semantics.Rule)
		}
		if res.Semantics.Acyclic {
			fmt.Fprintf(&b, "; the framework is acyclic, so one exact pass %s.\n", conv)
		} else {
			fmt.Fprintf(&b, "; %s after %d iterations.\n", conv, res.Semantics.Iterations)
		}
		b.WriteString("\n### Dung Cross-check\n\n")
		derived := "none"
		if len(res.Dung.Derived) > 0 {
			derived = strings.Join(res.Dung.Derived, ", ")
		}
		fmt.Fprintf(&b, "Attack projection of the arguments still held, with the derived bipolar attacks (supported: X supports Y, Y attacks Z; secondary: X attacks Y, Y supports Z): %s.\n", derived)
		fmt.Fprintf(&b, "Grounded extension (contained in every complete extension): {%s}.\n\n", strings.Join(res.Dung.Grounded, ", "))
		b.WriteString("The framework in Graphviz DOT, Argdown and AIF JSON is in the JSON verdict (`parley export ID --as json`, verdict.exports).\n")
	}

	b.WriteString("\n---\n\n## Verdict\n\n")
	if res.Winner == "TIE" {
		fmt.Fprintf(&b, "### Winner: **TIE** (Score: %.2f vs %.2f)\n", res.Scores[PRO], res.Scores[OPP])
	} else {
		fmt.Fprintf(&b, "### Winner: **%s** (Score: %.2f vs %.2f)\n", res.Winner, res.Scores[res.Winner], res.Scores[other(res.Winner)])
	}
	fmt.Fprintf(&b, "\nPRO %.2f, OPP %.2f. Rule: %s.\n", res.Scores[PRO], res.Scores[OPP], WinnerRule)
	if res.DecidedBy != "scores" {
		fmt.Fprintf(&b, "Decided by the dialogue, not the scores: %s.\n", res.DecidedBy)
	}
	for _, side := range []string{PRO, OPP} {
		n, surv := 0, 0
		for _, a := range res.Arguments {
			if a.Side == side {
				n++
				if a.Survived {
					surv++
				}
			}
		}
		fmt.Fprintf(&b, "%s: %d of %s %s (score > 0.5).\n", side, surv, counted(n, "argument"), survive(surv))
	}
	if res.Proposition != "" {
		pa := argumentView(res, res.Proposition)
		state := "does not survive"
		if pa.Survived {
			state = "survives"
		}
		fmt.Fprintf(&b, "The proposition %s scores %.2f and %s.\n", res.Proposition, pa.Score, state)
	}
	if res.EndReason != "" {
		fmt.Fprintf(&b, "Ended because: %s.\n", res.EndReason)
	}
	j := res.Judgment
	b.WriteString("\n### Rationale\n\n")
	switch {
	case j != nil:
		b.WriteString(report.Prose(j.Rationale) + "\n")
	case res.JudgmentNote != "":
		b.WriteString("No moderator rationale: " + res.JudgmentNote + ". The winner follows from the scores above.\n")
	default:
		b.WriteString("No moderator judgment yet.\n")
	}
	b.WriteString("\n### Strongest Surviving Arguments\n\n")
	if len(res.Strongest) == 0 {
		b.WriteString("No argument of the winning side survived (score > 0.5).")
		if best := p.standing(res); len(best) > 0 {
			b.WriteString(" Its strongest still standing: " + strings.Join(best, "; ") + ".")
		}
		b.WriteString("\n")
	}
	for i, id := range res.Strongest {
		a := argumentView(res, id)
		fmt.Fprintf(&b, "%d. **%s** (%s, %.2f): %s\n", i+1, id, a.Side, a.Score, oneLine(a.Text))
	}
	b.WriteString("\n### Valid Points from Losing Side\n\n")
	n := 0
	for _, id := range res.ValidPoints {
		a := argumentView(res, id)
		n++
		how := fmt.Sprintf("survives at %.2f", a.Score)
		if !a.Survived {
			how = fmt.Sprintf("conceded by %s", res.Winner)
		}
		fmt.Fprintf(&b, "%d. **%s** (%s, %s): %s\n", n, id, a.Side, how, oneLine(a.Text))
	}
	if j != nil {
		for _, pt := range j.ValidPoints {
			n++
			fmt.Fprintf(&b, "%d. **%s** (moderator): %s\n", n, pt.ID, oneLine(pt.Point))
		}
	}
	if n == 0 {
		b.WriteString("None: no argument of the losing side survived or was conceded.\n")
	}
	if j != nil {
		fmt.Fprintf(&b, "\n### Consensus Solution\n\n%s\n", report.Prose(j.Consensus))
		b.WriteString("\n### Conditions for Revisiting\n\n")
		b.WriteString(bullets(j.Revisit, "None stated."))
		b.WriteString("\n### Unaddressed Critical Questions\n\n")
		b.WriteString(bullets(append(append([]string(nil), res.Unanswered...), j.Unaddressed...), "None."))
		if strings.TrimSpace(j.Biases) != "" {
			fmt.Fprintf(&b, "\n### Bias Transparency\n\n%s\n", report.Prose(j.Biases))
		}
		if p.opts.Focus != "" && strings.TrimSpace(j.Focus) != "" {
			fmt.Fprintf(&b, "\n### Focus: %s\n\n%s\n", p.opts.Focus, report.Prose(j.Focus))
		}
	} else if len(res.Unanswered) > 0 {
		b.WriteString("\n### Unaddressed Critical Questions\n\n")
		b.WriteString(bullets(res.Unanswered, ""))
	}
	m := res.Metrics
	b.WriteString("\n### Debate Quality Metrics\n")
	fmt.Fprintf(&b, "- Arguments raised: %d\n- Attacks: %d (%d rebuts, %d undercuts)\n- Supports: %d\n- Concessions made: %d\n- Retractions: %d\n",
		m.Arguments, m.Attacks, m.Rebuts, m.Undercuts, m.Supports, m.Concessions, m.Retractions)
	fmt.Fprintf(&b, "- Moves: %d; illegal or unparsable replies refused: %d; turns forfeited: %d; turns passed: %d; unanswered challenges: %d\n", m.Moves, m.Refused, m.Forfeits, m.Passes, m.Unanswered)
	for _, fo := range res.Forfeits {
		fmt.Fprintf(&b, "- Forfeit: %s (%s): %s\n", fo.Turn, fo.Party, fo.Reason)
	}
	return b.String(), nil
}

// standing names the winning side's best arguments when none survived.
func (p *Protocol) standing(res Result) []string {
	var out []string
	best := -1.0
	for _, a := range res.Arguments {
		if a.Side == res.Winner && !a.Retracted && a.Rejected == "" && a.Score > 0 && a.Score >= best-1e-9 {
			if a.Score > best+1e-9 {
				out, best = nil, a.Score
			}
			out = append(out, fmt.Sprintf("**%s** (%.2f) %s", a.ID, a.Score, short(a.Text, 100)))
		}
	}
	return out
}

func argumentView(r Result, id string) ArgumentView {
	for _, a := range r.Arguments {
		if a.ID == id {
			return a
		}
	}
	return ArgumentView{ID: id}
}

// transcriptMD renders the debate in the spec's transcript notation.
func (p *Protocol) transcriptMD(s *debate.State, v *view) string {
	var b strings.Builder
	label := ""
	for _, tv := range v.turns {
		if tv.label != label {
			label = tv.label
			if tv.stage == stageClosing {
				b.WriteString("\n### Final Round: Closing\n")
			} else {
				fmt.Fprintf(&b, "\n### %s\n", tv.label)
			}
		}
		if tv.pass {
			fmt.Fprintf(&b, "\n**%s** passes: %s made no move it could answer.\n", tv.party, other(tv.party))
			continue
		}
		for _, rp := range tv.turn.Repairs {
			fmt.Fprintf(&b, "\n*%s's reply was refused: %s*\n", tv.party, rp.Error)
		}
		if tv.forfeit != "" {
			fmt.Fprintf(&b, "\n**%s** forfeits this turn: %s\n", tv.party, tv.forfeit)
			continue
		}
		b.WriteString(describeMoves(tv.move))
	}
	return b.String()
}

// describeMoves renders a turn's moves in the spec's notation.
func describeMoves(tm *TurnMove) string {
	var b strings.Builder
	for _, m := range tm.Moves {
		switch m.Act {
		case ActClaim:
			note := ""
			switch {
			case m.Inference:
				note = fmt.Sprintf(" (undercuts the inference of %s)", m.RepliesTo)
			case m.RepliesTo != "":
				note = fmt.Sprintf(" (against %s)", m.RepliesTo)
			}
			fmt.Fprintf(&b, "\n**%s [%s]** `claim` \"%s\"%s\n", m.Party, m.ID, oneLine(m.Statement), note)
		case ActSince:
			var ps []string
			for _, p := range m.Premises {
				ps = append(ps, fmt.Sprintf("%s: \"%s\"", p.ID, oneLine(p.Text)))
			}
			fmt.Fprintf(&b, "\n**%s [%s]** `%s since` {%s} (answers %s)\n", m.Party, m.ID, m.Target, strings.Join(ps, "; "), m.RepliesTo)
		default:
			fmt.Fprintf(&b, "\n**%s [%s]** `%s` %s \"%s\"", m.Party, m.ID, m.Act, m.Target, oneLine(short(m.Statement, 160)))
			if m.RepliesTo != m.Target {
				fmt.Fprintf(&b, " (answers %s)", m.RepliesTo)
			}
			b.WriteString("\n")
		}
		if m.Explanation != "" {
			fmt.Fprintf(&b, "> %s\n", oneLine(m.Explanation))
		}
	}
	if tm.FinalStatement != "" {
		fmt.Fprintf(&b, "\n**%s** final statement:\n> %s\n", tm.Party, oneLine(tm.FinalStatement))
	}
	return b.String()
}

// Describe summarises a completed structured turn for live views.
func (Format) Describe(t *debate.Turn) string {
	if t.Invalid != "" {
		return ""
	}
	switch t.ID {
	case idClassify:
		var c Classification
		if json.Unmarshal(t.Move, &c) != nil {
			return ""
		}
		var lines []string
		for _, r := range c.Relations {
			lines = append(lines, fmt.Sprintf("%s: %s — %s", r.Move, r.Kind, r.Reason))
		}
		for _, r := range c.Rejected {
			lines = append(lines, fmt.Sprintf("%s rejected — %s", r.ID, r.Reason))
		}
		if len(lines) == 0 {
			return "No open relation to classify; no argument rejected."
		}
		return strings.Join(lines, "\n")
	case idVerdict:
		var j Judgment
		if json.Unmarshal(t.Move, &j) != nil {
			return ""
		}
		return "Rationale: " + j.Rationale + "\nConsensus: " + j.Consensus
	}
	var tm TurnMove
	if json.Unmarshal(t.Move, &tm) != nil {
		return ""
	}
	return strings.TrimSpace(describeMoves(&tm))
}

func bullets(items []string, empty string) string {
	if len(items) == 0 {
		if empty == "" {
			return ""
		}
		return empty + "\n"
	}
	var b strings.Builder
	for _, it := range items {
		// One line each: a line break in a model's item could start a
		// section of the document's own.
		fmt.Fprintf(&b, "- %s\n", report.Item(it))
	}
	return b.String()
}

// counted writes a count with its noun, singular for one: "1 argument",
// "3 arguments" (the nouns counted here all take -s).
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// survive agrees with the number of arguments that survive.
func survive(n int) string {
	if n == 1 {
		return "survives"
	}
	return "survive"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes text safe for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// Roles lists the roles this format's turns take: the names --model-for
// accepts.
func (Format) Roles() []string { return []string{RoleDebater, AgentPro, AgentOpp, agentModerator} }

// ArgumentMap is the debate's arguments so far, with their gradual scores
// and their relations (attacks: rebuttals and undercuts), for the views
// that draw them; nil before any argument.
func (f Format) ArgumentMap(s *debate.State) (*debate.ArgumentMap, error) {
	res, err := f.Outcome(s)
	if err != nil || len(res.Arguments) == 0 {
		return nil, err
	}
	m := &debate.ArgumentMap{Sides: []string{PRO, MOD, OPP}}
	for _, a := range res.Arguments {
		m.Arguments = append(m.Arguments, debate.MapArgument{ID: a.ID, Side: a.Side, Text: a.Text, Score: a.Score, Retracted: a.Retracted})
	}
	for _, r := range res.Relations {
		m.Relations = append(m.Relations, debate.MapRelation{From: r.From, To: r.To, Support: r.Kind == "support"})
	}
	return m, nil
}

// Outcome is the debate's result so far: its arguments with their gradual
// scores, their relations, the commitment stores and the verdict, for views
// that draw them (the dashboard's argument map).
func (f Format) Outcome(s *debate.State) (Result, error) {
	proto, err := f.Protocol(s.Topic, s.Options)
	if err != nil {
		return Result{}, err
	}
	p := proto.(*Protocol)
	v, err := p.derive(s)
	if err != nil {
		return Result{}, err
	}
	return p.result(s, v)
}
