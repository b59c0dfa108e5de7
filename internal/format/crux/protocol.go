// Package crux is the `crux` debate format: two personas go through a staged
// pipeline (DISCOVERY → CRUX_LOCK → EVIDENCE → CONVERGED) with hard gates, a
// steelman-before-challenge protocol, YES/NO commitments, concrete falsifiers
// and a four-criteria crux lock, and end with the crux: the yes/no question
// they really disagree on and the evidence that would settle it.
package crux

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Name is the format's name.
const Name = "crux"

// Options are the format's settings, stored with the debate. The budgets are
// counted in agent messages; zero values take the spec's defaults.
type Options struct {
	// Personas are the two debaters, frozen at creation. Empty, the
	// moderator casts them first: two opposed personas from Catalog for the
	// topic, or two it writes when none fit.
	Personas []Persona `json:"personas"`
	// Catalog is what the moderator may cast from (the built-in personas or
	// the user's file), when Personas is empty.
	Catalog []Persona `json:"catalog,omitempty"`
	// DiscoveryMin and DiscoveryMax bound DISCOVERY: it ends once a binary
	// question is proposed and DiscoveryMin messages were posted, or at
	// DiscoveryMax (the moderator frames a question if none was proposed).
	DiscoveryMin int `json:"discovery_min"`
	DiscoveryMax int `json:"discovery_max"`
	// LockBudget is the CRUX_LOCK messages before the first lock attempt
	// (earlier when both agents have done what the lock needs);
	// LockRetryBudget the messages after each failed attempt.
	LockBudget      int `json:"lock_budget"`
	LockRetryBudget int `json:"lock_retry_budget"`
	// MaxLockAttempts ends the debate without a locked crux.
	MaxLockAttempts int `json:"max_lock_attempts"`
	// MaxSteelmanAttempts is the tries per (steelmanner, target) pair.
	MaxSteelmanAttempts int `json:"max_steelman_attempts"`
	// EvidenceBudget is the EVIDENCE messages.
	EvidenceBudget int `json:"evidence_budget"`

	topic string
}

// Defaults from the spec.
const (
	DefaultDiscoveryMin        = 6
	DefaultDiscoveryMax        = 10
	DefaultLockBudget          = 8
	DefaultLockRetryBudget     = 4
	DefaultMaxLockAttempts     = 4
	DefaultMaxSteelmanAttempts = 3
	DefaultEvidenceBudget      = 12
)

// Validate checks options and fills defaults.
func (o *Options) Validate() error {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.DiscoveryMin, DefaultDiscoveryMin)
	def(&o.DiscoveryMax, DefaultDiscoveryMax)
	def(&o.LockBudget, DefaultLockBudget)
	def(&o.LockRetryBudget, DefaultLockRetryBudget)
	def(&o.MaxLockAttempts, DefaultMaxLockAttempts)
	def(&o.MaxSteelmanAttempts, DefaultMaxSteelmanAttempts)
	def(&o.EvidenceBudget, DefaultEvidenceBudget)
	if len(o.Personas) != 0 || len(o.Catalog) == 0 {
		if err := validPair(o.Personas); err != nil {
			return err
		}
	}
	for name, v := range map[string]int{"discovery_min": o.DiscoveryMin, "discovery_max": o.DiscoveryMax, "lock_budget": o.LockBudget,
		"lock_retry_budget": o.LockRetryBudget, "max_lock_attempts": o.MaxLockAttempts, "max_steelman_attempts": o.MaxSteelmanAttempts, "evidence_budget": o.EvidenceBudget} {
		if v < 1 || v > 100 {
			return fmt.Errorf("crux option %s = %d: choose 1 to 100", name, v)
		}
	}
	if o.DiscoveryMin > o.DiscoveryMax {
		return fmt.Errorf("crux option discovery_min %d exceeds discovery_max %d", o.DiscoveryMin, o.DiscoveryMax)
	}
	return nil
}

// Protocol is the crux format's rules.
type Protocol struct {
	topic string
	opts  Options
}

// NewProtocol returns the protocol for a topic.
func NewProtocol(topic string, opts Options) (*Protocol, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts.topic = topic
	return &Protocol{topic: topic, opts: opts}, nil
}

