// Package council is the `council` debate format: three analysts (search,
// sentiment, valuation by default) each analyse a company, then debate GO or
// NOGO round-robin, every turn challenging the weakest opposing argument,
// until they agree or the rounds run out and the last round is put to a
// majority vote (a tie is NOGO).
package council

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
)

// Name is the format's name.
const Name = "council"

// Risk stances.
const (
	RiskNeutral = "neutral"
	RiskAverse  = "averse"
)

// Limits and defaults from the spec.
const (
	DefaultMaxRounds = 3
	MaxMaxRounds     = 5
	MinAgents        = 2
	MaxAgents        = 6
	// AnalysisExcerpt bounds how much of an agent's own analysis its debate
	// prompt quotes, as the spec's phase1_analysis[:2000].
	AnalysisExcerpt = 2000
)

// Agent is one analyst of the council.
type Agent struct {
	ID    string `json:"id"`    // turn-id slug: "search"
	Name  string `json:"name"`  // "Search"
	Focus string `json:"focus"` // the domain framing of its prompts
}

// DefaultAgents are the spec's three analysts with their domain framing.
func DefaultAgents() []Agent {
	return []Agent{
		{ID: "search", Name: "Search", Focus: "the founders and team, the product, and the market gap the company fills: what public sources say about who is building it and whether the problem is real"},
		{ID: "sentiment", Name: "Sentiment", Focus: "press coverage, community and customer sentiment, and momentum: how the market, users and media talk about the company"},
		{ID: "valuation", Name: "Valuation", Focus: "market size, comparable companies and their multiples, and whether the company's valuation and economics hold up against them"},
	}
}

var idRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`) })

// AgentsFromNames builds the council from agent names: the default analysts
// by their ids, anyone else with a generic framing of their own name.
func AgentsFromNames(names []string) ([]Agent, error) {
	if len(names) == 0 {
		return DefaultAgents(), nil
	}
	known := map[string]Agent{}
	for _, a := range DefaultAgents() {
		known[a.ID] = a
	}
	var out []Agent
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		id := strings.Trim(strings.Join(strings.Fields(strings.ToLower(n)), "-"), "-")
		id = strings.TrimSuffix(id, "-agent")
		if !idRe().MatchString(id) {
			return nil, fmt.Errorf("--agents: %q is not a usable agent name: use letters, digits and hyphens (for example search,sentiment,valuation)", n)
		}
		if seen[id] {
			return nil, fmt.Errorf("--agents: %q is given twice", n)
		}
		seen[id] = true
		if a, ok := known[id]; ok {
			out = append(out, a)
			continue
		}
		name := strings.ToUpper(id[:1]) + strings.ReplaceAll(id[1:], "-", " ")
		out = append(out, Agent{ID: id, Name: name, Focus: "the company from the angle of a " + strings.ReplaceAll(id, "-", " ") + " analyst: the evidence that angle weighs most"})
	}
	return out, nil
}

// Options are the format's settings, stored with the debate.
type Options struct {
	Agents    []Agent `json:"agents"`
	MaxRounds int     `json:"max_rounds"`
	Risk      string  `json:"risk"`
	// Listed is set when the subject is a listed company: the analysts then
	// research it with the SEC tools in phase 1.
	Listed *Listed `json:"listed,omitempty"`
	// SourceAsked is the SEC data asked for a subject that may be a listed
	// company (a ticker-like topic, or --snapshot): bullbear.SourceEDGAR or
	// bullbear.SourceSnapshot, whether or not the subject was found. It is
	// part of the question the debate asks. Empty for another subject, and
	// in debates created before it.
	SourceAsked string `json:"source_asked,omitempty"`
}

// Listed identifies the listed company a council debates, and where its SEC
// data come from.
type Listed struct {
	Ticker  string `json:"ticker"`
	CIK     string `json:"cik"`
	Name    string `json:"name"`
	Offline bool   `json:"offline,omitempty"`
	Data    string `json:"data"` // the data source's label, e.g. the snapshot's date
}

// Validate checks options and fills defaults.
func (o *Options) Validate() error {
	if len(o.Agents) == 0 {
		o.Agents = DefaultAgents()
	}
	if o.MaxRounds == 0 {
		o.MaxRounds = DefaultMaxRounds
	}
	if o.Risk == "" {
		o.Risk = RiskNeutral
	}
	if o.MaxRounds < 1 || o.MaxRounds > MaxMaxRounds {
		return fmt.Errorf("--max-rounds %d: the council debates 1 to %d rounds", o.MaxRounds, MaxMaxRounds)
	}
	if o.Risk != RiskNeutral && o.Risk != RiskAverse {
		return fmt.Errorf("--risk %q: choose neutral or averse", o.Risk)
	}
	if len(o.Agents) < MinAgents || len(o.Agents) > MaxAgents {
		return fmt.Errorf("--agents: the council needs %d to %d agents, got %d", MinAgents, MaxAgents, len(o.Agents))
	}
	seen := map[string]bool{}
	for _, a := range o.Agents {
		if !idRe().MatchString(a.ID) || a.Name == "" {
			return fmt.Errorf("agent %q: an agent needs an id of letters, digits and hyphens and a name", a.ID)
		}
		if seen[a.ID] {
			return fmt.Errorf("agent %q is in the council twice", a.ID)
		}
		seen[a.ID] = true
	}
	return nil
}

// Protocol is the council format's rules.
type Protocol struct {
	company string
	opts    Options
}

// NewProtocol returns the protocol for a company.
func NewProtocol(company string, opts Options) (*Protocol, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Protocol{company: company, opts: opts}, nil
}

const (
	roleAnalyst   = "analyst"
	noteRound     = "council.round"
	noteFallback  = "council.fallback"
	noteConsensus = "council.verdict"
)

func analysisID(a Agent) string        { return "analysis/" + a.ID }
func turnID(round int, a Agent) string { return fmt.Sprintf("r%d/%s", round, a.ID) }

// Result is the council's verdict.
type Result struct {
	Company          string  `json:"company"`
	Decision         string  `json:"decision"` // GO | NOGO
	ConsensusReached bool    `json:"consensus_reached"`
	Rounds           int     `json:"rounds"`
	MaxRounds        int     `json:"max_rounds"`
	Risk             string  `json:"risk"`
	Reason           string  `json:"reason"`
	Votes            Votes   `json:"votes"`
	DebateRounds     []Round `json:"debate_rounds"`
}

// Votes counts the final round.
type Votes struct {
	GO   int `json:"go"`
	NOGO int `json:"nogo"`
}

// view is what Next derives from the state; the renderer uses it too.
type view struct {
	analyses map[string]*debate.Turn
	rounds   []Round // complete rounds
	partial  []Position
	result   *Result
	pending  *debate.Step
}

// Next implements debate.Protocol.
func (p *Protocol) Next(s *debate.State) (debate.Step, error) {
	v := p.derive(s)
	if v.pending != nil {
		return *v.pending, nil
	}
	return debate.Step{Done: true, Verdict: v.result, Reason: v.result.Reason}, nil
}

func (p *Protocol) derive(s *debate.State) *view {
	v := &view{analyses: map[string]*debate.Turn{}}
	// Phase 1: every analyst analyses the company, in parallel.
	var missing []debate.TurnSpec
	for _, a := range p.opts.Agents {
		if t := s.Completed(analysisID(a)); t != nil {
			v.analyses[a.ID] = t
		} else {
			missing = append(missing, p.analysisTurn(s, a))
		}
	}
	if len(missing) > 0 {
		v.pending = withPhase(s, "analysis", "Phase 1: analysis", 0, missing...)
		return v
	}
	// Phase 2: round-robin debate.
	var emit []debate.Payload
	for r := 1; r <= p.opts.MaxRounds; r++ {
		v.partial = nil
		for _, a := range p.opts.Agents {
			t := s.Completed(turnID(r, a))
			if t == nil {
				st := withPhase(s, fmt.Sprintf("r%d", r), fmt.Sprintf("Round %d debate", r), r, p.debateTurn(s, v, r, a))
				st.Emit = append(emit, st.Emit...)
				v.pending = st
				return v
			}
			pos := positionOf(t, a, r)
			if pos.Fallback && !hasNote(s, noteFallback, t.ID) {
				emit = append(emit, note(noteFallback, noteData{Turn: t.ID, Round: r, Agent: a.ID},
					fmt.Sprintf("%s's round %d reply could not be used; it counts as the fallback position NOGO (confidence 0): %s", a.Name, r, pos.FallbackReason)))
			}
			v.partial = append(v.partial, pos)
		}
		rd := Round{Round: r, Positions: v.partial}
		rd.ConsensusReached, rd.ConsensusPosition = CheckConsensus(rd.Positions)
		v.rounds = append(v.rounds, rd)
		v.partial = nil
		if key := fmt.Sprintf("round/%d", r); !hasNote(s, noteRound, key) {
			emit = append(emit, note(noteRound, noteData{Turn: key, Round: r, Consensus: rd.ConsensusPosition}, progressLine(p.opts.Agents, rd)))
		}
		if rd.ConsensusReached {
			break
		}
	}
	res := p.result(v.rounds)
	v.result = &res
	if !hasNote(s, noteConsensus, "verdict") {
		emit = append(emit, note(noteConsensus, noteData{Turn: "verdict", Round: res.Rounds, Consensus: res.Decision},
			fmt.Sprintf("Verdict: %s (%s)", res.Decision, res.Reason)))
	}
	if len(emit) > 0 {
		v.pending = &debate.Step{Emit: emit}
	}
	return v
}

func (p *Protocol) result(rounds []Round) Result {
	res := Result{Company: p.company, MaxRounds: p.opts.MaxRounds, Risk: p.opts.Risk, DebateRounds: rounds, Rounds: len(rounds)}
	if len(rounds) == 0 {
		res.Decision, res.Reason = NOGO, "no debate round completed"
		return res
	}
	last := rounds[len(rounds)-1]
	res.Votes.GO, res.Votes.NOGO = tally(last.Positions)
	if last.ConsensusReached {
		res.Decision, res.ConsensusReached = last.ConsensusPosition, true
		res.Reason = fmt.Sprintf("consensus on %s in round %d", last.ConsensusPosition, last.Round)
		return res
	}
	res.Decision = MajorityVote(rounds)
	after := fmt.Sprintf("%d rounds", len(rounds))
	if len(rounds) == 1 {
		after = "1 round"
	}
	if res.Votes.GO == res.Votes.NOGO {
		res.Reason = fmt.Sprintf("no consensus after %s; the final round tied %d-%d, and a tie is NOGO", after, res.Votes.GO, res.Votes.NOGO)
	} else {
		res.Reason = fmt.Sprintf("no consensus after %s; majority vote of the final round: %d GO, %d NOGO", after, res.Votes.GO, res.Votes.NOGO)
	}
	return res
}

// progressLine is the spec's per-round status:
// "Round 2: Search: GO, Sentiment: NOGO, Valuation: GO (no consensus)".
func progressLine(agents []Agent, rd Round) string {
	parts := make([]string, 0, len(rd.Positions))
	for _, ps := range rd.Positions {
		s := ps.Name + ": " + ps.Position
		if ps.Fallback {
			s += " (fallback)"
		}
		parts = append(parts, s)
	}
	status := "no consensus"
	if rd.ConsensusReached {
		status = "consensus: " + rd.ConsensusPosition
	}
	return fmt.Sprintf("Round %d: %s (%s)", rd.Round, strings.Join(parts, ", "), status)
}

// positionOf reads a completed debate turn; a turn that did not parse after
// its repair is the spec's fallback position.
func positionOf(t *debate.Turn, a Agent, round int) Position {
	pos := Position{Agent: a.ID, Name: a.Name, Round: round}
	var r reply
	if t.Invalid == "" && json.Unmarshal(t.Move, &r) == nil {
		pos.Position, pos.Confidence, pos.Rationale, pos.Challenges, pos.PersuadedBy = r.Position, r.Confidence, r.Rationale, r.Challenges, r.PersuadedBy
		return pos
	}
	reason := t.Invalid
	if reason == "" {
		reason = "the recorded move does not decode"
	}
	pos.Position, pos.Confidence, pos.Fallback, pos.FallbackReason = NOGO, 0, true, reason
	pos.Rationale = "Fallback position: the reply could not be parsed."
	return pos
}

// previousPosition is an agent's last position of its own (fallbacks are not
// the agent's view) before a round, or "".
func (p *Protocol) previousPosition(s *debate.State, a Agent, before int) (string, int) {
	for r := before - 1; r >= 1; r-- {
		if t := s.Completed(turnID(r, a)); t != nil {
			if pos := positionOf(t, a, r); !pos.Fallback {
				return pos.Position, r
			}
		}
	}
	return "", 0
}

// Parse implements debate.Protocol.
func (p *Protocol) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	if strings.HasPrefix(t.ID, "analysis/") {
		text = strings.TrimSpace(text)
		if text == "" {
			return nil, fmt.Errorf("%w: the analysis is empty", debate.ErrRepairable)
		}
		return nil, nil
	}
	var a Agent
	for _, x := range p.opts.Agents {
		if x.ID == t.Agent {
			a = x
		}
	}
	if a.ID == "" {
		return nil, fmt.Errorf("turn %s: agent %q is not in the council", t.ID, t.Agent)
	}
	var r reply
	if err := debate.DecodeMove(text, &r); err != nil {
		return nil, err
	}
	r.Position = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(r.Position), "-", ""))
	r.Position = strings.ReplaceAll(r.Position, " ", "")
	switch {
	case r.Position != GO && r.Position != NOGO:
		return nil, fmt.Errorf("%w: position must be GO or NOGO, got %q", debate.ErrRepairable, r.Position)
	case r.Confidence < 0 || r.Confidence > 1:
		return nil, fmt.Errorf("%w: confidence must be between 0 and 1, got %g", debate.ErrRepairable, r.Confidence)
	case strings.TrimSpace(r.Rationale) == "":
		return nil, fmt.Errorf("%w: rationale is empty", debate.ErrRepairable)
	}
	if r.Challenges == nil {
		r.Challenges = []string{}
	}
	r.PersuadedBy = strings.TrimSpace(r.PersuadedBy)
	if prev, pr := p.previousPosition(s, a, t.Round); prev != "" && prev != r.Position && r.PersuadedBy == "" {
		return nil, fmt.Errorf("%w: your position changed from %s (round %d) to %s: persuaded_by must name who persuaded you and with which argument; if no argument persuaded you, keep %s",
			debate.ErrRepairable, prev, pr, r.Position, prev)
	}
	return r, nil
}

func withPhase(s *debate.State, phase, label string, round int, turns ...debate.TurnSpec) *debate.Step {
	st := &debate.Step{Turns: turns}
	if s.Phase.Label != label {
		st.Emit = []debate.Payload{debate.PhaseChanged{Phase: phase, Label: label, Round: round}}
	}
	return st
}

// noteData is the payload of the format's notes; Turn is the note's key.
type noteData struct {
	Turn      string `json:"turn"`
	Round     int    `json:"round,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Consensus string `json:"consensus,omitempty"`
}

func note(kind string, d noteData, text string) debate.Note {
	data, _ := json.Marshal(d)
	return debate.Note{Kind: kind, Data: data, Text: text}
}

func hasNote(s *debate.State, kind, key string) bool {
	for _, n := range s.Notes {
		var d noteData
		if n.Kind == kind && json.Unmarshal(n.Data, &d) == nil && d.Turn == key {
			return true
		}
	}
	return false
}

// Cast implements debate.Caster: the analysts of the options.
func (p *Protocol) Cast(*debate.State) []string {
	out := make([]string, 0, len(p.opts.Agents))
	for _, a := range p.opts.Agents {
		out = append(out, a.ID)
	}
	return out
}
