package crux

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

const moderatorSystem = `You moderate a crux debate run by Parley: two personas look for the one yes/no question they
really disagree on and the evidence that would settle it. You are neutral: you take no side, you never invent
positions the personas did not state, and you keep questions binary (answered YES or NO, never "how much").
When asked for JSON, reply with the JSON object only.`

// agentSystem is the one system prompt of both personas' requests: both
// viewpoints and the rules. Which persona a request is for is said in its
// last message, so that the two personas' requests share a prefix (system
// prompt and transcript) that a provider's prompt cache serves.
func (p *Protocol) agentSystem(agents []Persona) string {
	var b strings.Builder
	b.WriteString("You argue in a crux debate run by Parley, as one of two personas; the last message says which one you are.\n")
	for _, a := range agents {
		fmt.Fprintf(&b, "- %s (id %q). Viewpoint: %s\n", a.Name, a.ID, a.Viewpoint)
		if len(a.Priorities) > 0 {
			fmt.Fprintf(&b, "  Priorities: %s.\n", strings.Join(a.Priorities, ", "))
		}
	}
	b.WriteString(`You argue your persona's viewpoint; you are not the person it is associated with: never invent quotes, private
facts or figures you cannot source.
The debate looks for the crux: the yes/no question where you and your opponent really disagree, and the evidence
that would change your minds. It runs in stages, each allowing only some moves; the system refuses any other move.
Rules:
- Steelman before you challenge: you may CHALLENGE your opponent only after they graded your STEELMAN of their
  position ACCURATE. A steelman states their strongest case as they would state it.
- When your position is steelmanned, grade it honestly: ACCURATE only if it states your view as you would,
  INCOMPLETE if it misses a key part, WRONG if it misrepresents it; say why in content.
- A falsifier is concrete: a metric, a numeric threshold and a dated deadline (YYYY-MM-DD) after today; vague words
  (probably, significant, soon, correlated, ...) are refused.
- Commit honestly: YES, NO or UNCERTAIN on the question, with your top claim (what you are really arguing).
Each message is ONE move, as the JSON object only; fill the fields your move uses and leave the others empty ("" or 0).
Keep content under 150 words.
The moves (each turn says which are allowed now):
`)
	for _, m := range allMoves {
		fmt.Fprintf(&b, "- %s\n", moveGuide[m])
	}
	return b.String()
}

var stagePurpose = map[Stage]string{
	Discovery: "Explore the topic and find where you really disagree. Propose the crux as a binary (yes/no) question with PROPOSE_QUESTION.",
	CruxLock: "Lock the crux: COMMIT_POSITION on the question (side, confidence, top_claim), STEELMAN your opponent " +
		"(and GRADE_STEELMAN theirs of you), DECLARE_FALSIFIER (metric, threshold, deadline, reasoning). The crux locks when both " +
		"of you committed, one says YES and the other NO, both steelmans are graded ACCURATE, and each of you has a concrete falsifier.",
	Evidence: "Argue with data tied to the falsifiers: PROVIDE_EVIDENCE, CHALLENGE (after an ACCURATE steelman), CONCEDE " +
		"(set top_claim_changed when it changes your top claim), or COMMIT_POSITION to update your side.",
}

var moveGuide = map[string]string{
	MoveClaim:     "CLAIM: content = a claim about the topic",
	MoveQuestion:  "QUESTION: content = a question to your opponent",
	MovePropose:   "PROPOSE_QUESTION: question = the binary crux question (\"Is ...?\", \"Will ...?\"); content = why it is the crux",
	MoveConcede:   "CONCEDE: content = what you concede; top_claim_changed = whether it changes your top claim",
	MoveCommit:    "COMMIT_POSITION: side = YES|NO|UNCERTAIN, confidence 0-1, top_claim {statement, side YES|NO|NUANCED, confidence}; content = why",
	MoveSteelman:  "STEELMAN: target = opponent id; content = their strongest case, as they would state it",
	MoveGrade:     "GRADE_STEELMAN: target = who steelmanned you; grade = ACCURATE|INCOMPLETE|WRONG; content = why",
	MoveFalsifier: "DECLARE_FALSIFIER: falsifier {metric, threshold, deadline YYYY-MM-DD, reasoning}; content = what it would show",
	MoveChallenge: "CHALLENGE: target = opponent id; content = your challenge (blocked until your steelman of them is ACCURATE)",
	MoveEvidence:  "PROVIDE_EVIDENCE: content = data tied to a falsifier, with its source",
}

