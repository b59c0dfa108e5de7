package crux

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/textsafe"
)

// Commitment is an agent's committed side on the crux question.
type Commitment struct {
	Agent      string   `json:"agent"`
	Side       string   `json:"side"`
	Confidence float64  `json:"confidence"`
	TopClaim   TopClaim `json:"top_claim"`
	Question   string   `json:"question"`
	Message    int      `json:"message"`
}

// Steelman is the state of one agent's steelman of another.
type Steelman struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Attempts int    `json:"attempts"`
	Pending  bool   `json:"pending"` // waiting for the target's grade
	Grade    string `json:"grade,omitempty"`
	Content  string `json:"content,omitempty"`
	Reason   string `json:"reason,omitempty"` // the grader's explanation
}

// Message is one posted agent message (a refused one has no move).
type Message struct {
	N       int    `json:"n"`
	Turn    string `json:"turn"`
	Agent   string `json:"agent"`
	Stage   Stage  `json:"stage"`
	Move    *Move  `json:"move,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// Criterion is one check of the lock gate or of validation.
type Criterion struct {
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail"`
}

// LockResult is one attempt at locking the crux.
type LockResult struct {
	Attempt   int         `json:"attempt"`
	Passed    bool        `json:"passed"`
	Criteria  []Criterion `json:"criteria"`
	AtMessage int         `json:"at_message"`
}

// Transition is a stage change.
type Transition struct {
	From      Stage  `json:"from"`
	To        Stage  `json:"to"`
	Reason    string `json:"reason"`
	AtMessage int    `json:"at_message"`
}

// Intervention kinds, escalating with failed locks.
const (
	InterveneClarify    = "clarify"
	InterveneBinary     = "binary_framing"
	InterveneFalsifiers = "falsifier_proposals"
)

