package council

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// riskFraming is the spec's risk-neutral and risk-averse variants of the
// debate system prompt.
var riskFraming = map[string]string{
	RiskNeutral: `Risk tolerance: neutral. Weigh upside and downside evenly: GO when the expected outcome is favourable on
the evidence, NOGO when it is not.`,
	RiskAverse: `Risk tolerance: averse. Capital preservation comes first: GO only when the evidence is strong and the
downside is bounded; an unresolved material risk (team, market, valuation or reputation) is a reason for NOGO, and
uncertainty lowers confidence in GO, never in NOGO.`,
}

func (p *Protocol) analysisSystem(a Agent) string {
	return fmt.Sprintf(`You are the %s Agent of an investment council run by Parley. Your domain: %s.
Analyse the company from your domain only: concrete facts, signals and risks, and what you do not know. Do not invent
figures; say when evidence is missing. End with a preliminary GO or NOGO and why. Keep it under 400 words.`, a.Name, a.Focus)
}

func (p *Protocol) debateSystem(a Agent) string {
	return fmt.Sprintf(`You are the %s Agent in an adversarial investment debate run by Parley. Your domain: %s.
Each round you read everything the other agents said. Identify the WEAKEST argument of an agent who disagrees with you
(or, if all agree, the weakest argument overall) and challenge it specifically, with evidence from your domain; do not
merely restate your own position. Change your position only if an argument genuinely persuaded you, and then say who
and which argument in persuaded_by.
%s
Reply with the JSON object only: position (GO or NOGO), confidence (0 to 1), rationale, challenges (your counterpoints
to other agents' arguments, each naming the agent), persuaded_by (empty unless your position changed).`, a.Name, a.Focus, riskFraming[p.opts.Risk])
}

func (p *Protocol) analysisTurn(s *debate.State, a Agent) debate.TurnSpec {
	task := fmt.Sprintf("Company: %s\nRisk tolerance: %s\n\nWrite your Phase 1 analysis.\n", p.company, p.opts.Risk)
	if l := p.opts.Listed; l != nil {
		task += fmt.Sprintf("\n%s (%s, CIK %s) is a listed company. SEC tools are available (filings, 10-K sections, XBRL facts, "+
			"ratios, frameworks; at most 5 calls): ground your analysis in them and cite the filing of each figure. Data: %s.\n",
			l.Name, l.Ticker, l.CIK, l.Data)
	}
	hints, ids := hintsFor(s, a.ID)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: analysisID(a), Agent: a.ID, Role: roleAnalyst, Label: a.Name + " · analysis", Phase: "analysis"},
		System:   p.analysisSystem(a),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: task + hints}},
		Hints:    ids,
		UseTools: p.opts.Listed != nil,
	}
}

// history serialises every debate position so far, the spec's PRIOR DEBATE
// MESSAGES: complete rounds, then the current round's earlier turns.
func history(v *view) string {
	var b strings.Builder
	all := make([]Position, 0, len(v.rounds)*3+len(v.partial))
	for _, r := range v.rounds {
		all = append(all, r.Positions...)
	}
	all = append(all, v.partial...)
	if len(all) == 0 {
		return "PRIOR DEBATE MESSAGES: none yet: you open the debate.\n"
	}
	b.WriteString("PRIOR DEBATE MESSAGES:\n")
	for _, ps := range all {
		fmt.Fprintf(&b, "Round %d — %s Agent: %s (%.0f%% confidence)", ps.Round, ps.Name, ps.Position, ps.Confidence*100)
		if ps.Fallback {
			b.WriteString(" [fallback: the reply could not be parsed]")
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "  They said: %s\n", oneLine(ps.Rationale, 0))
		for _, c := range ps.Challenges {
			fmt.Fprintf(&b, "  Challenge: %s\n", oneLine(c, 0))
		}
		if ps.PersuadedBy != "" {
			fmt.Fprintf(&b, "  Persuaded by: %s\n", oneLine(ps.PersuadedBy, 0))
		}
	}
	for _, r := range v.rounds {
		fmt.Fprintf(&b, "After round %d: %s\n", r.Round, map[bool]string{true: "consensus", false: "no consensus"}[r.ConsensusReached])
	}
	return b.String()
}

func (p *Protocol) debateTurn(s *debate.State, v *view, r int, a Agent) debate.TurnSpec {
	var b strings.Builder
	fmt.Fprintf(&b, "Company: %s\nRisk tolerance: %s\nRound: %d of at most %d\n\n", p.company, p.opts.Risk, r, p.opts.MaxRounds)
	analysis := ""
	if t := v.analyses[a.ID]; t != nil {
		analysis = strings.TrimSpace(t.Text)
	}
	analysis = cut(analysis, AnalysisExcerpt)
	fmt.Fprintf(&b, "Your Phase 1 analysis:\n%s\n\n", analysis)
	b.WriteString("The other agents' Phase 1 analyses (excerpts):\n")
	for _, o := range p.opts.Agents {
		if o.ID == a.ID {
			continue
		}
		if t := v.analyses[o.ID]; t != nil {
			fmt.Fprintf(&b, "- %s Agent: %s\n", o.Name, oneLine(t.Text, 600))
		}
	}
	b.WriteString("\n")
	b.WriteString(history(v))
	if prev, pr := p.previousPosition(s, a, r); prev != "" {
		fmt.Fprintf(&b, "\nYour position in round %d was %s. If you change it, persuaded_by must say who persuaded you and with which argument.\n", pr, prev)
	}
	b.WriteString("\nChallenge the weakest opposing argument above, then give your position as the JSON object.\n")
	hints, ids := hintsFor(s, a.ID)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: turnID(r, a), Agent: a.ID, Role: roleAnalyst, Label: a.Name + " · debate", Phase: "debate", Round: r},
		System:   p.debateSystem(a),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		Schema:   positionSchema(),
		Hints:    ids,
	}
}

func hintsFor(s *debate.State, agent string) (string, []int) {
	hs := s.PendingHints(agent)
	if len(hs) == 0 {
		return "", nil
	}
	var b strings.Builder
	ids := make([]int, 0, len(hs))
	b.WriteString("\nGuidance from the human for you:\n")
	for _, h := range hs {
		fmt.Fprintf(&b, "- %s\n", h.Text)
		ids = append(ids, h.ID)
	}
	return b.String(), ids
}

// oneLine folds whitespace and, when max > 0, shortens to max bytes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if max > 0 {
		s = cut(s, max)
	}
	return s
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
