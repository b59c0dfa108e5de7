package formal

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

const rulesText = `Rules of the dialogue (Prakken's persuasion protocol). Every move is one speech act and must reply to an
open move of the other side, named by its id in replies_to:

| act | meaning | replies to | valid responses |
| claim φ | assert φ | PRO's opening: nothing; otherwise a statement of the other side (a counter-claim ¬φ), or a since move (an undercut: its premises do not support its conclusion) | why φ, claim ¬φ, concede φ |
| why φ | challenge: ask for reasons | a statement of the other side still in its commitment store (a claim, or a premise such as P2.1) | φ since S, retract φ |
| concede φ | admit φ | a statement of the other side | none |
| retract φ | withdraw your commitment to φ | your own statement, or the other side's why or counter-claim against it | none |
| φ since S | give reasons S for φ | a why on your statement φ, or a counter-claim against φ (a defence) | why ψ, concede ψ (ψ ∈ S), or an undercut |

Effect rules on commitment stores: claim φ adds φ; why changes nothing; concede φ adds φ; retract φ removes φ;
φ since S adds φ and S. Each premise of a since move becomes a statement of its own (P2.1, P2.2, ...).

Important rules:
1. Steel-man, not straw-man: argue the strongest version of your position.
2. Evidence required: an unsupported claim is challenged with why; give evidence (cite the shared context).
3. Honest concessions: if you cannot defend a statement, retract it. Never hold an indefensible position.
4. Protocol adherence: an illegal move is refused with the reason; a second illegal reply forfeits the turn.
5. Undercutting over rebutting: prefer showing why the reasoning is broken (a claim replying to a since move)
   over merely asserting the opposite.
6. No ad hominem: attack arguments, not agents.`

// system is the one system prompt of every request of a formal debate: the
// three parties, their personas and biases, and the rules. Which party a
// request is for is said in its last message (roleFor), so that PRO's, OPP's
// and MOD's requests share a prefix (system, background, dialogue) that a
// provider's prompt cache serves; one system prompt per party shared none.
func (p *Protocol) system() string {
	var b strings.Builder
	b.WriteString("You take part in a formal debate run by Parley, as one of three parties; the last message says which:\n")
	for _, role := range []string{PRO, OPP, MOD} {
		pe := personaOf(role)
		what := map[string]string{PRO: "the proponent: argues FOR the proposition", OPP: "the opponent: argues AGAINST the proposition",
			MOD: "the moderator and neutral judge"}[role]
		fmt.Fprintf(&b, "- %s, %s. Persona: %s. Bias (stated openly; the moderator accounts for it): %s.\n", role, what, pe.Persona, pe.Bias)
	}
	b.WriteString("\n" + rulesText + "\n\nReply with the JSON object only.")
	return b.String()
}

// roleFor opens the last message of a request: who answers it, and the
// user's focus when it is on this party.
func (p *Protocol) roleFor(role string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# You are %s\n", role)
	switch {
	case p.opts.Focus == role && role == MOD:
		b.WriteString("The user asked to focus on your viewpoint: judge in the greatest depth, and say how the trade-offs look to a neutral senior engineer.\n")
	case p.opts.Focus == role:
		b.WriteString("The user asked to focus on your viewpoint: argue it in the greatest depth the protocol allows.\n")
	}
	return b.String()
}

// messages lays a request out stable first: the background, the dialogue so
// far (it only grows at its end), then the volatile part.
func (p *Protocol) messages(d *dialogue, last string) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleUser, Text: p.background(), Cache: true},
		{Role: llm.RoleUser, Text: "# Dialogue so far\n" + transcript(d), Cache: true},
		{Role: llm.RoleUser, Text: last},
	}
}

// background is what every turn shares: the proposition, the participants
// and the shared context K. It is the cached prefix.
func (p *Protocol) background() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Proposition\n%s\n\n# Participants\n", p.topic)
	for _, pe := range personas {
		fmt.Fprintf(&b, "- %s (%s): %s. Bias: %s.\n", pe.Role, pe.Title, pe.Persona, pe.Bias)
	}
	if p.opts.Focus != "" {
		fmt.Fprintf(&b, "\nThe user asked to focus on the %s viewpoint.\n", p.opts.Focus)
	}
	b.WriteString("\n# Shared context K (common knowledge for both sides)\n")
	if p.opts.Context.Digest != "" {
		b.WriteString(p.opts.Context.Digest)
		b.WriteString("\n")
	} else {
		for _, f := range p.opts.Context.Facts {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		if len(p.opts.Context.Facts) == 0 {
			b.WriteString("- No context was gathered: argue from general engineering knowledge and say where evidence is missing.\n")
		}
	}
	return b.String()
}