// Intervention is a moderator intervention after a failed lock.
type Intervention struct {
	Attempt int    `json:"attempt"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
}

// event is a format event the thread produced; it becomes a debate.Note of
// kind "crux.<kind>" unless one with its key is in the log already.
type event struct {
	kind string
	key  string
	data map[string]any
	text string
}

func (e event) note() debate.Note {
	d := map[string]any{"key": e.key}
	for k, v := range e.data {
		d[k] = v
	}
	b, _ := json.Marshal(d)
	return debate.Note{Kind: "crux." + e.kind, Data: b, Text: e.text}
}

// thread is the crux debate's rules as a state machine: the protocol replays
// completed turns into it, and its answers (what comes next, whether a move
// is allowed) do no I/O.
type thread struct {
	opts    Options
	created time.Time
	agents  []Persona

	stage     Stage
	stageMsgs int // agent messages in the current stage, refused ones included
	count     int // agent messages in the debate
	msgs      []Message

	question     string
	questionBy   string
	forcedBinary bool

	commitments map[string]Commitment
	falsifiers  map[string][]Falsifier
	steelmans   map[[2]string]*Steelman

	locks         []LockResult
	lastLockAt    int // stageMsgs at the last lock attempt
	lockDueAt     int // stageMsgs at which the lock is attempted regardless
	interventions []Intervention
	transitions   []Transition
	modDone       map[string]bool // moderator turns applied
	locked        bool
	endReason     string
}

func newThread(opts Options, created time.Time) *thread {
	// A name heads the persona's messages and lines in every view and
	// report; one recorded before names were bounded (see bounded) is
	// shown on one line, bounded, so that it opens no section there.
	agents := make([]Persona, len(opts.Personas))
	for i, p := range opts.Personas {
		p.Name = textsafe.Line(p.Name, MaxNameLen)
		agents[i] = p
	}
	return &thread{
		opts: opts, created: created, agents: agents, stage: Discovery,
		commitments: map[string]Commitment{}, falsifiers: map[string][]Falsifier{},
		steelmans: map[[2]string]*Steelman{}, modDone: map[string]bool{},
	}
}

func (th *thread) persona(id string) (Persona, bool) {
	for _, p := range th.agents {
		if p.ID == id {
			return p, true
		}
	}
	return Persona{}, false
}

func (th *thread) name(id string) string {
	if p, ok := th.persona(id); ok {
		return p.Name
	}
	if id == "" {
		return id
	}
	// Live views describe a move without the debate's personas at hand.
	return strings.ToUpper(id[:1]) + id[1:]
}

func (th *thread) opponent(id string) string {
	for _, p := range th.agents {
		if p.ID != id {
			return p.ID
		}
	}
	return ""
}

// resolve reads a target as a persona id or name; empty means the opponent.
func (th *thread) resolve(agent, target string) (string, error) {
	t := strings.TrimSpace(target)
	if t == "" {
		return th.opponent(agent), nil
	}
	for _, p := range th.agents {
		if strings.EqualFold(t, p.ID) || strings.EqualFold(t, p.Name) {
			if p.ID == agent {
				return "", fmt.Errorf("target %q is yourself: address %s", target, th.name(th.opponent(agent)))
			}
			return p.ID, nil
		}
	}
	return "", fmt.Errorf("target %q is not in this debate: address %s", target, th.opponent(agent))
}

func (th *thread) steelman(from, to string) *Steelman {
	k := [2]string{from, to}
	if th.steelmans[k] == nil {
		th.steelmans[k] = &Steelman{From: from, To: to}
	}
	return th.steelmans[k]
}

// pendingGradeFor is the steelman of agent's position awaiting its grade.
func (th *thread) pendingGradeFor(agent string) *Steelman {
	for _, p := range th.agents {
		if sm := th.steelmans[[2]string{p.ID, agent}]; sm != nil && sm.Pending {
			return sm
		}
	}
	return nil
}

// retryDue is the steelman agent must retry: graded INCOMPLETE or WRONG with
// attempts left.
func (th *thread) retryDue(agent string) *Steelman {
	for _, p := range th.agents {
		sm := th.steelmans[[2]string{agent, p.ID}]
		if sm != nil && !sm.Pending && sm.Grade != "" && sm.Grade != Accurate && sm.Attempts < th.opts.MaxSteelmanAttempts && th.stage != Discovery {
			return sm
		}
	}
	return nil
}

func upper(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(strings.ReplaceAll(s, "-", "_")), "_"))
}

func repairable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", debate.ErrRepairable, fmt.Sprintf(format, args...))
}

// check says whether agent may post m now, normalising it; a refusal wraps
// debate.ErrRepairable and says why, so that the model is asked again.
func (th *thread) check(agent string, m *Move) error {
	m.Move, m.Side, m.Grade = upper(m.Move), upper(m.Side), upper(m.Grade)
	m.TopClaim.Side = upper(m.TopClaim.Side)
	if !slices.Contains(allMoves, m.Move) {
		return repairable("unknown move %q: use one of %s", m.Move, strings.Join(allowedMoves[th.stage], ", "))
	}
	if sm := th.pendingGradeFor(agent); sm != nil && m.Move != MoveGrade {
		return repairable("%s steelmanned your position and you must grade it first: reply with move GRADE_STEELMAN, target %q and grade ACCURATE, INCOMPLETE or WRONG", th.name(sm.From), sm.From)
	}
	if sm := th.retryDue(agent); sm != nil && m.Move != MoveSteelman {
		return repairable("your steelman of %s was graded %s: retry it now with move STEELMAN, target %q (attempt %d of %d)", th.name(sm.To), sm.Grade, sm.To, sm.Attempts+1, th.opts.MaxSteelmanAttempts)
	}
	if !slices.Contains(allowedMoves[th.stage], m.Move) {
		return repairable("%s is not allowed in the %s stage; allowed moves: %s", m.Move, th.stage, strings.Join(allowedMoves[th.stage], ", "))
	}
	if strings.TrimSpace(m.Content) == "" {
		return repairable("content is empty: write the message")
	}
	switch m.Move {
	case MovePropose:
		m.Question = strings.TrimSpace(m.Question)
		if err := ValidateBinaryQuestion(m.Question); err != nil {
			return repairable("%v", err)
		}
	case MoveSteelman:
		to, err := th.resolve(agent, m.Target)
		if err != nil {
			return repairable("%v", err)
		}
		m.Target = to
		sm := th.steelmans[[2]string{agent, to}]
		switch {
		case sm == nil:
		case sm.Pending:
			return repairable("your steelman of %s is still waiting for its grade", th.name(to))
		case sm.Grade == Accurate:
			return repairable("your steelman of %s was already graded ACCURATE: move on", th.name(to))
		case sm.Attempts >= th.opts.MaxSteelmanAttempts:
			return repairable("you have used your %d steelman attempts on %s", th.opts.MaxSteelmanAttempts, th.name(to))
		}
	case MoveGrade:
		sm := th.pendingGradeFor(agent)
		if sm == nil {
			return repairable("no steelman of your position is waiting for a grade")
		}
		m.Target = sm.From
		if m.Grade != Accurate && m.Grade != Incomplete && m.Grade != Wrong {
			return repairable("grade must be ACCURATE, INCOMPLETE or WRONG, got %q", m.Grade)
		}
	case MoveChallenge:
		to, err := th.resolve(agent, m.Target)
		if err != nil {
			return repairable("%v", err)
		}
		m.Target = to
		sm := th.steelmans[[2]string{agent, to}]
		if sm == nil || sm.Grade != Accurate {
			state := "you have not steelmanned them"
			switch {
			case sm != nil && sm.Pending:
				state = "your steelman is waiting for its grade"
			case sm != nil && sm.Grade != "":
				state = "your steelman was graded " + sm.Grade
			}
			return repairable("CHALLENGE is blocked until %s grades your steelman of their position ACCURATE (%s): STEELMAN %s first", th.name(to), state, to)
		}
	case MoveCommit:
		switch {
		case m.Side != Yes && m.Side != No && m.Side != Uncertain:
			return repairable("side must be YES, NO or UNCERTAIN, got %q", m.Side)
		case m.Side == Uncertain && th.forcedBinary:
			return repairable("the moderator forced a binary framing: commit YES or NO, not UNCERTAIN")
		case m.Confidence < 0 || m.Confidence > 1:
			return repairable("confidence must be between 0 and 1, got %g", m.Confidence)
		case strings.TrimSpace(m.TopClaim.Statement) == "":
			return repairable("top_claim.statement is empty: say what you are really arguing")
		case m.TopClaim.Side != Yes && m.TopClaim.Side != No && m.TopClaim.Side != Nuanced:
			return repairable("top_claim.side must be YES, NO or NUANCED, got %q", m.TopClaim.Side)
		case m.TopClaim.Confidence < 0 || m.TopClaim.Confidence > 1:
			return repairable("top_claim.confidence must be between 0 and 1, got %g", m.TopClaim.Confidence)
		}
	case MoveFalsifier:
		if err := ValidateFalsifier(m.Falsifier, th.created); err != nil {
			return repairable("%v", err)
		}
	}
	return nil
}

// post applies an accepted move, which check has normalised.
func (th *thread) post(turn, agent string, m Move) []event {
	th.count++
	th.stageMsgs++
	th.msgs = append(th.msgs, Message{N: th.count, Turn: turn, Agent: agent, Stage: th.stage, Move: &m})
	who := th.name(agent)
	evs := []event{{kind: "message_posted", key: turn + "#posted",
		data: map[string]any{"turn": turn, "agent": agent, "move": m.Move, "stage": th.stage, "n": th.count, "content": m.Content},
		text: fmt.Sprintf("%s: %s (%s, message %d)", who, m.Move, th.stage, th.stageMsgs)}}
	switch m.Move {
	case MovePropose:
		th.question, th.questionBy = m.Question, agent
	case MoveSteelman:
		sm := th.steelman(agent, m.Target)
		sm.Attempts++
		sm.Pending, sm.Grade, sm.Content, sm.Reason = true, "", m.Content, ""
		evs = append(evs, event{kind: "steelman_attempt", key: turn + "#steelman",
			data: map[string]any{"turn": turn, "agent": agent, "target": m.Target, "attempt": sm.Attempts},
			text: fmt.Sprintf("%s steelmans %s (attempt %d of %d)", who, th.name(m.Target), sm.Attempts, th.opts.MaxSteelmanAttempts)})
	case MoveGrade:
		sm := th.steelman(m.Target, agent)
		sm.Pending, sm.Grade, sm.Reason = false, m.Grade, m.Content
		evs = append(evs, event{kind: "steelman_graded", key: turn + "#graded",
			data: map[string]any{"turn": turn, "agent": agent, "target": m.Target, "grade": m.Grade, "attempt": sm.Attempts},
			text: fmt.Sprintf("%s grades %s's steelman %s", who, th.name(m.Target), m.Grade)})
	case MoveCommit:
		th.commitments[agent] = Commitment{Agent: agent, Side: m.Side, Confidence: m.Confidence, TopClaim: m.TopClaim, Question: th.question, Message: th.count}
		evs = append(evs, event{kind: "commitment_made", key: turn + "#commitment",
			data: map[string]any{"turn": turn, "agent": agent, "side": m.Side, "confidence": m.Confidence, "top_claim": m.TopClaim},
			text: fmt.Sprintf("%s commits %s (confidence %.0f%%)", who, m.Side, m.Confidence*100)})
	case MoveFalsifier:
		f := m.Falsifier
		f.Agent = agent
		th.falsifiers[agent] = append(th.falsifiers[agent], f)
		evs = append(evs, event{kind: "falsifier_declared", key: turn + "#falsifier",
			data: map[string]any{"turn": turn, "agent": agent, "falsifier": f},
			text: fmt.Sprintf("%s declares a falsifier: %s %s by %s", who, f.Metric, f.Threshold, f.Deadline)})
	}
	return evs
}

// refuse records a message whose move was refused even after the repair: it
// spends its slot in the stage budget and changes nothing else.
func (th *thread) refuse(turn, agent, reason string) []event {
	th.count++
	th.stageMsgs++
	th.msgs = append(th.msgs, Message{N: th.count, Turn: turn, Agent: agent, Stage: th.stage, Refused: reason})
	return []event{{kind: "move_refused", key: turn + "#refused",
		data: map[string]any{"turn": turn, "agent": agent, "stage": th.stage, "reason": reason},
		text: fmt.Sprintf("%s's message was refused and its turn is spent: %s", th.name(agent), reason)}}
}

func (th *thread) transition(to Stage, reason string) []event {
	from := th.stage
	th.transitions = append(th.transitions, Transition{From: from, To: to, Reason: reason, AtMessage: th.count})
	th.stage, th.stageMsgs = to, 0
	if to == CruxLock {
		th.lockDueAt, th.lastLockAt = th.opts.LockBudget, 0
	}
	return []event{{kind: "stage_transition", key: fmt.Sprintf("transition/%s", to),
		data: map[string]any{"from": from, "to": to, "reason": reason, "at_message": th.count},
		text: fmt.Sprintf("Stage %s → %s: %s", from, to, reason)}}
}

// ready reports whether the agents have done what the lock needs or can do
// no more of it, so that the lock need not wait for the budget.
func (th *thread) ready() bool {
	for _, p := range th.agents {
		if _, ok := th.commitments[p.ID]; !ok || len(th.validFalsifiers(p.ID)) == 0 {
			return false
		}
		o := th.opponent(p.ID)
		sm := th.steelmans[[2]string{p.ID, o}]
		if sm == nil || sm.Pending || (sm.Grade != Accurate && sm.Attempts < th.opts.MaxSteelmanAttempts) {
			return false
		}
	}
	return true
}

func (th *thread) lockDue() bool {
	since := th.stageMsgs - th.lastLockAt
	if since <= 0 {
		return false
	}
	return th.stageMsgs >= th.lockDueAt || (since >= len(th.agents) && th.ready())
}

func (th *thread) validFalsifiers(agent string) []Falsifier {
	var out []Falsifier
	for _, f := range th.falsifiers[agent] {
		if ValidateFalsifier(f, th.created) == nil {
			out = append(out, f)
		}
	}
	return out
}

// Lock criteria names.
const (
	CritCommitments = "commitments"
	CritSplit       = "yes_and_no"
	CritSteelmans   = "steelmans_accurate"
	CritFalsifiers  = "falsifiers"
)

// lockCriteria evaluates the four criteria of the crux lock gate.
func (th *thread) lockCriteria() []Criterion {
	var committed, missing []string
	sides := map[string]bool{}
	for _, p := range th.agents {
		if c, ok := th.commitments[p.ID]; ok {
			committed = append(committed, fmt.Sprintf("%s %s", p.Name, c.Side))
			sides[c.Side] = true
		} else {
			missing = append(missing, p.Name)
		}
	}
	c1 := Criterion{Name: CritCommitments, Passed: len(committed) >= 2, Detail: "committed: " + joinOr(committed, "nobody")}
	if len(missing) > 0 {
		c1.Detail += "; not committed: " + strings.Join(missing, ", ")
	}
	c2 := Criterion{Name: CritSplit, Passed: sides[Yes] && sides[No]}
	switch {
	case c2.Passed:
		c2.Detail = "YES and NO are both held"
	case len(committed) == 0:
		c2.Detail = "no commitments"
	default:
		c2.Detail = "no YES/NO split: " + strings.Join(committed, ", ")
	}
	var bad []string
	for _, p := range th.agents {
		o := th.opponent(p.ID)
		sm := th.steelmans[[2]string{p.ID, o}]
		switch {
		case sm == nil:
			bad = append(bad, fmt.Sprintf("%s has not steelmanned %s", p.Name, th.name(o)))
		case sm.Pending:
			bad = append(bad, fmt.Sprintf("%s's steelman of %s awaits its grade", p.Name, th.name(o)))
		case sm.Grade != Accurate:
			bad = append(bad, fmt.Sprintf("%s's steelman of %s was graded %s after %s", p.Name, th.name(o), sm.Grade, counted(sm.Attempts, "attempt")))
		}
	}
	c3 := Criterion{Name: CritSteelmans, Passed: len(bad) == 0, Detail: joinOr(bad, "every steelman graded ACCURATE")}
	var noF []string
	for _, p := range th.agents {
		if _, ok := th.commitments[p.ID]; ok && len(th.validFalsifiers(p.ID)) == 0 {
			noF = append(noF, p.Name)
		}
	}
	c4 := Criterion{Name: CritFalsifiers, Passed: len(committed) > 0 && len(noF) == 0}
	switch {
	case len(committed) == 0:
		c4.Detail = "no committed agent to hold a falsifier"
	case len(noF) > 0:
		c4.Detail = "no concrete falsifier: " + strings.Join(noF, ", ")
	default:
		c4.Detail = "every committed agent has a concrete falsifier"
	}
	return []Criterion{c1, c2, c3, c4}
}

// attemptLock runs the lock gate. On success the thread moves to EVIDENCE; on
// failure the moderator intervenes (clarifying prompts; binary framing forced
// after two failures; falsifiers proposed from the dialogue after three), and
// after the last attempt the thread ends without a locked crux.
func (th *thread) attemptLock() []event {
	n := len(th.locks) + 1
	cs := th.lockCriteria()
	res := LockResult{Attempt: n, Passed: true, Criteria: cs, AtMessage: th.count}
	var failed []string
	for _, c := range cs {
		if !c.Passed {
			res.Passed = false
			failed = append(failed, c.Name+" ("+c.Detail+")")
		}
	}
	th.locks = append(th.locks, res)
	th.lastLockAt = th.stageMsgs
	key := fmt.Sprintf("lock/%d", n)
	evs := []event{{kind: "lock_attempted", key: key + "#attempted", data: map[string]any{"attempt": n, "at_message": th.count},
		text: fmt.Sprintf("Crux lock attempt %d", n)}}
	if res.Passed {
		th.locked = true
		evs = append(evs, event{kind: "lock_succeeded", key: key + "#succeeded", data: map[string]any{"attempt": n, "criteria": cs, "question": th.question},
			text: fmt.Sprintf("Crux locked on attempt %d: %s", n, th.question)})
		return append(evs, th.transition(Evidence, fmt.Sprintf("crux locked on attempt %d", n))...)
	}
	evs = append(evs, event{kind: "lock_failed", key: key + "#failed", data: map[string]any{"attempt": n, "criteria": cs},
		text: fmt.Sprintf("Crux lock attempt %d failed: %s", n, strings.Join(failed, "; "))})
	if n >= th.opts.MaxLockAttempts {
		th.endReason = fmt.Sprintf("no crux could be locked in %d attempts", n)
		return append(evs, th.transition(Converged, th.endReason)...)
	}
	th.lockDueAt = th.stageMsgs + th.opts.LockRetryBudget
	iv := Intervention{Attempt: n, Kind: InterveneClarify, Text: th.clarify(cs)}
	switch n {
	case 2:
		iv.Kind = InterveneBinary
		iv.Text += " The moderator now forces a binary framing of the question: commit YES or NO again on it; UNCERTAIN is no longer accepted."
	case 3:
		iv.Kind = InterveneFalsifiers
		iv.Text += " The moderator proposes falsifiers from the dialogue for whoever still lacks one."
	}
	th.interventions = append(th.interventions, iv)
	return append(evs, event{kind: "moderator_intervention", key: fmt.Sprintf("intervention/%d", n),
		data: map[string]any{"attempt": n, "intervention": iv.Kind, "text": iv.Text}, text: "Moderator: " + iv.Text})
}

// clarify is the moderator's clarifying prompt for the failed criteria.
func (th *thread) clarify(cs []Criterion) string {
	var parts []string
	for _, c := range cs {
		if c.Passed {
			continue
		}
		switch c.Name {
		case CritCommitments:
			parts = append(parts, "Commit a side on the question with COMMIT_POSITION ("+c.Detail+").")
		case CritSplit:
			parts = append(parts, "The lock needs one YES and one NO ("+c.Detail+"): if you truly disagree, commit the side you hold; if you agree, say where you still disagree.")
		case CritSteelmans:
			parts = append(parts, "Steelman your opponent until they grade it ACCURATE ("+c.Detail+").")
		case CritFalsifiers:
			parts = append(parts, "Declare a falsifier with a metric, a numeric threshold and a dated deadline ("+c.Detail+").")
		}
	}
	return fmt.Sprintf("The crux did not lock on %q. %s", th.question, strings.Join(parts, " "))
}

// needsModerator names the moderator turn due now, or "".
func (th *thread) needsModerator() string {
	if th.stage == Discovery && th.stageMsgs >= th.opts.DiscoveryMax && th.question == "" && !th.modDone[modFrameDiscovery] {
		return modFrameDiscovery
	}
	if th.stage == CruxLock && len(th.interventions) > 0 {
		switch iv := th.interventions[len(th.interventions)-1]; {
		case iv.Kind == InterveneBinary && !th.modDone[modFrameLock]:
			return modFrameLock
		case iv.Kind == InterveneFalsifiers && !th.modDone[modFalsifiers]:
			return modFalsifiers
		}
	}
	if th.stage == Converged && !th.modDone[modCrystallise] {
		return modCrystallise
	}
	return ""
}

// applyFrame applies the moderator's binary framing (nil: it failed).
func (th *thread) applyFrame(id string, f *Frame, invalid string) []event {
	th.modDone[id] = true
	var text string
	switch {
	case f != nil:
		th.question, th.questionBy = f.Question, "moderator"
		text = "Moderator frames the question: " + f.Question
	case th.question == "":
		// Discovery ended with no question and the moderator's framing did
		// not parse: the topic itself becomes the question.
		th.question, th.questionBy = topicQuestion(th.opts.topic), "moderator"
		text = "The moderator's framing could not be used (" + invalid + "); the question is the topic: " + th.question
	default:
		text = "The moderator's framing could not be used (" + invalid + "); the question stays: " + th.question
	}
	evs := []event{{kind: "moderator_intervention", key: id, data: map[string]any{"intervention": InterveneBinary, "question": th.question, "text": text}, text: text}}
	if id == modFrameLock {
		// A new framing needs new commitments, and only YES or NO.
		th.forcedBinary = true
		th.commitments = map[string]Commitment{}
	}
	return evs
}

// applyProposals adds the moderator's falsifiers for agents without a valid one.
func (th *thread) applyProposals(p *Proposals, invalid string) []event {
	th.modDone[modFalsifiers] = true
	var added []string
	if p != nil {
		for _, f := range p.Falsifiers {
			f.Agent = strings.ToLower(strings.TrimSpace(f.Agent))
			if _, ok := th.persona(f.Agent); !ok || len(th.validFalsifiers(f.Agent)) > 0 || ValidateFalsifier(f, th.created) != nil {
				continue
			}
			f.ProposedBy = "moderator"
			th.falsifiers[f.Agent] = append(th.falsifiers[f.Agent], f)
			added = append(added, fmt.Sprintf("%s: %s %s by %s", th.name(f.Agent), f.Metric, f.Threshold, f.Deadline))
		}
	}
	text := "Moderator proposes falsifiers from the dialogue: " + joinOr(added, "none usable")
	if p == nil {
		text = "The moderator's falsifier proposals could not be used: " + invalid
	}
	return []event{{kind: "moderator_intervention", key: modFalsifiers, data: map[string]any{"intervention": InterveneFalsifiers, "added": added, "text": text}, text: text}}
}

func topicQuestion(topic string) string {
	t := strings.TrimSpace(topic)
	if ValidateBinaryQuestion(t) == nil {
		return t
	}
	return fmt.Sprintf("Does the claim %q hold?", strings.TrimRight(t, "?."))
}

func joinOr(items []string, empty string) string {
	if len(items) == 0 {
		return empty
	}
	return strings.Join(items, "; ")
}
