package perspectives

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

const moderatorSystem = `You are the moderator of a structured debate run by Parley. Debaters argue assigned perspectives
(viewpoints, not personas) on a decision. You analyse the question, assign perspectives, evaluate each round
honestly (are arguments converging, stagnating, or is new ground appearing?), keep the debate on the original
question, and write a balanced synthesis that surfaces the strongest counterarguments. Never take a side before the
evidence of the debate supports it. When asked for JSON, reply with the JSON object only.`

const debaterSystem = `You are a debater in a structured debate run by Parley. You argue from the perspective you are
assigned: its priorities and the trade-offs it accepts. Argue concretely for this decision (mechanisms, numbers,
failure modes, costs), engage the other perspectives' strongest points rather than their weakest, concede what is
true, and stay on the question asked. Do not pretend to be a person; do not repeat your earlier arguments: add new
ground or sharpen it. Keep it under 300 words.`

// analysisTurn asks the moderator to analyse the prompt and assign perspectives.
func (p *Protocol) analysisTurn(s *debate.State, id, clarification string) debate.TurnSpec {
	var b strings.Builder
	fmt.Fprintf(&b, "Question to debate:\n%s\n\n", p.topic)
	if clarification != "" {
		fmt.Fprintf(&b, "You asked for a clarification; the human answered:\n%s\n\n", clarification)
	}
	b.WriteString("Perspective catalog (choose only from these names):\n")
	for _, c := range p.opts.Catalog {
		fmt.Fprintf(&b, "- %s: priorities %s; %s", c.Name, strings.Join(c.Priorities, ", "), c.TradeOffs)
		if len(c.Tensions) > 0 {
			fmt.Fprintf(&b, "; argues against: %s", strings.Join(c.Tensions, ", "))
		}
		b.WriteString("\n")
	}
	if sug := p.opts.Catalog.Suggest(p.topic); len(sug) > 0 {
		fmt.Fprintf(&b, "\nKeyword match suggests: %s\n", strings.Join(sug, ", "))
	}
	b.WriteString(`
Analyse the question:
- domain: the decision domain (architecture, data, security, UX, process, business, ...)
- constraints: implicit constraints in the wording (for example "we need to ship fast" weighs simplicity)
- binary: true when it is a choice between two options
- perspectives: `)
	if p.opts.Perspectives > 0 {
		fmt.Fprintf(&b, "exactly %d names from the catalog", p.opts.Perspectives)
	} else {
		b.WriteString("2 names for a binary choice, 3 or 4 for a multi-faceted question")
	}
	b.WriteString(`, at least one pair of which argue against each other (never a set that all agree)
- rationale: why these perspectives
- clarifying_question: `)
	if p.opts.Checkpoints && clarification == "" {
		b.WriteString("if the question is too vague to debate usefully, ask ONE question here and leave perspectives empty; otherwise empty")
	} else {
		b.WriteString("always empty (no human can answer now: state your assumptions in constraints instead)")
	}
	b.WriteString("\nReply with the JSON object only.")
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agentModerator, Role: roleModerator, Label: "Moderator · analysis", Phase: "analysis"},
		System:  moderatorSystem, Messages: []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		Schema: analysisSchema(), Unbudgeted: true,
	}
}

