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

// system is the one system prompt of every request of a council debate: the
// rules of both phases and the risk framing, which are the same for every
// agent. Who the agent is, the round and the task come last, in the user
// message, after the context every agent shares: requests then share a
// prefix that a provider's prompt cache serves (the agents used to get one
// system prompt each, with the round number before the shared text, and no
// two requests shared a cacheable prefix).
func (p *Protocol) system() string {
	return fmt.Sprintf(`You are one analyst agent of an investment council run by Parley. Each agent covers one domain; the last message
says which agent you are, your domain and your task.

Phase 1, analysis: analyse the company from your domain only: concrete facts, signals and risks, and what you do not
know. Do not invent figures; say when evidence is missing. End with a preliminary GO or NOGO and why. Keep it under 400
words.

Phase 2, adversarial debate: each round you read everything the other agents said. Identify the WEAKEST argument of an
agent who disagrees with you (or, if all agree, the weakest argument overall) and challenge it specifically, with
evidence from your domain; do not merely restate your own position. Change your position only if an argument
genuinely persuaded you, and then say who and which argument in persuaded_by. Reply with the JSON object only:
position (GO or NOGO), confidence (0 to 1), rationale, challenges (your counterpoints to other agents' arguments, each
naming the agent), persuaded_by (empty unless your position changed).

%s`, riskFraming[p.opts.Risk])
}

// role names the agent a request is for.
func role(a Agent) string {
	return fmt.Sprintf("You are the %s Agent. Your domain: %s.\n", a.Name, a.Focus)
}

func (p *Protocol) analysisTurn(s *debate.State, a Agent) debate.TurnSpec {
	task := fmt.Sprintf("Company: %s\nRisk tolerance: %s\n\n%s\nWrite your Phase 1 analysis.\n", p.company, p.opts.Risk, role(a))
	if l := p.opts.Listed; l != nil {
		task += fmt.Sprintf("\n%s (%s, CIK %s) is a listed company. SEC tools are available (filings, 10-K sections, XBRL facts, "+
			"ratios, frameworks; at most 5 calls): ground your analysis in them and cite the filing of each figure. Data: %s.\n",
			l.Name, l.Ticker, l.CIK, l.Data)
	}
	hints, ids := hintsFor(s, a.ID)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: analysisID(a), Agent: a.ID, Role: roleAnalyst, Label: a.Name + " · analysis", Phase: "analysis"},
		System:   p.system(),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: task + hints}},
		Hints:    ids,
		UseTools: p.opts.Listed != nil,
	}
}

// history serialises every debate position so far, the spec's PRIOR DEBATE
// MESSAGES: complete rounds, each followed by its outcome, then the current
// round's earlier turns. Rounds up to condensed are given briefly, so that a
// five-round debate does not resend every argument in full, but nothing an
// agent must weigh is dropped: the position, confidence and who persuaded
// whom, every challenge (the claims still contested), and of the rationale
// its opening claim and every sentence that carries a figure, with the
// source it is cited with. They are condensed two at a time, so that between
// two condensations the history only grows at its end and each request
// repeats the last one's as a prefix.
func history(v *view, condensed int) string {
	var b strings.Builder
	if len(v.rounds) == 0 && len(v.partial) == 0 {
		return "PRIOR DEBATE MESSAGES: none yet: you open the debate.\n"
	}
	b.WriteString("PRIOR DEBATE MESSAGES:\n")
	for _, r := range v.rounds {
		writeHistory(&b, r.Positions, r.Round <= condensed)
		fmt.Fprintf(&b, "After round %d: %s\n", r.Round, map[bool]string{true: "consensus", false: "no consensus"}[r.ConsensusReached])
	}
	writeHistory(&b, v.partial, false)
	return b.String()
}

