package perspectives

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// system is the one system prompt of every request in a debate. Debaters and
// the moderator differ only in the last message (their role and task), so
// that every request starts with the same system prompt and shared context:
// the prefix a provider's prompt cache serves, whoever speaks next.
const system = `You take part in a structured debate run by Parley on a decision. Debaters argue assigned perspectives
(viewpoints, not personas); a moderator analyses the question, evaluates each round and writes the synthesis.
The last message gives your role and your task. When asked for JSON, reply with the JSON object only.`

// moderatorRole opens every moderator task.
const moderatorRole = `Your role: the moderator. You analyse the question, assign perspectives, evaluate each round honestly (are
arguments converging, stagnating, or is new ground appearing?), keep the debate on the original question, and write
a balanced synthesis that surfaces the strongest counterarguments. Never take a side before the evidence of the
debate supports it.

`

// debaterRole opens every debater task.
const debaterRole = `Your role: a debater. You argue from the perspective you are assigned: its priorities and the trade-offs it
accepts. Argue concretely for this decision (mechanisms, numbers, failure modes, costs), engage the other
perspectives' strongest points rather than their weakest, concede what is true, and stay on the question asked.
Do not pretend to be a person; do not repeat your earlier arguments: add new ground or sharpen it. Keep it under
300 words.

`

// analysisTurn asks the moderator to analyse the prompt and assign perspectives.
func (p *Protocol) analysisTurn(s *debate.State, id, clarification string) debate.TurnSpec {
	var b strings.Builder
	b.WriteString(moderatorRole)
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
		System:  system, Messages: []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		Schema: analysisSchema(), Unbudgeted: true,
	}
}

// context renders what every debater of a round shares: the question, the
// constraints, guidance and the debate so far, as messages that end with the
// cached prefix.
//
// Older rounds are given only as the moderator's summary and the points
// still contested (with the human's guidance); the latest one or two rounds
// in full. Sending every round in full made each prompt grow with the whole
// transcript (188k input tokens over 8 rounds of three perspectives); this
// way a prompt grows by one summary per round. Rounds are summarised two at
// a time, so that every other round's context is the previous round's
// evaluation request plus that round's moderator summary: a provider's
// prompt cache serves it. A round whose evaluation is missing stays in full,
// since nothing summarises it.
func (p *Protocol) context(s *debate.State, v *view, upToRound int) []llm.Message {
	var head strings.Builder
	fmt.Fprintf(&head, "# Question\n%s\n", p.topic)
	if v.analysis.Domain != "" {
		fmt.Fprintf(&head, "\nDomain: %s\n", v.analysis.Domain)
	}
	if len(v.analysis.Constraints) > 0 {
		fmt.Fprintf(&head, "Constraints: %s\n", strings.Join(v.analysis.Constraints, "; "))
	}
	if v.clarified != "" {
		fmt.Fprintf(&head, "Clarification from the human: %s\n", v.clarified)
	}
	head.WriteString("\n# Perspectives in this debate\n")
	for _, d := range v.debaters {
		fmt.Fprintf(&head, "- %s: priorities %s; %s\n", d.Name, strings.Join(d.Priorities, ", "), d.TradeOffs)
	}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: head.String()}}
	lastSummary := true // the last message takes summaries (the head does)
	summarised := 2 * ((upToRound - 2) / 2)
	for _, rv := range v.rounds {
		if rv.n >= upToRound {
			break
		}
		if rv.n <= summarised && rv.evaluation != nil && rv.evalTurn != nil && rv.evalTurn.Invalid == "" {
			var b strings.Builder
			fmt.Fprintf(&b, "\n# Round %d (the moderator's summary)\n%s\n", rv.n, strings.TrimSpace(rv.evaluation.Summary))
			writeOpenPoints(&b, rv.evaluation)
			p.writeGuidance(&b, s, rv.n)
			if lastSummary {
				msgs[len(msgs)-1].Text += b.String()
			} else {
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: strings.TrimPrefix(b.String(), "\n")})
				lastSummary = true
			}
			continue
		}
		var b strings.Builder
		b.WriteString(p.roundText(rv))
		if rv.evaluation != nil {
			fmt.Fprintf(&b, "\n## Moderator summary\n%s\n", strings.TrimSpace(rv.evaluation.Summary))
			writeOpenPoints(&b, rv.evaluation)
		}
		p.writeGuidance(&b, s, rv.n)
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: b.String()})
		lastSummary = false
	}
	msgs[len(msgs)-1].Cache = true
	return msgs
}

