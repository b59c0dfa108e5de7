// Package formal is the `formal` debate format: a persuasion dialogue after
// Prakken (2006) between a proponent (PRO) and an opponent (OPP), judged by a
// moderator (MOD). Every move is a speech act (claim, why, concede, retract,
// since) that must be a legal reply to an open move; commitment stores follow
// the effect rules of the spec. After the closing round the moves become a
// bipolar argumentation framework (since → support, counter-claims →
// rebuttals, attacks on an inference → undercuts; the moderator classifies
// what the moves leave open), scored with a gradual semantics, and the
// moderator writes the verdict around the scores.
package formal

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/argue/gradual"
	"github.com/parleyhq/parley/internal/debate"
)

// Name is the format's name.
const Name = "formal"

// Defaults and bounds.
const (
	DefaultRounds = 2
	MaxRounds     = 10
	// MaxMoves bounds the moves of one turn; the focused role gets
	// FocusMoves.
	MaxMoves   = 4
	FocusMoves = 6
	// MaxPremises bounds the reasons of one since move.
	MaxPremises = 5
)

// Options are the format's settings, stored with the debate so that a
// resumed debate follows the same rules and sees the same context.
type Options struct {
	// Rounds is the number of argumentation rounds between the opening and
	// the closing (default 2).
	Rounds int `json:"rounds"`
	// Focus is the role the user asked to focus on (PRO, OPP or MOD), or "".
	Focus string `json:"focus,omitempty"`
	// Method is the gradual semantics that scores the framework; the spec's
	// additive rule unless set.
	Method string `json:"method,omitempty"`
	// Context is the shared context K, gathered once when the debate is
	// created.
	Context Context `json:"context"`
}

// Context is the shared context K: what information gathering found, for
// both sides.
type Context struct {
	// Dir is the directory it was gathered from ("" when none was given).
	Dir string `json:"dir,omitempty"`
	// Facts are the key facts, one line each, for the report.
	Facts []string `json:"facts"`
	// Digest is the bounded text the debaters read: file tree, README and
	// docs excerpts, recent git history, files mentioning the topic.
	Digest string `json:"digest,omitempty"`
}

// ParseRole accepts a role name for --perspective.
func ParseRole(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "pro", "proponent":
		return PRO, nil
	case "opp", "opponent":
		return OPP, nil
	case "mod", "moderator":
		return MOD, nil
	}
	return "", fmt.Errorf("--perspective %q: choose PRO (proponent), OPP (opponent) or MOD (moderator)", s)
}

// Validate checks options and fills defaults.
func (o *Options) Validate() error {
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	if o.Rounds < 1 || o.Rounds > MaxRounds {
		return fmt.Errorf("--rounds %d: choose 1 to %d", o.Rounds, MaxRounds)
	}
	role, err := ParseRole(o.Focus)
	if err != nil {
		return err
	}
	o.Focus = role
	if o.Method == "" {
		o.Method = string(gradual.Spec)
	}
	if _, err := gradual.ParseMethod(o.Method); err != nil {
		return fmt.Errorf("formal options: %w", err)
	}
	return nil
}

// Protocol is the formal format's rules.
type Protocol struct {
	topic string
	opts  Options
}

// NewProtocol returns the protocol for a topic.
func NewProtocol(topic string, opts Options) (*Protocol, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Protocol{topic: topic, opts: opts}, nil
}

// Agents and roles: --model-for debater=... sets both debaters' model,
// --model-for moderator=... the moderator's; the command line maps
// --model-for pro=... and opp=... to the agents.
const (
	AgentPro       = "pro"
	AgentOpp       = "opp"
	RoleDebater    = "debater"
	agentModerator = "moderator"
)

// Turn ids and notes.
const (
	idClassify   = "framework/classify"
	idVerdict    = "verdict"
	noteForfeit  = "formal.forfeit"
	noteClassify = "formal.classification_fallback"
	noteVerdict  = "formal.verdict_fallback"
	noteSettled  = "formal.settled"
	notePass     = "formal.pass"
)