// transcript renders what only grows as the debate goes on: every message.
// Its requests' prefix ends with it, so that each request repeats the
// previous one's as a prefix a provider's cache serves.
func (th *thread) transcript() string {
	var b strings.Builder
	b.WriteString("# Transcript\n")
	if len(th.msgs) == 0 {
		b.WriteString("No messages yet.\n")
	}
	for _, m := range th.msgs {
		if m.Move == nil {
			fmt.Fprintf(&b, "[%d %s] %s — (refused: %s)\n", m.N, m.Stage, th.name(m.Agent), oneLine(m.Refused))
			continue
		}
		fmt.Fprintf(&b, "[%d %s] %s — %s", m.N, m.Stage, th.name(m.Agent), m.Move.Move)
		switch m.Move.Move {
		case MoveSteelman, MoveChallenge:
			fmt.Fprintf(&b, " → %s", th.name(m.Move.Target))
		case MoveGrade:
			fmt.Fprintf(&b, " %s → %s", m.Move.Grade, th.name(m.Move.Target))
		case MoveCommit:
			fmt.Fprintf(&b, " %s (%.0f%%)", m.Move.Side, m.Move.Confidence*100)
		case MovePropose:
			fmt.Fprintf(&b, " %q", m.Move.Question)
		case MoveFalsifier:
			fmt.Fprintf(&b, " %s %s by %s", m.Move.Falsifier.Metric, m.Move.Falsifier.Threshold, m.Move.Falsifier.Deadline)
		}
		fmt.Fprintf(&b, ": %s\n", oneLine(m.Move.Content))
	}
	return b.String()
}

// status renders the topic, the personas and where the debate stands now:
// the crux question, commitments, steelmans, falsifiers and moderator
// interventions. It comes before the transcript: it changes with most moves
// while the crux locks, but hardly during EVIDENCE, the longest stage, where
// the whole request up to the newest message is then a cached prefix.
func (th *thread) status() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Topic\n%s\n\nPersonas: ", th.opts.topic)
	for i, a := range th.agents {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (id %q)", a.Name, a.ID)
	}
	b.WriteString("\n\n# Crux question\n")
	if th.question == "" {
		b.WriteString("None yet.\n")
	} else {
		fmt.Fprintf(&b, "%s (proposed by %s)\n", th.question, th.name(th.questionBy))
	}
	if len(th.commitments) > 0 {
		b.WriteString("\n# Commitments\n")
		for _, a := range th.agents {
			if c, ok := th.commitments[a.ID]; ok {
				fmt.Fprintf(&b, "- %s: %s (confidence %.0f%%); top claim: %s [%s]\n", a.Name, c.Side, c.Confidence*100, c.TopClaim.Statement, c.TopClaim.Side)
			}
		}
	}
	if len(th.steelmans) > 0 {
		b.WriteString("\n# Steelmans\n")
		for _, a := range th.agents {
			if sm := th.steelmans[[2]string{a.ID, th.opponent(a.ID)}]; sm != nil {
				g := sm.Grade
				if sm.Pending {
					g = "awaiting grade"
				}
				fmt.Fprintf(&b, "- %s → %s: %s (attempt %d of %d)\n", a.Name, th.name(sm.To), g, sm.Attempts, th.opts.MaxSteelmanAttempts)
			}
		}
	}
	if len(th.falsifiers) > 0 {
		b.WriteString("\n# Falsifiers\n")
		for _, a := range th.agents {
			for _, f := range th.falsifiers[a.ID] {
				by := ""
				if f.ProposedBy != "" {
					by = " (proposed by the " + f.ProposedBy + ")"
				}
				fmt.Fprintf(&b, "- %s: %s %s by %s%s\n", a.Name, f.Metric, f.Threshold, f.Deadline, by)
			}
		}
	}
	if len(th.interventions) > 0 {
		b.WriteString("\n# Moderator\n")
		for _, iv := range th.interventions {
			fmt.Fprintf(&b, "- After lock attempt %d: %s\n", iv.Attempt, iv.Text)
		}
	}
	return b.String()
}