// context renders what every debater of a round shares: the question, the
// constraints, guidance and the debate so far. It is the cached prefix.
func (p *Protocol) context(s *debate.State, v *view, upToRound int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Question\n%s\n", p.topic)
	if v.analysis.Domain != "" {
		fmt.Fprintf(&b, "\nDomain: %s\n", v.analysis.Domain)
	}
	if len(v.analysis.Constraints) > 0 {
		fmt.Fprintf(&b, "Constraints: %s\n", strings.Join(v.analysis.Constraints, "; "))
	}
	if v.clarified != "" {
		fmt.Fprintf(&b, "Clarification from the human: %s\n", v.clarified)
	}
	b.WriteString("\n# Perspectives in this debate\n")
	for _, d := range v.debaters {
		fmt.Fprintf(&b, "- %s: priorities %s; %s\n", d.Name, strings.Join(d.Priorities, ", "), d.TradeOffs)
	}
	for _, rv := range v.rounds {
		if rv.n >= upToRound {
			break
		}
		fmt.Fprintf(&b, "\n# Round %d\n", rv.n)
		for _, t := range rv.arguments {
			fmt.Fprintf(&b, "\n## %s (argument)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
		}
		for _, t := range rv.rebuttals {
			fmt.Fprintf(&b, "\n## %s (rebuttal)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
		}
		if rv.evaluation != nil {
			fmt.Fprintf(&b, "\n## Moderator summary\n%s\n", rv.evaluation.Summary)
		}
		if cp := s.Checkpoint(checkpointID(rv.n)); cp != nil && cp.Answer != nil && cp.Answer.Guidance != "" {
			fmt.Fprintf(&b, "\n## Human guidance\n%s\n", cp.Answer.Guidance)
		}
	}
	return b.String()
}

func (p *Protocol) hintsFor(s *debate.State, agent string) (string, []int) {
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

func (p *Protocol) argumentTurn(s *debate.State, v *view, r int, d Perspective) debate.TurnSpec {
	var task strings.Builder
	fmt.Fprintf(&task, "You argue as %q. Priorities: %s. Trade-offs you advocate: %s.\n\n", d.Name, strings.Join(d.Priorities, ", "), d.TradeOffs)
	if r == 1 {
		task.WriteString("Round 1: give your opening argument on the question.\n")
	} else {
		fmt.Fprintf(&task, "Round %d: build on the debate so far. Answer the moderator's summary, add new ground, do not repeat yourself.\n", r)
	}
	for _, n := range s.Notes {
		var nd noteData
		if n.Kind == noteRedirect && json.Unmarshal(n.Data, &nd) == nil && nd.Perspective == d.Name && nd.Round == r-1 {
			task.WriteString("\nThe moderator redirects you: your last argument drifted from the question. Argue the question itself; a second drift mutes you.\n")
		}
	}
	hints, ids := p.hintsFor(s, d.Slug())
	task.WriteString(hints)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: argID(r, d), Agent: d.Slug(), Role: roleDebater, Label: d.Name + " · argument", Phase: "argument", Round: r},
		System:  debaterSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: p.context(s, v, r), Cache: true},
			{Role: llm.RoleUser, Text: task.String()},
		},
		Hints: ids,
	}
}

func (p *Protocol) rebuttalTurn(s *debate.State, v *view, r int, d Perspective, active []Perspective) debate.TurnSpec {
	var cur strings.Builder
	fmt.Fprintf(&cur, "# Round %d arguments\n", r)
	for _, o := range active {
		if t := s.Completed(argID(r, o)); t != nil {
			fmt.Fprintf(&cur, "\n## %s\n%s\n", o.Name, strings.TrimSpace(t.Text))
		}
	}
	for _, o := range active {
		if o.Name == d.Name {
			break
		}
		if t := s.Completed(rebID(r, o)); t != nil {
			fmt.Fprintf(&cur, "\n## %s (rebuttal)\n%s\n", o.Name, strings.TrimSpace(t.Text))
		}
	}
	var task strings.Builder
	fmt.Fprintf(&task, "You argue as %q. Priorities: %s. Trade-offs you advocate: %s.\n\n", d.Name, strings.Join(d.Priorities, ", "), d.TradeOffs)
	task.WriteString("Rebut: respond to the other perspectives' points above by name. Concede what is right, contest what is not, and say what would change your mind.\n")
	hints, ids := p.hintsFor(s, d.Slug())
	task.WriteString(hints)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: rebID(r, d), Agent: d.Slug(), Role: roleDebater, Label: d.Name + " · rebuttal", Phase: "rebuttal", Round: r},
		System:  debaterSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: p.context(s, v, r), Cache: true},
			{Role: llm.RoleUser, Text: cur.String() + "\n" + task.String()},
		},
		Hints: ids,
	}
}