// transcript renders the dialogue so far with ids, for prompts.
func transcript(d *dialogue) string {
	if len(d.moves) == 0 {
		return "(no moves yet)\n"
	}
	var b strings.Builder
	for _, m := range d.moves {
		b.WriteString(moveLine(d, m))
		if m.Explanation != "" {
			fmt.Fprintf(&b, "    %s\n", short(m.Explanation, 600))
		}
	}
	return b.String()
}

// moveLine is one move in the spec's notation.
func moveLine(d *dialogue, m *Move) string {
	re := ""
	if m.RepliesTo != "" {
		re = " (replies to " + m.RepliesTo + ")"
	}
	switch m.Act {
	case ActClaim:
		kind := ""
		switch {
		case m.Inference:
			kind = " — undercuts the inference of " + m.RepliesTo
		case m.Target != "":
			kind = " — counter-claim against " + m.Target
		}
		return fmt.Sprintf("[%s] %s claim %q%s%s\n", m.ID, m.Party, m.Statement, re, kind)
	case ActSince:
		var ps []string
		for _, p := range m.Premises {
			ps = append(ps, fmt.Sprintf("%s %q", p.ID, p.Text))
		}
		return fmt.Sprintf("[%s] %s %s since {%s}%s\n", m.ID, m.Party, m.Target, strings.Join(ps, ", "), re)
	default:
		return fmt.Sprintf("[%s] %s %s %s %q%s\n", m.ID, m.Party, m.Act, m.Target, short(m.Statement, 120), re)
	}
}