func (p *Protocol) agentTurn(s *debate.State, th *thread, agent, id string) debate.TurnSpec {
	a, _ := th.persona(agent)
	var b strings.Builder
	fmt.Fprintf(&b, "# Your turn: you are %s (id %q); stage %s\n%s\n", a.Name, a.ID, th.stage, stagePurpose[th.stage])
	fmt.Fprintf(&b, "Today is %s: a falsifier's deadline must be a date after it.\n", th.created.Format("2006-01-02"))
	switch th.stage {
	case Discovery:
		fmt.Fprintf(&b, "Messages in this stage: %d; it ends after %d once a question is proposed, and at %d regardless.\n", th.stageMsgs, th.opts.DiscoveryMin, th.opts.DiscoveryMax)
	case CruxLock:
		fmt.Fprintf(&b, "Messages in this stage: %d; the lock is attempted by message %d (attempt %d of %d).\n", th.stageMsgs, th.lockDueAt, len(th.locks)+1, th.opts.MaxLockAttempts)
	case Evidence:
		fmt.Fprintf(&b, "Messages in this stage: %d of %d.\n", th.stageMsgs, th.opts.EvidenceBudget)
	}
	if th.forcedBinary {
		b.WriteString("The moderator forced a binary framing: commit YES or NO; UNCERTAIN is refused.\n")
	}
	b.WriteString("\nAllowed moves now: ")
	moves := allowedMoves[th.stage]
	required := ""
	if sm := th.pendingGradeFor(agent); sm != nil {
		moves = []string{MoveGrade}
		required = fmt.Sprintf("%s steelmanned your position: grade it now.\nTheir steelman: %s\n", th.name(sm.From), oneLine(sm.Content))
	} else if sm := th.retryDue(agent); sm != nil {
		moves = []string{MoveSteelman}
		required = fmt.Sprintf("%s graded your steelman %s (%s): retry it now (attempt %d of %d).\n", th.name(sm.To), sm.Grade, oneLine(sm.Reason), sm.Attempts+1, th.opts.MaxSteelmanAttempts)
	}
	// The moves are described in the system prompt; naming them here keeps
	// the part of the request that changes from turn to turn short.
	fmt.Fprintf(&b, "%s\n", strings.Join(moves, ", "))
	if required != "" {
		b.WriteString("\nRequired: " + required)
	}
	hints, ids := hintsFor(s, agent)
	b.WriteString(hints)
	b.WriteString("\nReply with one move as the JSON object only.")
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agent, Role: roleDebater, Label: fmt.Sprintf("%s · %s", a.Name, th.stage), Phase: strings.ToLower(string(th.stage)),
			Round: th.count/len(th.agents) + 1},
		System: p.agentSystem(th.agents),
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: th.status()},
			{Role: llm.RoleUser, Text: th.transcript(), Cache: true},
			{Role: llm.RoleUser, Text: b.String()},
		},
		Schema: moveSchema(), Hints: ids,
	}
}