// validPair checks two distinct, complete personas.
func validPair(ps []Persona) error {
	if len(ps) != 2 {
		return fmt.Errorf("crux debates two personas, got %d: for example --agents saylor,hayes", len(ps))
	}
	if ps[0].ID == ps[1].ID {
		return fmt.Errorf("persona %q cannot debate itself", ps[0].ID)
	}
	for _, p := range ps {
		if !personaIDRe().MatchString(p.ID) || p.Name == "" || p.Viewpoint == "" {
			return fmt.Errorf("persona %q needs an id of lowercase letters, digits and hyphens, a name and a viewpoint", p.ID)
		}
	}
	return nil
}

// Cast is the moderator's choice of the two personas.
type Cast struct {
	Personas  []Persona `json:"personas"`
	Rationale string    `json:"rationale"`
}

// Moderator turn ids.
const (
	modCast           = "moderator/cast"
	agentModerator    = "moderator"
	roleModerator     = "moderator"
	roleDebater       = "persona"
	modFrameDiscovery = "moderator/frame-question"
	modFrameLock      = "moderator/binary-framing"
	modFalsifiers     = "moderator/falsifiers"
	modCrystallise    = "moderator/crystallise"
)

func msgID(n int, agent string) string { return fmt.Sprintf("m%02d/%s", n, agent) }

// view is what Next derives from the state; the renderer uses it too.
type view struct {
	th             *thread
	crystal        *Crystallisation
	crystalInvalid string
	result         *Result
	emit           []debate.Payload
	pending        *debate.Step
	pendingTurn    *debate.TurnSpec
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
	return debate.Step{Emit: v.emit, Done: true, Verdict: v.result, Reason: v.result.EndReason}, nil
}

// derive replays the completed turns through the thread's rules: the first
// turn not done yet is pending; events the log lacks are emitted with it.
func (p *Protocol) derive(s *debate.State) (*view, error) {
	opts := p.opts
	if len(opts.Personas) == 0 {
		// No personas given: the moderator casts two opposed ones first,
		// and the debate must not start without a valid cast.
		t, next, pause := debate.ResultAttempt(s, modCast, "the moderator's choice of personas")
		switch {
		case pause != nil:
			return &view{th: newThread(opts, s.Created), pending: pause}, nil
		case t == nil:
			v := &view{th: newThread(opts, s.Created)}
			ct := p.castTurn(next)
			p.pend(s, v, ct)
			return v, nil
		}
		var c Cast
		if err := json.Unmarshal(t.Move, &c); err != nil {
			return nil, fmt.Errorf("crux: the recorded cast does not decode: %w", err)
		}
		opts.Personas = c.Personas
	}
	th := newThread(opts, s.Created)
	v := &view{th: th}
	noted := map[string]bool{}
	for _, n := range s.Notes {
		var d struct {
			Key string `json:"key"`
		}
		if strings.HasPrefix(n.Kind, "crux.") && json.Unmarshal(n.Data, &d) == nil {
			noted[d.Key] = true
		}
	}
	add := func(evs []event) {
		for _, e := range evs {
			if !noted[e.key] {
				noted[e.key] = true
				v.emit = append(v.emit, e.note())
			}
		}
	}
	for range maxSteps {
		if id := th.needsModerator(); id != "" {
			t := s.Completed(id)
			if t == nil {
				p.pend(s, v, p.moderatorTurn(s, th, id))
				return v, nil
			}
			switch id {
			case modFrameDiscovery, modFrameLock:
				var f *Frame
				if t.Invalid == "" {
					f = &Frame{}
					if json.Unmarshal(t.Move, f) != nil {
						f = nil
					}
				}
				add(th.applyFrame(id, f, invalidOr(t)))
			case modFalsifiers:
				var pr *Proposals
				if t.Invalid == "" {
					pr = &Proposals{}
					if json.Unmarshal(t.Move, pr) != nil {
						pr = nil
					}
				}
				add(th.applyProposals(pr, invalidOr(t)))
			case modCrystallise:
				th.modDone[id] = true
				if t.Invalid == "" {
					c := &Crystallisation{}
					if json.Unmarshal(t.Move, c) == nil {
						v.crystal = c
					}
				}
				if v.crystal == nil {
					v.crystalInvalid = invalidOr(t)
				}
			}
			continue
		}
		switch th.stage {
		case Discovery:
			if th.question != "" && (th.stageMsgs >= th.opts.DiscoveryMin || th.stageMsgs >= th.opts.DiscoveryMax) {
				reason := fmt.Sprintf("binary question proposed by %s: %s", th.name(th.questionBy), th.question)
				if th.questionBy == "moderator" {
					reason = "discovery budget spent; the moderator framed the question: " + th.question
				}
				add(th.transition(CruxLock, reason))
				continue
			}
		case CruxLock:
			if th.lockDue() {
				add(th.attemptLock())
				continue
			}
		case Evidence:
			if th.stageMsgs >= th.opts.EvidenceBudget {
				th.endReason = fmt.Sprintf("evidence budget (%d messages) spent", th.opts.EvidenceBudget)
				add(th.transition(Converged, th.endReason))
				continue
			}
		case Converged:
			res := p.result(th, v)
			v.result = &res
			add([]event{completeEvent(res)})
			return v, nil
		}
		agent := th.agents[th.count%len(th.agents)].ID
		id := msgID(th.count+1, agent)
		t := s.Completed(id)
		if t == nil {
			p.pend(s, v, p.agentTurn(s, th, agent, id))
			return v, nil
		}
		var m Move
		if t.Invalid != "" || json.Unmarshal(t.Move, &m) != nil {
			add(th.refuse(id, agent, invalidOr(t)))
			continue
		}
		add(th.post(id, agent, m))
	}
	return nil, fmt.Errorf("crux: the debate did not settle after %d steps", maxSteps)
}