func agentOf(party string) string {
	if party == PRO {
		return AgentPro
	}
	return AgentOpp
}

// slot is one debater turn of the script.
type slot struct {
	id    string
	party string
	stage stage
	round int // 0 opening, 1..N argumentation, N+1 closing
	label string
}

// schedule is the debate's script of debater turns: the opening, the
// argumentation rounds (PRO, OPP, PRO, OPP) and the closing.
func (p *Protocol) schedule() []slot {
	out := []slot{
		{id: "r0/pro", party: PRO, stage: stageOpening, label: "Round 0: Opening"},
		{id: "r0/opp", party: OPP, stage: stageOpening, label: "Round 0: Opening"},
	}
	for r := 1; r <= p.opts.Rounds; r++ {
		for i, party := range []string{PRO, OPP, PRO, OPP} {
			out = append(out, slot{id: fmt.Sprintf("r%d/%s-%d", r, agentOf(party), i/2+1), party: party, stage: stageArgument, round: r,
				label: fmt.Sprintf("Round %d: Argumentation", r)})
		}
	}
	for _, party := range []string{PRO, OPP} {
		out = append(out, slot{id: "closing/" + agentOf(party), party: party, stage: stageClosing, round: p.opts.Rounds + 1, label: "Closing"})
	}
	return out
}

// turnView is one completed debater turn.
type turnView struct {
	slot
	turn    *debate.Turn
	move    *TurnMove
	forfeit string // why the turn was forfeited
	pass    bool   // the turn passed: nothing to answer (turn is nil)
}

// view is what Next derives from the state; the renderer uses it too.
type view struct {
	d         *dialogue
	turns     []turnView
	classes   map[string]Class  // counter-claim move id → classification
	rejected  map[string]string // statement id → why the moderator rejected it
	judgment  *Judgment
	judgeErr  string // why the moderator's verdict could not be used
	endReason string
	pending   *debate.Step
	slot      *slot // the pending debater turn
}

// Next implements debate.Protocol.
func (p *Protocol) Next(s *debate.State) (debate.Step, error) {
	v, err := p.derive(s)
	if err != nil {
		return debate.Step{}, err
	}
	if v.pending != nil {
		return *v.pending, nil
	}
	res, err := p.result(s, v)
	if err != nil {
		return debate.Step{}, err
	}
	return debate.Step{Done: true, Verdict: res, Reason: v.endReason}, nil
}

