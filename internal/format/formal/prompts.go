package formal

import (
	"fmt"
	"slices"
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
	// How a debater's reply is laid out is the same for every debater turn:
	// here, in the cached prefix, rather than in each turn's task.
	b.WriteString("\n" + rulesText + `

Reply with the JSON object only. PRO and OPP: {"moves": [{"act": "...", "replies_to": "...", "statement": "...", "premises": [...], "explanation": "..."}], "final_statement": "..."};
leave statement empty except for claim, premises empty except for since, final_statement empty except in the closing.
MOD: the fields its task names.`)
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
// far (dialogue), then the volatile part, the task of the party that answers.
// round is the round the request belongs to (the closing's for the
// moderator).
func (p *Protocol) messages(d *dialogue, round int, last string) []llm.Message {
	msgs := []llm.Message{{Role: llm.RoleUser, Text: p.background(), Cache: true}}
	msgs = append(msgs, dialogueMessages(d, round)...)
	return append(msgs, llm.Message{Role: llm.RoleUser, Text: last})
}

// fullFrom is the index of the first move that a request of round r carries
// with its explanation: the last turn before round r (the other side's turn
// that round r's first request answers), then every move of round r. The
// moves before it are carried as move lines only.
//
// Why: every request used to carry every move with its explanation, so the
// input of a debate grew with the square of its rounds (8 rounds: as much as
// resending the whole transcript with every request). The move lines are the
// argument graph, all that deciding needs: each statement's id, text and
// owner, what each move replies to, every premise, attack (counter-claim,
// undercut) and support (since), every why, concession and retraction; the
// commitment stores and open moves of the task are derived from them. The
// explanations, the long part, matter while they are answered: a request
// carries in full every turn since the answering party's own previous one.
// The cut moves once a round, so that within a round the dialogue only grows
// at its end and each request repeats the last one as a cached prefix. A
// debate that ended early (a side gave the proposition up) keeps its last
// argumentation turn in full for the closing.
func fullFrom(d *dialogue, r int) int {
	i := slices.IndexFunc(d.moves, func(m *Move) bool { return m.Round >= r })
	if i < 0 {
		i = len(d.moves)
	}
	if i == 0 {
		return 0
	}
	last := d.moves[i-1]
	for i > 0 && d.moves[i-1].Party == last.Party && d.moves[i-1].Round == last.Round {
		i--
	}
	return i
}

// dialogueMessages renders the dialogue so far for a request of round r: one
// message of the condensed older rounds, which only grows at its end, then
// one message per turn of the recent rounds in full, so that a provider that
// caches at message boundaries (Anthropic) finds the previous request's
// messages again. The last one is marked as the cached prefix.
func dialogueMessages(d *dialogue, r int) []llm.Message {
	var head strings.Builder
	head.WriteString("# Dialogue so far\n")
	if len(d.moves) == 0 {
		head.WriteString("(no moves yet)\n")
		return []llm.Message{{Role: llm.RoleUser, Text: head.String(), Cache: true}}
	}
	from := fullFrom(d, r)
	if from > 0 {
		head.WriteString("Earlier moves, move lines only (every statement, premise, attack and support, with its id; the explanations are left out):\n")
	}
	msgs := []llm.Message{{Role: llm.RoleUser}}
	for i, m := range d.moves {
		if i < from {
			head.WriteString(moveLine(d, m))
			continue
		}
		// A turn is the run of one party's moves in one round.
		if prev := d.moves[max(i-1, 0)]; i == from || prev.Party != m.Party || prev.Round != m.Round {
			msgs = append(msgs, llm.Message{Role: llm.RoleUser})
		}
		t := &msgs[len(msgs)-1]
		t.Text += moveLine(d, m)
		if m.Explanation != "" {
			t.Text += "    " + short(m.Explanation, 600) + "\n"
		}
	}
	msgs[0].Text = head.String()
	msgs[len(msgs)-1].Cache = true
	return msgs
}

// background is what every turn shares: the proposition and the shared
// context K. It is the cached prefix. (The participants, their personas and
// biases are in the system prompt, which every request carries.)
func (p *Protocol) background() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Proposition\n%s\n", p.topic)
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
		// A why, concede or retract names its statement by id: the
		// statement's text is in the line that stated it, above.
		if m.RepliesTo == m.Target {
			re = ""
		}
		return fmt.Sprintf("[%s] %s %s %s%s\n", m.ID, m.Party, m.Act, m.Target, re)
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
// closing only concessions and retractions are open. Challenges and attacks
// on party's own statements get a line each; the other side's statements and
// inferences, which grow with every round, are listed by id in groups of the
// same legal acts: their texts are in the dialogue above, under those ids.
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
	var fresh, asked []string // the other side's open statements, not challenged by party yet and challenged
	for _, id := range d.order {
		s := d.stmts[id]
		if s.Party != opp || s.Retracted || d.conceded(party, id) {
			continue
		}
		m := attacks[id]
		if m == nil {
			if closing || d.challenged(party, id) {
				asked = append(asked, id)
			} else {
				fresh = append(fresh, id)
			}
			continue
		}
		acts := "claim (counter-claim), concede"
		switch {
		case closing:
			acts = "concede"
		case !d.challenged(party, id):
			acts = "why, " + acts
		}
		fmt.Fprintf(&b, "- %s: %s's statement %q — %s", id, opp, short(s.Text, 100), acts)
		if closing {
			fmt.Fprintf(&b, "; it attacks your %s: `retract` %s if you cannot defend it\n", m.Target, m.Target)
		} else {
			fmt.Fprintf(&b, "; it attacks your %s: defend %s with `since` (replies_to %s), or `retract` %s\n", m.Target, m.Target, id, m.Target)
		}
	}
	switch {
	case closing && len(asked) > 0:
		fmt.Fprintf(&b, "- %s's statements you may concede: %s\n", opp, strings.Join(asked, ", "))
	case !closing:
		if len(fresh) > 0 {
			fmt.Fprintf(&b, "- %s's statements you may challenge (why), attack (claim: a counter-claim) or concede: %s\n", opp, strings.Join(fresh, ", "))
		}
		if len(asked) > 0 {
			fmt.Fprintf(&b, "- %s's statements you asked why of, which you may still attack (claim: a counter-claim) or concede: %s\n", opp, strings.Join(asked, ", "))
		}
		var infs []string
		for _, m := range d.moves {
			if m.Act == ActSince && m.Party == opp && !d.stmts[m.Target].Retracted {
				infs = append(infs, fmt.Sprintf("%s (%s since %s)", m.ID, m.Target, strings.Join(premiseIDs(m), ", ")))
			}
		}
		if len(infs) > 0 {
			fmt.Fprintf(&b, "- %s's inferences you may undercut (claim replying to the since move: its premises do not support its conclusion): %s\n", opp, strings.Join(infs, "; "))
		}
	}
	if own := d.commits[party]; len(own) > 0 {
		fmt.Fprintf(&b, "- your commitments (C_%s above) — retract any you can no longer defend\n", party)
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
	return s.HintPrompt(agent, "\nGuidance from the human for you:\n", "- %s\n")
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
	hints, ids := p.hintsFor(s, agentOf(sl.party))
	task.WriteString(hints)
	label := sl.party + " · " + map[stage]string{stageOpening: "opening", stageArgument: "argument", stageClosing: "closing"}[sl.stage]
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: sl.id, Agent: agentOf(sl.party), Role: RoleDebater, Label: label,
			Phase: map[stage]string{stageOpening: "opening", stageArgument: "argumentation", stageClosing: "closing"}[sl.stage], Round: sl.round},
		System:   p.system(),
		Messages: p.messages(d, sl.round, task.String()),
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
		Messages: p.messages(d, p.opts.Rounds+1, b.String()),
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
		Messages: p.messages(d, p.opts.Rounds+1, b.String()),
		Schema:   turnSchema(), Hints: ids, Unbudgeted: true,
	}
}