func (p *Protocol) moderatorTurn(s *debate.State, th *thread, id string) debate.TurnSpec {
	var task, label string
	var sc *llm.Schema
	switch id {
	case modFrameDiscovery:
		label, sc = "Moderator · framing", frameSchema()
		task = fmt.Sprintf("DISCOVERY spent its %d messages and no binary question was proposed. From the dialogue, frame the crux as ONE question answered YES or NO, where the personas' positions actually diverge. Reply with question and rationale.", th.opts.DiscoveryMax)
	case modFrameLock:
		label, sc = "Moderator · binary framing", frameSchema()
		task = "The crux failed to lock twice. Force a binary framing: rewrite the question so that one persona must answer YES and the other NO, " +
			"choosing the sharpest point of disagreement in the dialogue (a clear claim with a time frame, not a measurement question). Reply with question and rationale."
	case modFalsifiers:
		label, sc = "Moderator · falsifiers", proposalsSchema()
		var lack []string
		for _, a := range th.agents {
			if len(th.validFalsifiers(a.ID)) == 0 {
				lack = append(lack, a.ID)
			}
		}
		task = fmt.Sprintf("The crux failed to lock three times. Propose falsifiers from the dialogue for the personas that lack one (%s): for each, "+
			"the evidence that by their own arguments would change their mind. Each needs agent (persona id), a metric, a numeric threshold, "+
			"a deadline YYYY-MM-DD after %s, and reasoning quoting the dialogue. No vague words.", joinOr(lack, "none"), th.created.Format("2006-01-02"))
	case modCrystallise:
		label, sc = "Moderator · crystallisation", crystalSchema()
		task = "The debate is over. Crystallise it: summary (what the debate established, where the personas still disagree, which falsifier would settle it), " +
			"and counterfactual: for EACH persona (agent = persona id), would its top claim flip if the crux question resolved against its side " +
			"(would_flip), and why. Judge from what they said, not from what you believe."
	}
	hints, ids := hintsFor(s, agentModerator)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agentModerator, Role: roleModerator, Label: label, Phase: strings.ToLower(string(th.stage))},
		System:  moderatorSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: th.status()},
			{Role: llm.RoleUser, Text: th.transcript(), Cache: true},
			{Role: llm.RoleUser, Text: task + hints + "\nReply with the JSON object only."},
		},
		Schema: sc, Hints: ids, Unbudgeted: true,
	}
}

func hintsFor(s *debate.State, agent string) (string, []int) {
	return s.HintPrompt(agent, "\nGuidance from the human for you:\n", "- %s\n")
}

// counted writes a count with its noun, singular for one: "1 attempt",
// "2 attempts" (the nouns counted here all take -s).
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// castTurn asks the moderator for two personas whose viewpoints are opposed
// on the topic: from the catalog, or written when none fit.
func (p *Protocol) castTurn(id string) debate.TurnSpec {
	var b strings.Builder
	fmt.Fprintf(&b, "# Topic\n%s\n\n# Persona catalog\n", p.opts.topic)
	for _, c := range p.opts.Catalog {
		fmt.Fprintf(&b, "- %s (%s): %s\n", c.ID, c.Name, oneLine(c.Viewpoint))
	}
	b.WriteString(`
Cast the debate: choose the two personas from the catalog whose viewpoints are most opposed on this topic, so that
they disagree on a question the evidence could settle. When no pair of the catalog fits the topic, write two
personas instead: id (lowercase letters, digits and hyphens), name, viewpoint (the position and the reasoning it
rests on, in a few sentences) and priorities. For a catalog persona, its id is enough.
Reply with the JSON object only: {"personas": [{"id": ..., "name": ..., "viewpoint": ..., "priorities": [...]}, {...}], "rationale": why these two disagree here}.`)
	return debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agentModerator, Role: roleModerator, Label: "Moderator · casting", Phase: "casting"},
		System:  moderatorSystem,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: b.String()},
		},
		Schema: castSchema(), Unbudgeted: true,
	}
}

// parseCast reads the moderator's cast: catalog ids are filled from the
// catalog; two distinct, complete personas are required.
func (p *Protocol) parseCast(text string) (any, error) {
	var c Cast
	if err := debate.DecodeMove(text, &c); err != nil {
		return nil, err
	}
	for i, pe := range c.Personas {
		pe.ID = strings.ToLower(strings.TrimSpace(pe.ID))
		for _, k := range p.opts.Catalog {
			if k.ID == pe.ID {
				pe = k
			}
		}
		c.Personas[i] = pe
	}
	if err := validPair(c.Personas); err != nil {
		return nil, repairable("%v", err)
	}
	// Checked here and in a personas file, where a persona is written, not
	// in Options.Validate: a debate recorded before the bounds still
	// renders and resumes.
	for _, pe := range c.Personas {
		if err := pe.bounded(); err != nil {
			return nil, repairable("persona %q: %v", pe.ID, err)
		}
	}
	return c, nil
}