func (p *Protocol) evaluationTurn(s *debate.State, v *view, r int, active []Perspective, rv roundView) debate.TurnSpec {
	var b strings.Builder
	fmt.Fprintf(&b, "# Round %d\n", r)
	for _, t := range rv.arguments {
		fmt.Fprintf(&b, "\n## %s (argument)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
	}
	for _, t := range rv.rebuttals {
		fmt.Fprintf(&b, "\n## %s (rebuttal)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
	}
	if len(rv.repetition) > 0 {
		b.WriteString("\nRepetition measured by Parley (share of the argument repeating the same debater's previous round):\n")
		for _, d := range active {
			if share, ok := rv.repetition[d.Name]; ok {
				fmt.Fprintf(&b, "- %s: %.0f%%\n", d.Name, share*100)
			}
		}
	}
	fmt.Fprintf(&b, "\nThis is round %d of at most %d. Evaluate it:\n", r, p.opts.MaxRounds)
	b.WriteString(`- summary: what moved this round, for the debaters and the human (3-5 sentences)
- agreement: debaters acknowledge each other's points and their recommendations align
- stagnation: the same arguments repeat with no new information
- clear_winner: the name of a perspective that dominates while others concede key points, or empty
- new_points: new arguments emerged this round
- decision: "conclude" on agreement, stagnation or a clear winner; otherwise "continue"
- reason: why
- off_topic: names of perspectives whose argument left the original question (tangents), else empty
Reply with the JSON object only.`)
	hints, ids := p.hintsFor(s, agentModerator)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: evalID(r), Agent: agentModerator, Role: roleModerator, Label: "Moderator · evaluation", Phase: "evaluation", Round: r},
		System:  moderatorSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: p.context(s, v, r), Cache: true},
			{Role: llm.RoleUser, Text: b.String()},
		},
		Schema: evaluationSchema(), Hints: ids, Unbudgeted: true,
	}
}

func (p *Protocol) synthesisTurn(s *debate.State, v *view) debate.TurnSpec {
	var b strings.Builder
	fmt.Fprintf(&b, "The debate ended: %s.\n\n", v.endReason)
	b.WriteString(`Write the synthesis:
- perspectives: for each perspective in the debate, its key arguments and the trade-offs it accepted
- agreement: points all perspectives agreed on
- tensions: remaining tensions, naming the perspectives in tension, and what is unresolved
- recommendation: your synthesised recommendation, the strongest counterargument to it, and why it does not prevail
- confidence: High, Medium or Low`)
	if v.lowConfForce {
		b.WriteString(" (the debate did not converge: confidence must be Low)")
	}
	b.WriteString(`
- caveats: conditions that would change this recommendation
- dissent: perspectives that strongly disagree with the recommendation, with their view (empty if none)
Reply with the JSON object only.`)
	last := len(v.rounds) + 1
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: idSynthesis, Agent: agentModerator, Role: roleModerator, Label: "Moderator · synthesis", Phase: "synthesis"},
		System:  moderatorSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: p.context(s, v, last), Cache: true},
			{Role: llm.RoleUser, Text: b.String()},
		},
		Schema: synthesisSchema(), Unbudgeted: true,
	}
}

// Repetition is the share of an argument's word trigrams that also appear in
// a previous argument: 1 means every phrase was said before.
func Repetition(cur, prev string) float64 {
	a, b := shingles(cur), shingles(prev)
	if len(a) == 0 {
		return 0
	}
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

func shingles(text string) map[string]bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	out := map[string]bool{}
	for i := 0; i+3 <= len(words); i++ {
		out[words[i]+" "+words[i+1]+" "+words[i+2]] = true
	}
	return out
}

// nameOf returns the perspective name for an agent id (its slug), the way the
// debaters address each other.
func (p *Protocol) nameOf(agent string) string {
	if d, ok := p.opts.Catalog.Find(agent); ok {
		return d.Name
	}
	return agent
}