// roundText renders a round's arguments and rebuttals so far. Rebuttal and
// evaluation requests and the next rounds' contexts all render a round with
// it, so that what one request sent is a prefix the next can share.
func (p *Protocol) roundText(rv roundView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Round %d\n", rv.n)
	for _, t := range rv.arguments {
		fmt.Fprintf(&b, "\n## %s (argument)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
	}
	for _, t := range rv.rebuttals {
		fmt.Fprintf(&b, "\n## %s (rebuttal)\n%s\n", p.nameOf(t.Agent), strings.TrimSpace(t.Text))
	}
	return b.String()
}

func writeOpenPoints(b *strings.Builder, e *Evaluation) {
	if len(e.OpenPoints) == 0 {
		return
	}
	b.WriteString("\nStill contested after this round:\n")
	for _, pt := range e.OpenPoints {
		fmt.Fprintf(b, "- %s\n", strings.TrimSpace(pt))
	}
}

func (p *Protocol) writeGuidance(b *strings.Builder, s *debate.State, round int) {
	if cp := s.Checkpoint(checkpointID(round)); cp != nil && cp.Answer != nil && cp.Answer.Guidance != "" {
		fmt.Fprintf(b, "\n## Human guidance\n%s\n", cp.Answer.Guidance)
	}
}

func (p *Protocol) hintsFor(s *debate.State, agent string) (string, []int) {
	return s.HintPrompt(agent, "\nGuidance from the human for you:\n", "- %s\n")
}

func (p *Protocol) argumentTurn(s *debate.State, v *view, r int, d Perspective) debate.TurnSpec {
	var task strings.Builder
	task.WriteString(debaterRole)
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
		TurnRef:  debate.TurnRef{ID: argID(r, d), Agent: d.Slug(), Role: roleDebater, Label: d.Name + " · argument", Phase: "argument", Round: r},
		System:   system,
		Messages: append(p.context(s, v, r), llm.Message{Role: llm.RoleUser, Text: task.String()}),
		Hints:    ids,
	}
}

func (p *Protocol) rebuttalTurn(s *debate.State, v *view, r int, d Perspective, active []Perspective) debate.TurnSpec {
	// The round so far: every argument and the rebuttals before this one
	// (derive has the round in progress last in v.rounds).
	cur := roundView{n: r}
	if n := len(v.rounds); n > 0 && v.rounds[n-1].n == r {
		cur = v.rounds[n-1]
	}
	var task strings.Builder
	task.WriteString(debaterRole)
	fmt.Fprintf(&task, "You argue as %q. Priorities: %s. Trade-offs you advocate: %s.\n\n", d.Name, strings.Join(d.Priorities, ", "), d.TradeOffs)
	task.WriteString("Rebut: respond to the other perspectives' points above by name. Concede what is right, contest what is not, and say what would change your mind.\n")
	hints, ids := p.hintsFor(s, d.Slug())
	task.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: rebID(r, d), Agent: d.Slug(), Role: roleDebater, Label: d.Name + " · rebuttal", Phase: "rebuttal", Round: r},
		System:   system,
		Messages: append(p.context(s, v, r), llm.Message{Role: llm.RoleUser, Text: p.roundText(cur) + "\n" + task.String()}),
		Hints:    ids,
	}
}

func (p *Protocol) evaluationTurn(s *debate.State, v *view, r int, active []Perspective, rv roundView) debate.TurnSpec {
	var b strings.Builder
	b.WriteString(p.roundText(rv))
	if len(rv.repetition) > 0 {
		b.WriteString("\nRepetition measured by Parley (share of the argument repeating the same debater's previous round):\n")
		for _, d := range active {
			if share, ok := rv.repetition[d.Name]; ok {
				fmt.Fprintf(&b, "- %s: %.0f%%\n", d.Name, share*100)
			}
		}
	}
	b.WriteString("\n" + moderatorRole)
	fmt.Fprintf(&b, "This is round %d of at most %d. Evaluate it:\n", r, p.opts.MaxRounds)
	b.WriteString(`- summary: what moved this round, for the debaters and the human (3-5 sentences)
- agreement: debaters acknowledge each other's points and their recommendations align
- stagnation: the same arguments repeat with no new information
- clear_winner: the name of a perspective that dominates while others concede key points, or empty
- new_points: new arguments emerged this round
- decision: "conclude" on agreement, stagnation or a clear winner; otherwise "continue"
- reason: why
- off_topic: names of perspectives whose argument left the original question (tangents), else empty
- open_points: every claim still contested after this round, one line each naming who holds it and who disputes it
  (later rounds see this round only through your summary and these points, so leave none out)
Reply with the JSON object only.`)
	hints, ids := p.hintsFor(s, agentModerator)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: evalID(r), Agent: agentModerator, Role: roleModerator, Label: "Moderator · evaluation", Phase: "evaluation", Round: r,
			// JSON, though asked for without a schema: views describe it
			// (Format.Describe) rather than stream the raw object.
			Structured: true},
		System:   system,
		Messages: append(p.context(s, v, r), llm.Message{Role: llm.RoleUser, Text: b.String()}),
		// No structured-output schema: a schema comes before the system
		// prompt, so a request with one shares no cached prefix with the
		// debaters' requests, whose context (and this round's text, rendered
		// alike) it repeats. The task lists the fields; Parse checks them and
		// a malformed reply gets a repair turn.
		Hints: ids, Unbudgeted: true,
	}
}

func (p *Protocol) synthesisTurn(s *debate.State, v *view) debate.TurnSpec {
	var b strings.Builder
	b.WriteString(moderatorRole)
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
		TurnRef:  debate.TurnRef{ID: idSynthesis, Agent: agentModerator, Role: roleModerator, Label: "Moderator · synthesis", Phase: "synthesis"},
		System:   system,
		Messages: append(p.context(s, v, last), llm.Message{Role: llm.RoleUser, Text: b.String()}),
		Schema:   synthesisSchema(), Unbudgeted: true,
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