// derive replays the completed turns through the dialogue's rules: the first
// turn not done yet is pending; notes the log lacks are emitted first.
func (p *Protocol) derive(s *debate.State) (*view, error) {
	v := &view{d: newDialogue(), classes: map[string]Class{}, rejected: map[string]string{}}
	for _, sl := range p.schedule() {
		if sl.stage == stageArgument {
			if _, why := v.d.settled(); why != "" {
				// Convergence: a side gave the proposition up; the
				// remaining argumentation is skipped and both close.
				if !hasNote(s, noteSettled, "settled") {
					v.pending = &debate.Step{Emit: []debate.Payload{note(noteSettled, "settled", "", why+": the argumentation ends and both sides close")}}
					return v, nil
				}
				continue
			}
		}
		t := s.Completed(sl.id)
		if t == nil && sl.stage == stageArgument && !v.d.hasOpen(sl.party) {
			// Nothing of the other side's to answer (it forfeited, or
			// everything is conceded): the turn passes.
			if !hasNote(s, notePass, sl.id) {
				v.pending = &debate.Step{Emit: []debate.Payload{note(notePass, sl.id, sl.party, fmt.Sprintf(
					"%s passes turn %s: %s made no move it could answer", sl.party, sl.id, other(sl.party)))}}
				return v, nil
			}
			v.turns = append(v.turns, turnView{slot: sl, pass: true})
			continue
		}
		if t == nil {
			v.slot = &sl
			v.pending = p.withPhase(s, sl.label, sl.round, p.debaterTurn(s, v, sl))
			return v, nil
		}
		tv := turnView{slot: sl, turn: t}
		if t.Invalid != "" {
			tv.forfeit = t.Invalid
			if !hasNote(s, noteForfeit, sl.id) {
				v.pending = &debate.Step{Emit: []debate.Payload{note(noteForfeit, sl.id, sl.party, fmt.Sprintf(
					"%s forfeits turn %s: the move was still illegal after it was asked again (%s)", sl.party, sl.id, t.Invalid))}}
				return v, nil
			}
			v.turns = append(v.turns, tv)
			if sl.id == "r0/pro" {
				v.endReason = "PRO forfeited the opening claim: there is no proposition to debate, OPP wins by forfeit"
				return v, nil
			}
			continue
		}
		var tm TurnMove
		if err := json.Unmarshal(t.Move, &tm); err != nil {
			return nil, fmt.Errorf("turn %s: stored move: %w", sl.id, err)
		}
		for i, m := range tm.Moves {
			got, err := v.d.apply(sl.party, sl.stage, sl.round, MoveIn{Act: m.Act, RepliesTo: m.RepliesTo, Statement: m.Statement, Premises: premiseTexts(m.Premises), Explanation: m.Explanation})
			if err != nil {
				return nil, fmt.Errorf("turn %s: stored move %d no longer replays: %w", sl.id, i+1, err)
			}
			if got.ID != m.ID {
				return nil, fmt.Errorf("turn %s: stored move %s replays as %s", sl.id, m.ID, got.ID)
			}
			tm.Moves[i] = *got
		}
		tv.move = &tm
		v.turns = append(v.turns, tv)
	}
	v.endReason = fmt.Sprintf("the closing round after %s ended the dialogue", counted(p.opts.Rounds, "argumentation round"))
	if _, why := v.d.settled(); why != "" {
		v.endReason = why
	}

	// The moderator classifies the relations the moves leave open and
	// rejects straw men, ad hominem and irrelevant arguments.
	un := v.d.unsettled()
	if len(v.d.order) > 1 {
		t := s.Completed(idClassify)
		if t == nil {
			v.pending = p.withPhase(s, "Argumentation framework", 0, p.classifyTurn(s, v, un))
			return v, nil
		}
		var cl Classification
		if t.Invalid == "" && json.Unmarshal(t.Move, &cl) == nil {
			for _, c := range cl.Relations {
				c.By = "moderator"
				v.classes[c.Move] = c
			}
			for _, r := range cl.Rejected {
				v.rejected[r.ID] = r.Reason
			}
		} else if !hasNote(s, noteClassify, idClassify) {
			v.pending = &debate.Step{Emit: []debate.Payload{note(noteClassify, idClassify, MOD, fmt.Sprintf(
				"The moderator's review of the framework could not be used (%s): each open counter-claim counts as a rebuttal, the spec's reading of `claim ¬φ`, and no argument is rejected", invalidOr(t)))}}
			return v, nil
		}
	}
	for _, m := range un {
		if _, ok := v.classes[m.ID]; !ok {
			v.classes[m.ID] = Class{Move: m.ID, Kind: string(gradual.Rebut), Reason: "default: a counter-claim contradicts what it answers", By: "default"}
		}
	}

	// The moderator's judgment, written around the computed scores.
	t := s.Completed(idVerdict)
	if t == nil {
		fw, err := p.framework(v)
		if err != nil {
			return nil, err
		}
		v.pending = p.withPhase(s, "Verdict", 0, p.verdictTurn(s, v, fw))
		return v, nil
	}
	var j Judgment
	if t.Invalid == "" && json.Unmarshal(t.Move, &j) == nil {
		v.judgment = &j
	} else {
		v.judgeErr = invalidOr(t)
		if !hasNote(s, noteVerdict, idVerdict) {
			v.pending = &debate.Step{Emit: []debate.Payload{note(noteVerdict, idVerdict, MOD, fmt.Sprintf(
				"The moderator's verdict could not be used (%s): the report gives the computed verdict without the moderator's synthesis", v.judgeErr))}}
			return v, nil
		}
	}
	return v, nil
}

func premiseTexts(ps []Premise) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Text
	}
	return out
}