func writeHistory(b *strings.Builder, ps []Position, brief bool) {
	for _, ps := range ps {
		fmt.Fprintf(b, "Round %d — %s Agent: %s (%.0f%% confidence)", ps.Round, ps.Name, ps.Position, ps.Confidence*100)
		if ps.Fallback {
			b.WriteString(" [fallback: the reply could not be parsed]")
		}
		b.WriteString("\n")
		if brief {
			fmt.Fprintf(b, "  They said (condensed): %s\n", condense(ps.Rationale))
		} else {
			fmt.Fprintf(b, "  They said: %s\n", oneLine(ps.Rationale, 0))
		}
		for _, c := range ps.Challenges {
			fmt.Fprintf(b, "  Challenge: %s\n", oneLine(c, 0))
		}
		if ps.PersuadedBy != "" {
			fmt.Fprintf(b, "  Persuaded by: %s\n", oneLine(ps.PersuadedBy, 0))
		}
	}
}

// condense keeps of a rationale its first sentence, the claim, and every
// later sentence with a digit in it: the figures, with the source each is
// cited with in its sentence. What it leaves out is argument the agent
// restates in its next rounds, which follow in full. "…" marks each gap.
func condense(s string) string {
	sents := sentences(oneLine(s, 0))
	var b strings.Builder
	gap := false
	for i, st := range sents {
		if i > 0 && !strings.ContainsAny(st, "0123456789") {
			gap = true
			continue
		}
		if i > 0 {
			b.WriteString(" ")
		}
		if gap {
			b.WriteString("… ")
			gap = false
		}
		b.WriteString(st)
	}
	if gap {
		b.WriteString(" …")
	}
	return b.String()
}

// sentences splits text at a full stop, question or exclamation mark
// followed by a space; a stop inside a figure ("1.5") or an abbreviation
// without a following space does not split.
func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '?' || s[i] == '!') && s[i+1] == ' ' {
			out = append(out, s[start:i+1])
			start = i + 2
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func (p *Protocol) debateTurn(s *debate.State, v *view, r int, a Agent) debate.TurnSpec {
	// Stable first, and the same for every agent: the company, every
	// agent's Phase 1 analysis (the spec's first 2,000 characters: each
	// agent sees its own, and the others' too) and the debate so far, which
	// grows at its end from one request to the next.
	var shared strings.Builder
	fmt.Fprintf(&shared, "Company: %s\nRisk tolerance: %s\n\nPhase 1 analyses:\n", p.company, p.opts.Risk)
	for _, o := range p.opts.Agents {
		if t := v.analyses[o.ID]; t != nil {
			fmt.Fprintf(&shared, "\n## %s Agent\n%s\n", o.Name, cut(strings.TrimSpace(t.Text), AnalysisExcerpt))
		}
	}
	shared.WriteString("\n")
	shared.WriteString(history(v, 2*((r-2)/2)))

	// This agent's part, last: who it is, the round, its previous position,
	// the task.
	var b strings.Builder
	b.WriteString(role(a))
	fmt.Fprintf(&b, "Your Phase 1 analysis is the %s Agent's above.\n", a.Name)
	fmt.Fprintf(&b, "Round: %d of at most %d\n", r, p.opts.MaxRounds)
	if prev, pr := p.previousPosition(s, a, r); prev != "" {
		fmt.Fprintf(&b, "Your position in round %d was %s. If you change it, persuaded_by must say who persuaded you and with which argument.\n", pr, prev)
	}
	b.WriteString("\nChallenge the weakest opposing argument above, then give your position as the JSON object.\n")
	hints, ids := hintsFor(s, a.ID)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: turnID(r, a), Agent: a.ID, Role: roleAnalyst, Label: a.Name + " · debate", Phase: "debate", Round: r},
		System:  p.system(),
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: shared.String(), Cache: true},
			{Role: llm.RoleUser, Text: b.String()},
		},
		Schema: positionSchema(),
		Hints:  ids,
	}
}

func hintsFor(s *debate.State, agent string) (string, []int) {
	return s.HintPrompt(agent, "\nGuidance from the human for you:\n", "- %s\n")
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