// stores renders the commitment stores.
func stores(d *dialogue) string {
	var b strings.Builder
	for _, party := range []string{PRO, OPP} {
		fmt.Fprintf(&b, "C_%s = {%s}", party, strings.Join(d.commits[party], ", "))
		if r := d.retract[party]; len(r) > 0 {
			fmt.Fprintf(&b, "; retracted {%s}", strings.Join(r, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// openFor lists what party may reply to now, with the legal acts; in the
// closing only concessions and retractions are open.
func openFor(d *dialogue, party string, st stage) string {
	var b strings.Builder
	opp := other(party)
	closing := st == stageClosing
	for _, m := range d.unanswered(party) {
		if closing {
			fmt.Fprintf(&b, "- %s: %s asks why %s, unanswered — `retract` %s (replies_to %s) if you cannot defend it\n", m.ID, opp, m.Target, m.Target, m.ID)
			continue
		}
		fmt.Fprintf(&b, "- %s: %s asks why %s — answer with `since` (replies_to %s) or `retract`\n", m.ID, opp, m.Target, m.ID)
	}
	attacks := map[string]*Move{}
	for _, m := range d.attacksOn(party) {
		attacks[m.ID] = m
	}
	for _, id := range d.order {
		s := d.stmts[id]
		if s.Party != opp || s.Retracted || d.conceded(party, id) {
			continue
		}
		acts := "claim (counter-claim), concede"
		switch {
		case closing:
			acts = "concede"
		case !d.challenged(party, id):
			acts = "why, " + acts
		}
		what := "statement"
		if s.Conclusion != "" {
			what = "premise of " + s.Move
		}
		fmt.Fprintf(&b, "- %s: %s's %s %q — %s", id, opp, what, short(s.Text, 100), acts)
		if m := attacks[id]; m != nil {
			if closing {
				fmt.Fprintf(&b, "; it attacks your %s: `retract` %s if you cannot defend it", m.Target, m.Target)
			} else {
				fmt.Fprintf(&b, "; it attacks your %s: defend %s with `since` (replies_to %s), or `retract` %s", m.Target, m.Target, id, m.Target)
			}
		}
		b.WriteString("\n")
	}
	for _, m := range d.moves {
		if !closing && m.Act == ActSince && m.Party == opp && !d.stmts[m.Target].Retracted {
			fmt.Fprintf(&b, "- %s: %s's inference %s since {%s} — claim (undercut: the premises do not support %s)\n", m.ID, opp, m.Target, strings.Join(premiseIDs(m), ", "), m.Target)
		}
	}
	if own := d.commits[party]; len(own) > 0 {
		fmt.Fprintf(&b, "- your commitments {%s} — retract any you can no longer defend\n", strings.Join(own, ", "))
	}
	if b.Len() == 0 {
		return "(nothing is open)\n"
	}
	return b.String()
}

func premiseIDs(m *Move) []string {
	out := make([]string, len(m.Premises))
	for i, p := range m.Premises {
		out[i] = p.ID
	}
	return out
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

// debaterTurn asks a debater for the moves of one turn.
func (p *Protocol) debaterTurn(s *debate.State, v *view, sl slot) debate.TurnSpec {
	d := v.d
	var task strings.Builder
	task.WriteString(p.roleFor(sl.party))
	fmt.Fprintf(&task, "# Commitment stores\n%s\n# Open moves you may reply to\n%s\n", stores(d), openFor(d, sl.party, sl.stage))
	limit := p.maxMoves(sl.party)
	switch {
	case sl.stage == stageOpening && sl.party == PRO:
		task.WriteString(`# Your turn: Round 0, opening
Make exactly one move: claim φ, the proposition as you defend it (replies_to ""), with your strongest evidence in the explanation.`)
	case sl.stage == stageOpening:
		fmt.Fprintf(&task, `# Your turn: Round 0, opening
Make exactly one move replying to %s: claim ¬φ (your counter-position) or why φ (demand PRO's reasons).`, d.firstClaim(PRO))
	case sl.stage == stageArgument:
		fmt.Fprintf(&task, `# Your turn: Round %d of %d, argumentation
Make 1 to %d moves, each a legal reply to an open move above. %s`, sl.round, p.opts.Rounds, limit, map[string]string{
			PRO: "Give reasons (since) for challenged statements, defend or concede, and challenge OPP's weakest statements.",
			OPP: "Attack PRO's premises and inferences (prefer undercuts), challenge unsupported statements with why, or concede what is true.",
		}[sl.party])
	default:
		fmt.Fprintf(&task, `# Your turn: Closing
Give your final position in final_statement (what you still hold, what you concede, and why). You may also make up to %d
moves, only concede or retract: record any retraction of a statement you can no longer defend.`, limit)
	}
	task.WriteString(`
JSON: {"moves": [{"act": "...", "replies_to": "...", "statement": "...", "premises": [...], "explanation": "..."}], "final_statement": "..."}
Leave statement empty except for claim, premises empty except for since, final_statement empty except in the closing.`)
	hints, ids := p.hintsFor(s, agentOf(sl.party))
	task.WriteString(hints)
	label := sl.party + " · " + map[stage]string{stageOpening: "opening", stageArgument: "argument", stageClosing: "closing"}[sl.stage]
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: sl.id, Agent: agentOf(sl.party), Role: RoleDebater, Label: label,
			Phase: map[stage]string{stageOpening: "opening", stageArgument: "argumentation", stageClosing: "closing"}[sl.stage], Round: sl.round},
		System:   p.system(),
		Messages: p.messages(d, task.String()),
		Schema:   turnSchema(), Hints: ids,
	}
}

// classifyTurn asks the moderator to classify the counter-claims whose
// relation the moves leave open, and to reject arguments that break the
// rules (straw man, ad hominem, irrelevant).
func (p *Protocol) classifyTurn(s *debate.State, v *view, open []*Move) debate.TurnSpec {
	d := v.d
	var b strings.Builder
	b.WriteString(p.roleFor(MOD))
	b.WriteString("# Counter-claims to classify\n")
	if len(open) == 0 {
		b.WriteString("(none: the moves settle every relation; relations is [])\n")
	}
	for _, m := range open {
		t := d.stmts[m.Target]
		fmt.Fprintf(&b, "- %s (%s): %q replies to %s (%s: %q)", m.ID, m.Party, m.Statement, t.ID, t.Party, t.Text)
		if t.Conclusion != "" {
			fmt.Fprintf(&b, ", a premise supporting %s %q", t.Conclusion, d.stmts[t.Conclusion].Text)
		}
		b.WriteString("\n")
	}
	b.WriteString(`
For each counter-claim, classify its attack (Pollock):
- rebut: it contradicts the statement it answers (claims the opposite).
- undercut: it grants the statement may be true but breaks the inferential link: the statement does not support
  its conclusion, or the reasoning behind the statement is broken.
- none: it does not bear on the statement at all.
Judge argument content, not rhetoric; every id once.

Then review every statement (claims and premises, by id): reject, in "rejected", those that break the debate's
rules: a straw man (it misstates the other side), an ad hominem (it attacks the agent, not the argument) or an
argument irrelevant to the proposition. A rejected argument keeps no intrinsic strength. Do not reject an argument
for being wrong or weak: the attacks on it decide that. Never reject the proposition itself. Usually "rejected" is [].
JSON: {"relations": [{"move": "O3", "kind": "rebut", "reason": "..."}], "rejected": [{"id": "P2.1", "reason": "..."}]}`)
	hints, ids := p.hintsFor(s, agentModerator)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: idClassify, Agent: agentModerator, Role: agentModerator, Label: "MOD · framework review", Phase: "framework"},
		System:   p.system(),
		Messages: p.messages(d, b.String()),
		Schema:   turnSchema(), Hints: ids, Unbudgeted: true,
	}
}

// verdictTurn asks the moderator for the judgment around the computed scores.
func (p *Protocol) verdictTurn(s *debate.State, v *view, fw *framework) debate.TurnSpec {
	d := v.d
	var b strings.Builder
	b.WriteString(p.roleFor(MOD))
	fmt.Fprintf(&b, "# Final commitment stores\n%s\n", stores(d))
	b.WriteString("# Argumentation framework (scored by Parley: " + ruleText + ")\n")
	for _, id := range d.order {
		a := fw.argOf[id]
		st := d.stmts[id]
		ret := ""
		if st.Retracted {
			ret = " (retracted)"
		}
		if why, ok := v.rejected[id]; ok {
			ret += " (rejected by you: " + why + ")"
		}
		fmt.Fprintf(&b, "- %s [%s, %s] %.2f%s: %s\n", a, st.Party, id, fw.scores.Scores[a], ret, st.Text)
	}
	for _, r := range fw.rels {
		fmt.Fprintf(&b, "- %s --%s--> %s\n", r.From, r.Kind, r.To)
	}
	pro, opp := fw.sides["PRO"], fw.sides["OPP"]
	winner := decide(pro, opp, fw.scores.Scores[fw.argOf[d.firstClaim(PRO)]], fw.scores.Scores[fw.argOf[d.firstClaim(OPP)]])
	decided := "by the scores"
	if w, why := d.settled(); w != "" {
		winner, decided = w, "because "+why
	}
	fmt.Fprintf(&b, "\nRule: %s.\nSide scores: PRO %.2f (%d of %d surviving), OPP %.2f (%d of %d surviving). Winner %s: %s.\n",
		WinnerRule, pro.Mean, pro.Surviving, pro.Arguments, opp.Mean, opp.Surviving, opp.Arguments, decided, winner)
	if un := append(d.unanswered(PRO), d.unanswered(OPP)...); len(un) > 0 {
		b.WriteString("Unanswered challenges: ")
		for i, m := range un {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s (why %s)", m.ID, fw.argOf[m.Target])
		}
		b.WriteString("\n")
	}
	b.WriteString(`
Render the judgment. The winner follows from the scores above; explain it:
- rationale: why the winning side's arguments were stronger, citing argument ids (A1, A2, ...); which arguments
  survived (score > 0.5); whether concessions weakened either side
- valid_points: valid points of the losing side, by argument id
- consensus: a practical recommendation incorporating the best of both sides
- revisit: conditions under which the verdict should be revisited
- unaddressed: critical questions nobody answered
- biases: how each side's stated bias shows and how you accounted for it`)
	if p.opts.Focus != "" {
		fmt.Fprintf(&b, "\n- focus: the debate and the verdict seen from the %s viewpoint the user focused on", p.opts.Focus)
	} else {
		b.WriteString("\n- focus: empty")
	}
	hints, ids := p.hintsFor(s, agentModerator)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: idVerdict, Agent: agentModerator, Role: agentModerator, Label: "MOD · verdict", Phase: "verdict"},
		System:   p.system(),
		Messages: p.messages(d, b.String()),
		Schema:   turnSchema(), Hints: ids, Unbudgeted: true,
	}
}