func invalidOr(t *debate.Turn) string {
	if t.Invalid != "" {
		return t.Invalid
	}
	return "the stored move does not decode"
}

// withPhase wraps turns in a step, announcing the phase when it changes.
func (p *Protocol) withPhase(s *debate.State, label string, round int, turns ...debate.TurnSpec) *debate.Step {
	st := &debate.Step{Turns: turns}
	if s.Phase.Label != label {
		st.Emit = []debate.Payload{debate.PhaseChanged{Phase: turns[0].Phase, Label: label, Round: round}}
	}
	return st
}

// Parse implements debate.Protocol. A debater's reply is checked move by move
// against the dialogue so far: an illegal move is refused with the reason,
// so that the debater is asked again (once).
func (p *Protocol) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	var tr turnReply
	if err := debate.DecodeMove(text, &tr); err != nil {
		return nil, err
	}
	switch t.ID {
	case idClassify:
		c := tr.Classification
		v, err := p.derive(s)
		if err != nil {
			return nil, err
		}
		return c, checkClassification(&c, v.d.unsettled(), v.d)
	case idVerdict:
		j := tr.Judgment
		v, err := p.derive(s)
		if err != nil {
			return nil, err
		}
		fw, err := p.framework(v)
		if err != nil {
			return nil, err
		}
		return j, checkJudgment(&j, fw)
	}
	v, err := p.derive(s)
	if err != nil {
		return nil, err
	}
	if v.slot == nil || v.slot.id != t.ID {
		return nil, fmt.Errorf("turn %s is not the debate's next debater turn", t.ID)
	}
	sl := *v.slot
	r := tr.Reply
	limit := p.maxMoves(sl.party)
	switch {
	case sl.stage == stageOpening && len(r.Moves) != 1:
		return nil, fmt.Errorf("%w: the opening is exactly one move, got %d", debate.ErrRepairable, len(r.Moves))
	case sl.stage == stageArgument && len(r.Moves) == 0:
		return nil, fmt.Errorf("%w: make at least one move: every turn of the argumentation rounds is a speech act", debate.ErrRepairable)
	case len(r.Moves) > limit:
		return nil, fmt.Errorf("%w: at most %d moves per turn, got %d", debate.ErrRepairable, limit, len(r.Moves))
	case sl.stage == stageClosing && strings.TrimSpace(r.FinalStatement) == "":
		return nil, fmt.Errorf("%w: the closing turn needs final_statement: your final position", debate.ErrRepairable)
	}
	tm := TurnMove{Party: sl.party}
	if sl.stage == stageClosing {
		tm.FinalStatement = strings.TrimSpace(r.FinalStatement)
	}
	for i, in := range r.Moves {
		m, err := v.d.apply(sl.party, sl.stage, sl.round, in)
		if err != nil {
			return nil, &refusal{fmt.Sprintf("illegal move %d (`%s` replying to %q): %v", i+1, in.Act, in.RepliesTo, err)}
		}
		tm.Moves = append(tm.Moves, *m)
	}
	return tm, nil
}

func (p *Protocol) maxMoves(party string) int {
	if p.opts.Focus == party {
		return FocusMoves
	}
	return MaxMoves
}

// refusal is an illegal move: the debater is shown the reason and asked
// again (it is repairable), and a second illegal reply forfeits the turn.
type refusal struct{ msg string }

func (e *refusal) Error() string { return e.msg }

// Is makes a refusal an ErrRepairable.
func (e *refusal) Is(target error) bool { return target == debate.ErrRepairable }

// noteData is the payload of the format's notes.
type noteData struct {
	Turn  string `json:"turn"`
	Party string `json:"party,omitempty"`
}

func note(kind, turn, party, text string) debate.Note {
	data, _ := json.Marshal(noteData{Turn: turn, Party: party})
	return debate.Note{Kind: kind, Data: data, Text: text}
}

func hasNote(s *debate.State, kind, turn string) bool {
	for _, n := range s.Notes {
		var d noteData
		if n.Kind == kind && json.Unmarshal(n.Data, &d) == nil && d.Turn == turn {
			return true
		}
	}
	return false
}