// maxSteps bounds the replay: budgets end every stage long before it.
const maxSteps = 5000

func invalidOr(t *debate.Turn) string {
	if t.Invalid != "" {
		return t.Invalid
	}
	return "the recorded move does not decode"
}

func (p *Protocol) pend(s *debate.State, v *view, t debate.TurnSpec) {
	st := &debate.Step{Emit: v.emit, Turns: []debate.TurnSpec{t}}
	label := "Stage " + string(v.th.stage)
	if s.Phase.Label != label {
		st.Emit = append(st.Emit, debate.PhaseChanged{Phase: strings.ToLower(string(v.th.stage)), Label: label})
	}
	v.pending, v.pendingTurn = st, &t
}

// Parse implements debate.Protocol.
func (p *Protocol) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	v, err := p.derive(s)
	if err != nil {
		return nil, err
	}
	if v.pendingTurn == nil || v.pendingTurn.ID != t.ID {
		return nil, fmt.Errorf("crux: turn %s is not the turn the debate is waiting for", t.ID)
	}
	th := v.th
	if t.ID == modCast || strings.HasPrefix(t.ID, modCast+"/retry-") {
		return p.parseCast(text)
	}
	switch t.ID {
	case modFrameDiscovery, modFrameLock:
		var f Frame
		if err := debate.DecodeMove(text, &f); err != nil {
			return nil, err
		}
		f.Question = strings.TrimSpace(f.Question)
		if err := ValidateBinaryQuestion(f.Question); err != nil {
			return nil, repairable("%v", err)
		}
		return f, nil
	case modFalsifiers:
		var pr Proposals
		if err := debate.DecodeMove(text, &pr); err != nil {
			return nil, err
		}
		for i, f := range pr.Falsifiers {
			if _, ok := th.persona(strings.ToLower(strings.TrimSpace(f.Agent))); !ok {
				return nil, repairable("falsifier %d: agent %q is not in this debate (use %s)", i+1, f.Agent, strings.Join(th.ids(), " or "))
			}
			if err := ValidateFalsifier(f, th.created); err != nil {
				return nil, repairable("falsifier %d: %v", i+1, err)
			}
		}
		return pr, nil
	case modCrystallise:
		var c Crystallisation
		if err := debate.DecodeMove(text, &c); err != nil {
			return nil, err
		}
		if strings.TrimSpace(c.Summary) == "" {
			return nil, repairable("summary is empty")
		}
		seen := map[string]bool{}
		for i := range c.Counterfactual {
			id := strings.ToLower(strings.TrimSpace(c.Counterfactual[i].Agent))
			if _, ok := th.persona(id); !ok {
				return nil, repairable("counterfactual: agent %q is not in this debate (use %s)", c.Counterfactual[i].Agent, strings.Join(th.ids(), " and "))
			}
			c.Counterfactual[i].Agent, seen[id] = id, true
		}
		for _, id := range th.ids() {
			if !seen[id] {
				return nil, repairable("counterfactual: say whether %s's top claim would flip", id)
			}
		}
		return c, nil
	}
	var m Move
	if err := debate.DecodeMove(text, &m); err != nil {
		return nil, err
	}
	if err := th.check(t.Agent, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func (th *thread) ids() []string {
	out := make([]string, len(th.agents))
	for i, p := range th.agents {
		out[i] = p.ID
	}
	return out
}

// Result is the verdict of a crux debate: the spec's crux document and how
// the debate reached it.
type Result struct {
	Crux         Crux         `json:"crux"`
	Topic        string       `json:"topic"`
	Personas     []Persona    `json:"personas"`
	Stages       []Transition `json:"stages"`
	LockAttempts []LockResult `json:"lock_attempts"`
	// Steelmans are the steelman pairs (each persona of its opponent) with
	// their last grade and attempts: the spec's LockedCrux carries them
	// beside the commitments and the falsifiers.
	Steelmans     []Steelman     `json:"steelmans"`
	Interventions []Intervention `json:"interventions,omitempty"`
	Concessions   []Concession   `json:"concessions,omitempty"`
	Messages      int            `json:"messages"`
	Refused       int            `json:"refused"`
	EndReason     string         `json:"end_reason"`
}

// Crux is the crystallised crux.
type Crux struct {
	Question           string                    `json:"question"`
	Positions          map[string]Position       `json:"positions"`
	Falsifiers         []Falsifier               `json:"falsifiers"`
	Counterfactual     map[string]Counterfactual `json:"counterfactual"`
	ResolutionCriteria []string                  `json:"resolution_criteria"`
	Summary            string                    `json:"summary,omitempty"`
	Locked             bool                      `json:"locked"`
	Validated          bool                      `json:"validated"`
	Validation         []Criterion               `json:"validation"`
}

// Concession is a CONCEDE move. One that leaves the conceder's top claim
// unchanged is cheap: it concedes a detail, not the argument.
type Concession struct {
	Agent           string `json:"agent"`
	Message         int    `json:"message"`
	Content         string `json:"content"`
	TopClaimChanged bool   `json:"top_claim_changed"`
	Cheap           bool   `json:"cheap"`
}

// Position is an agent's final committed position.
type Position struct {
	Name       string   `json:"name"`
	Side       string   `json:"side"`
	Confidence float64  `json:"confidence"`
	TopClaim   TopClaim `json:"top_claim"`
}

// Validation check names.
const (
	CheckLocked       = "crux_locked"
	CheckDisagreement = "real_disagreement"
	CheckFalsifiers   = "concrete_falsifiers"
	CheckRelevant     = "decision_relevant"
	CheckResolution   = "resolution_criteria"
)

func (p *Protocol) result(th *thread, v *view) Result {
	c := Crux{Question: th.question, Positions: map[string]Position{}, Counterfactual: map[string]Counterfactual{}, Locked: th.locked, Falsifiers: []Falsifier{}, ResolutionCriteria: []string{}}
	sides := map[string]bool{}
	for _, a := range th.agents {
		if cm, ok := th.commitments[a.ID]; ok {
			c.Positions[a.ID] = Position{Name: a.Name, Side: cm.Side, Confidence: cm.Confidence, TopClaim: cm.TopClaim}
			sides[cm.Side] = true
		}
		for _, f := range th.falsifiers[a.ID] {
			c.Falsifiers = append(c.Falsifiers, f)
			side := "its position"
			if cm, ok := th.commitments[a.ID]; ok {
				side = cm.Side
			}
			c.ResolutionCriteria = append(c.ResolutionCriteria, fmt.Sprintf("Resolves against %s's %s if %s is %s by %s", a.Name, side, f.Metric, f.Threshold, f.Deadline))
		}
	}
	flips := 0
	if v.crystal != nil {
		c.Summary = v.crystal.Summary
		for _, cf := range v.crystal.Counterfactual {
			c.Counterfactual[cf.Agent] = cf
			if cf.WouldFlip {
				flips++
			}
		}
	}
	var bad []string
	for _, f := range c.Falsifiers {
		if err := ValidateFalsifier(f, th.created); err != nil {
			bad = append(bad, err.Error())
		}
	}
	c.Validation = []Criterion{
		{Name: CheckLocked, Passed: th.locked, Detail: lockDetail(th)},
		{Name: CheckDisagreement, Passed: sides[Yes] && sides[No], Detail: sideDetail(th)},
		{Name: CheckFalsifiers, Passed: len(c.Falsifiers) > 0 && len(bad) == 0, Detail: joinOr(bad, counted(len(c.Falsifiers), "concrete falsifier"))},
		{Name: CheckRelevant, Passed: flips >= 2, Detail: fmt.Sprintf("%s would flip their top claim if the crux flipped; 2 needed", counted(flips, "agent"))},
		{Name: CheckResolution, Passed: len(c.ResolutionCriteria) > 0, Detail: fmt.Sprintf("%d criteria derived from the falsifiers", len(c.ResolutionCriteria))},
	}
	if v.crystal == nil {
		c.Validation[3].Detail = "the moderator's crystallisation could not be used: " + v.crystalInvalid
	}
	c.Validated = true
	for _, x := range c.Validation {
		c.Validated = c.Validated && x.Passed
	}
	res := Result{Crux: c, Topic: p.topic, Personas: th.agents, Stages: th.transitions, LockAttempts: th.locks, Interventions: th.interventions, Messages: th.count, EndReason: th.endReason}
	for _, m := range th.msgs {
		if m.Refused != "" {
			res.Refused++
		}
		if m.Move != nil && m.Move.Move == MoveConcede {
			res.Concessions = append(res.Concessions, Concession{Agent: m.Agent, Message: m.N, Content: m.Move.Content,
				TopClaimChanged: m.Move.TopClaimChanged, Cheap: !m.Move.TopClaimChanged})
		}
	}
	if res.LockAttempts == nil {
		res.LockAttempts = []LockResult{}
	}
	res.Steelmans = th.steelmanPairs()
	return res
}

// steelmanPairs lists, in persona order, each persona's steelman of its
// opponent; a pair never attempted is listed with no attempts, so that the
// report shows who did not steelman.
func (th *thread) steelmanPairs() []Steelman {
	out := []Steelman{}
	for _, a := range th.agents {
		o := th.opponent(a.ID)
		if sm := th.steelmans[[2]string{a.ID, o}]; sm != nil {
			out = append(out, *sm)
		} else {
			out = append(out, Steelman{From: a.ID, To: o})
		}
	}
	return out
}

func lockDetail(th *thread) string {
	if th.locked {
		return fmt.Sprintf("locked on attempt %d", len(th.locks))
	}
	return "not locked after " + counted(len(th.locks), "attempt")
}

func sideDetail(th *thread) string {
	var parts []string
	for _, a := range th.agents {
		if cm, ok := th.commitments[a.ID]; ok {
			parts = append(parts, a.Name+" "+cm.Side)
		} else {
			parts = append(parts, a.Name+" uncommitted")
		}
	}
	return strings.Join(parts, ", ")
}

func completeEvent(res Result) event {
	status := "validated"
	if !res.Crux.Validated {
		var failed []string
		for _, c := range res.Crux.Validation {
			if !c.Passed {
				failed = append(failed, c.Name)
			}
		}
		status = "not validated: " + strings.Join(failed, ", ")
	}
	return event{kind: "debate_complete", key: "complete", data: map[string]any{"crux": res.Crux},
		text: fmt.Sprintf("Crux: %s (%s)", res.Crux.Question, status)}
}

// Cast implements debate.Caster: the personas of the options, or the ones
// the moderator cast once it has.
func (p *Protocol) Cast(s *debate.State) []string {
	personas := p.opts.Personas
	if len(personas) == 0 {
		t, _, _ := debate.ResultAttempt(s, modCast, "the moderator's choice of personas")
		var c Cast
		if t == nil || json.Unmarshal(t.Move, &c) != nil {
			return nil
		}
		personas = c.Personas
	}
	out := make([]string, 0, len(personas))
	for _, a := range personas {
		out = append(out, a.ID)
	}
	return out
}
