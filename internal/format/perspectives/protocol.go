// Package perspectives is the `perspectives` debate format: a moderator reads
// the question, assigns 2-4 perspectives from a catalog, runs rounds of
// parallel arguments and sequential rebuttals, evaluates convergence, stops at
// human checkpoints, and writes a decision document.
package perspectives

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Name is the format's name.
const Name = "perspectives"

// Options are the format's settings, stored with the debate so that a resumed
// debate follows the same rules.
type Options struct {
	// Perspectives is the number of debaters (2-4); 0 lets the moderator decide.
	Perspectives int `json:"perspectives"`
	// MaxRounds caps the rounds (default 5).
	MaxRounds int `json:"max_rounds"`
	// Checkpoints asks the human after each round.
	Checkpoints bool `json:"checkpoints"`
	// Catalog is the effective perspective catalog, frozen at creation.
	Catalog Catalog `json:"catalog"`
}

// Defaults from the spec.
const (
	DefaultMaxRounds = 5
	// MaxMaxRounds caps --max-rounds.
	MaxMaxRounds    = 20
	MaxPerspectives = 4
	MinPerspectives = 2
	// RepetitionThreshold is the share of an argument that may repeat the
	// same debater's previous-round argument before it is flagged.
	RepetitionThreshold = 0.6
)

// Validate checks options and fills defaults.
func (o *Options) Validate() error {
	if o.MaxRounds == 0 {
		o.MaxRounds = DefaultMaxRounds
	}
	if o.MaxRounds < 1 || o.MaxRounds > MaxMaxRounds {
		return fmt.Errorf("--max-rounds %d: choose 1 to %d", o.MaxRounds, MaxMaxRounds)
	}
	if o.Perspectives != 0 && (o.Perspectives < MinPerspectives || o.Perspectives > MaxPerspectives) {
		return fmt.Errorf("--perspectives %d: choose %d to %d, or 0 to let the moderator decide", o.Perspectives, MinPerspectives, MaxPerspectives)
	}
	if len(o.Catalog) < 2 {
		return fmt.Errorf("the perspective catalog has %d perspective(s): a debate needs at least 2", len(o.Catalog))
	}
	if o.Perspectives > len(o.Catalog) {
		return fmt.Errorf("--perspectives %d: the catalog has only %d", o.Perspectives, len(o.Catalog))
	}
	return nil
}

// Protocol is the perspectives format's rules.
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

// Turn ids. They name a turn by its place in the debate so that resume knows
// what is done.
const (
	idAnalysis      = "analysis"
	idReanalysis    = "analysis-clarified"
	idSynthesis     = "synthesis"
	agentModerator  = "moderator"
	roleModerator   = "moderator"
	roleDebater     = "debater"
	checkpointClar  = "clarify"
	noteRepetition  = "perspectives.repetition"
	noteRedirect    = "perspectives.redirect"
	noteMute        = "perspectives.mute"
	noteFallback    = "perspectives.fallback"
	noteLowConfid   = "perspectives.low_confidence"
	noteClarifySkip = "perspectives.clarify_skipped"
)

func argID(round int, p Perspective) string { return fmt.Sprintf("r%d/argument/%s", round, p.Slug()) }
func rebID(round int, p Perspective) string { return fmt.Sprintf("r%d/rebuttal/%s", round, p.Slug()) }
func evalID(round int) string               { return fmt.Sprintf("r%d/evaluation", round) }
func checkpointID(round int) string         { return fmt.Sprintf("r%d", round) }

// view is what Next derives from the state; the renderer uses it too.
type view struct {
	analysis     Analysis
	debaters     []Perspective
	clarified    string
	rounds       []roundView
	endReason    string
	converged    bool
	synthesis    *Synthesis
	pending      *debate.Step
	lowConfForce bool
}

type roundView struct {
	n          int
	arguments  []*debate.Turn
	rebuttals  []*debate.Turn
	evaluation *Evaluation
	evalTurn   *debate.Turn
	checkpoint *debate.Checkpoint
	muted      []string
	repetition map[string]float64
}

// Next implements debate.Protocol.
func (p *Protocol) Next(s *debate.State) (debate.Step, error) {
	v := p.derive(s)
	if v.pending != nil {
		return *v.pending, nil
	}
	return debate.Step{Done: true, Verdict: p.result(s, v), Reason: v.endReason}, nil
}

// derive walks the debate's script against the state: the first thing not
// done yet becomes the pending step.
func (p *Protocol) derive(s *debate.State) *view {
	v := &view{}
	// 1. Prompt analysis.
	an := s.Completed(idAnalysis)
	if an == nil {
		v.pending = p.withPhase(s, "analysis", "Prompt analysis", 0, p.analysisTurn(s, idAnalysis, ""))
		return v
	}
	v.analysis, v.debaters = p.assignment(an)
	if q := strings.TrimSpace(v.analysis.ClarifyingQuestion); q != "" && an.Invalid == "" {
		if !p.opts.Checkpoints {
			if !hasNote(s, noteClarifySkip, 0, "") {
				v.pending = &debate.Step{Emit: []debate.Payload{note(noteClarifySkip, 0, "", 0,
					"Moderator asked: "+q+" (no checkpoints: the debate goes on with stated assumptions)")}}
				return v
			}
		} else {
			cp := s.Checkpoint(checkpointClar)
			if cp == nil || cp.Answer == nil {
				v.pending = &debate.Step{Checkpoint: &debate.CheckpointReached{
					ID: checkpointClar, Summary: "The moderator needs a clarification: " + q,
					Options: []string{debate.ActionGuide, debate.ActionContinue, debate.ActionEnd}}}
				return v
			}
			if cp.Answer.Action == debate.ActionEnd {
				v.endReason = "ended by the human before the debate began"
				return v
			}
			v.clarified = strings.TrimSpace(cp.Answer.Guidance)
			clar := v.clarified
			if clar == "" {
				clar = "(the human gave no clarification: state your assumptions and go on)"
			}
			re := s.Completed(idReanalysis)
			if re == nil {
				v.pending = p.withPhase(s, "analysis", "Prompt analysis (clarified)", 0, p.analysisTurn(s, idReanalysis, clar))
				return v
			}
			an = re
			v.analysis, v.debaters = p.assignment(re)
		}
	}
	if len(v.debaters) == 0 {
		v.debaters = p.fallbackAssignment()
	}
	if (an.Invalid != "" || len(v.analysis.Perspectives) == 0) && !hasNote(s, noteFallback, 0, "") {
		v.pending = &debate.Step{Emit: []debate.Payload{note(noteFallback, 0, "", 0,
			"The moderator's analysis could not be used; perspectives were assigned from the catalog by keyword: "+strings.Join(names(v.debaters), ", "))}}
		return v
	}

	// 2. Rounds.
	muted := map[string]bool{}
	for r := 1; r <= p.opts.MaxRounds; r++ {
		rv := roundView{n: r, repetition: map[string]float64{}}
		var active []Perspective
		for _, d := range v.debaters {
			if !muted[d.Slug()] {
				active = append(active, d)
			}
		}
		phase := fmt.Sprintf("Round %d", r)
		// Parallel arguments.
		var missing []debate.TurnSpec
		for _, d := range active {
			if t := s.Completed(argID(r, d)); t != nil {
				rv.arguments = append(rv.arguments, t)
			} else {
				missing = append(missing, p.argumentTurn(s, v, r, d))
			}
		}
		if len(missing) > 0 {
			v.rounds = append(v.rounds, rv)
			v.pending = p.withPhase(s, fmt.Sprintf("r%d", r), phase+": arguments", r, missing...)
			return v
		}
		// Sequential rebuttals.
		for _, d := range active {
			t := s.Completed(rebID(r, d))
			if t == nil {
				v.rounds = append(v.rounds, rv)
				v.pending = p.withPhase(s, fmt.Sprintf("r%d", r), phase+": rebuttals", r, p.rebuttalTurn(s, v, r, d, active))
				return v
			}
			rv.rebuttals = append(rv.rebuttals, t)
		}
		// Repetition, measured before the moderator evaluates so that it can
		// weigh it; recorded once as notes.
		var emit []debate.Payload
		for _, d := range active {
			prev := s.Completed(argID(r-1, d))
			if prev == nil {
				continue
			}
			share := Repetition(s.Completed(argID(r, d)).Text, prev.Text)
			if share > RepetitionThreshold {
				rv.repetition[d.Name] = share
				if !hasNote(s, noteRepetition, r, d.Name) {
					emit = append(emit, note(noteRepetition, r, d.Name, share, fmt.Sprintf(
						"%s repeats %.0f%% of its round %d argument", d.Name, share*100, r-1)))
				}
			}
		}
		et := s.Completed(evalID(r))
		if et == nil {
			v.rounds = append(v.rounds, rv)
			v.pending = p.withPhase(s, fmt.Sprintf("r%d", r), phase+": moderator evaluation", r, p.evaluationTurn(s, v, r, active, rv))
			v.pending.Emit = append(emit, v.pending.Emit...)
			return v
		}
		rv.evalTurn = et
		ev := Evaluation{Decision: "continue", Summary: et.Text}
		if et.Invalid == "" {
			_ = json.Unmarshal(et.Move, &ev)
		}
		rv.evaluation = &ev
		// Off-topic debaters: redirected the first time, muted the second.
		for _, name := range ev.OffTopic {
			d, ok := p.opts.Catalog.Find(name)
			if !ok || !containsPerspective(active, d) {
				continue
			}
			kind := noteRedirect
			if hasNoteFor(s, noteRedirect, d.Name, r) {
				kind = noteMute
			}
			if !hasNote(s, kind, r, d.Name) {
				text := d.Name + " drifted from the question; the moderator redirects it"
				if kind == noteMute {
					text = d.Name + " drifted again and is muted for the rest of the debate"
				}
				emit = append(emit, note(kind, r, d.Name, 0, text))
			}
		}
		if len(emit) > 0 {
			v.rounds = append(v.rounds, rv)
			v.pending = &debate.Step{Emit: emit}
			return v
		}
		for _, n := range s.Notes {
			if n.Kind == noteMute {
				var d noteData
				if json.Unmarshal(n.Data, &d) == nil && d.Round == r {
					if pp, ok := p.opts.Catalog.Find(d.Perspective); ok {
						muted[pp.Slug()] = true
						rv.muted = append(rv.muted, pp.Name)
					}
				}
			}
		}
		stagnant := len(active) > 0 && len(rv.repetition) == len(active)
		remaining := 0
		for _, d := range v.debaters {
			if !muted[d.Slug()] {
				remaining++
			}
		}
		switch {
		case ev.Decision == "conclude":
			v.endReason, v.converged = "the moderator concluded: "+ev.Reason, true
		case stagnant:
			v.endReason, v.converged = "stagnation: every debater repeated its previous argument", true
		case remaining < 2:
			v.endReason = "fewer than two perspectives remain after muting"
		case r == p.opts.MaxRounds:
			v.endReason, v.lowConfForce = fmt.Sprintf("max rounds (%d) reached without convergence", r), true
		}
		if v.endReason == "" && p.opts.Checkpoints {
			cp := s.Checkpoint(checkpointID(r))
			rv.checkpoint = cp
			if cp == nil || cp.Answer == nil {
				v.rounds = append(v.rounds, rv)
				v.pending = &debate.Step{Checkpoint: &debate.CheckpointReached{
					ID: checkpointID(r), Round: r, Summary: ev.Summary,
					Options: []string{debate.ActionContinue, debate.ActionGuide, debate.ActionEnd}}}
				return v
			}
			if cp.Answer.Action == debate.ActionEnd {
				v.endReason = fmt.Sprintf("ended by the human after round %d", r)
			}
		}
		v.rounds = append(v.rounds, rv)
		if v.endReason != "" {
			break
		}
	}

	// 3. Synthesis: the debate does not end without a valid one.
	st, next, pause := debate.ResultAttempt(s, idSynthesis, "the moderator's synthesis")
	switch {
	case pause != nil:
		v.pending = pause
		return v
	case st == nil:
		t := p.synthesisTurn(s, v)
		t.ID = next
		v.pending = p.withPhase(s, "synthesis", "Synthesis", 0, t)
		return v
	}
	var syn Synthesis
	if err := json.Unmarshal(st.Move, &syn); err != nil {
		// A valid turn's move always decodes; keep its text rather than
		// lose it if it ever does not.
		syn = Synthesis{Recommendation: st.Text, Confidence: "Low"}
	}
	v.synthesis = &syn
	if v.lowConfForce && v.synthesis.Confidence != "Low" {
		if !hasNote(s, noteLowConfid, 0, "") {
			v.pending = &debate.Step{Emit: []debate.Payload{note(noteLowConfid, 0, "", 0,
				fmt.Sprintf("Confidence lowered from %s to Low: %s", v.synthesis.Confidence, v.endReason))}}
			return v
		}
		v.synthesis.Confidence = "Low"
	}
	return v
}

// withPhase wraps turns in a step, announcing the phase when it changes.
func (p *Protocol) withPhase(s *debate.State, phase, label string, round int, turns ...debate.TurnSpec) *debate.Step {
	st := &debate.Step{Turns: turns}
	if s.Phase.Label != label {
		st.Emit = []debate.Payload{debate.PhaseChanged{Phase: phase, Label: label, Round: round}}
	}
	return st
}

// assignment reads the perspectives an analysis turn assigned.
func (p *Protocol) assignment(t *debate.Turn) (Analysis, []Perspective) {
	var a Analysis
	if t.Invalid != "" || json.Unmarshal(t.Move, &a) != nil {
		return Analysis{}, nil
	}
	var ds []Perspective
	for _, n := range a.Perspectives {
		if pp, ok := p.opts.Catalog.Find(n); ok {
			ds = append(ds, pp)
		}
	}
	return a, ds
}

// fallbackAssignment picks perspectives by the spec's keyword heuristic when
// the moderator's analysis is unusable, keeping at least one pair in tension.
func (p *Protocol) fallbackAssignment() []Perspective {
	n := p.opts.Perspectives
	if n == 0 {
		n = MinPerspectives
	}
	cands := append(p.opts.Catalog.Suggest(p.topic), p.opts.Catalog.Names()...)
	var chosen []string
	for _, c := range cands {
		if len(chosen) == n {
			break
		}
		if containsFold(chosen, c) {
			continue
		}
		// The last seat goes to a perspective in tension with the others.
		if len(chosen) == n-1 && !p.opts.Catalog.InTension(append(chosen, c)) {
			continue
		}
		chosen = append(chosen, c)
	}
	for _, c := range p.opts.Catalog.Names() {
		if len(chosen) == n {
			break
		}
		if !containsFold(chosen, c) {
			chosen = append(chosen, c)
		}
	}
	out := make([]Perspective, 0, n)
	for _, c := range chosen {
		pp, _ := p.opts.Catalog.Find(c)
		out = append(out, pp)
	}
	return out
}

// Parse implements debate.Protocol.
func (p *Protocol) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	switch {
	case t.ID == idAnalysis || t.ID == idReanalysis:
		var a Analysis
		if err := debate.DecodeMove(text, &a); err != nil {
			return nil, err
		}
		return a, p.checkAnalysis(&a, t.ID == idReanalysis)
	case strings.HasSuffix(t.ID, "/evaluation"):
		var e Evaluation
		if err := debate.DecodeMove(text, &e); err != nil {
			return nil, err
		}
		if e.Decision != "continue" && e.Decision != "conclude" {
			return nil, fmt.Errorf("%w: decision must be \"continue\" or \"conclude\", got %q", debate.ErrRepairable, e.Decision)
		}
		if strings.TrimSpace(e.Summary) == "" {
			return nil, fmt.Errorf("%w: summary is empty", debate.ErrRepairable)
		}
		return e, nil
	case t.ID == idSynthesis || strings.HasPrefix(t.ID, idSynthesis+"/retry-"):
		var syn Synthesis
		if err := debate.DecodeMove(text, &syn); err != nil {
			return nil, err
		}
		switch syn.Confidence {
		case "High", "Medium", "Low":
		default:
			return nil, fmt.Errorf("%w: confidence must be High, Medium or Low, got %q", debate.ErrRepairable, syn.Confidence)
		}
		if strings.TrimSpace(syn.Recommendation) == "" {
			return nil, fmt.Errorf("%w: recommendation is empty", debate.ErrRepairable)
		}
		return syn, nil
	default:
		text = strings.TrimSpace(text)
		if text == "" {
			return nil, fmt.Errorf("%w: the argument is empty", debate.ErrRepairable)
		}
		var others []string
		if d, ok := p.opts.Catalog.Find(t.Agent); ok {
			for _, o := range p.opts.Catalog {
				if o.Name != d.Name && strings.Contains(strings.ToLower(text), strings.ToLower(o.Name)) {
					others = append(others, o.Name)
				}
			}
		}
		return Argument{Perspective: t.Agent, Content: text, RespondingTo: others}, nil
	}
}

func (p *Protocol) checkAnalysis(a *Analysis, clarified bool) error {
	if clarified {
		a.ClarifyingQuestion = ""
	}
	if strings.TrimSpace(a.ClarifyingQuestion) != "" && p.opts.Checkpoints {
		return nil // perspectives are assigned after the human answers
	}
	var canon []string
	for _, n := range a.Perspectives {
		pp, ok := p.opts.Catalog.Find(n)
		if !ok {
			return fmt.Errorf("%w: %q is not in the catalog; use the names of the catalog above exactly as written", debate.ErrRepairable, n)
		}
		if containsFold(canon, pp.Name) {
			return fmt.Errorf("%w: %q is assigned twice", debate.ErrRepairable, pp.Name)
		}
		canon = append(canon, pp.Name)
	}
	a.Perspectives = canon
	n := len(canon)
	switch {
	case p.opts.Perspectives != 0 && n != p.opts.Perspectives:
		return fmt.Errorf("%w: the user asked for %d perspectives, you assigned %d", debate.ErrRepairable, p.opts.Perspectives, n)
	case n < MinPerspectives || n > MaxPerspectives:
		return fmt.Errorf("%w: assign %d to %d perspectives, you assigned %d", debate.ErrRepairable, MinPerspectives, MaxPerspectives, n)
	case p.opts.Perspectives == 0 && a.Binary && n != 2:
		return fmt.Errorf("%w: a binary choice gets 2 perspectives, you assigned %d", debate.ErrRepairable, n)
	case p.opts.Perspectives == 0 && !a.Binary && n < 3:
		return fmt.Errorf("%w: a multi-faceted question gets 3 or 4 perspectives, you assigned %d", debate.ErrRepairable, n)
	case !p.opts.Catalog.InTension(canon):
		return fmt.Errorf("%w: %s all pull the same way; include at least one perspective that argues against another (see each perspective's tensions)", debate.ErrRepairable, strings.Join(canon, ", "))
	}
	return nil
}

func names(ps []Perspective) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func containsPerspective(ps []Perspective, p Perspective) bool {
	for _, x := range ps {
		if x.Name == p.Name {
			return true
		}
	}
	return false
}

// noteData is the payload of the format's notes.
type noteData struct {
	Round       int     `json:"round,omitempty"`
	Perspective string  `json:"perspective,omitempty"`
	Share       float64 `json:"share,omitempty"`
}

func note(kind string, round int, perspective string, share float64, text string) debate.Note {
	data, _ := json.Marshal(noteData{Round: round, Perspective: perspective, Share: share})
	return debate.Note{Kind: kind, Data: data, Text: text}
}

func hasNote(s *debate.State, kind string, round int, perspective string) bool {
	for _, n := range s.Notes {
		if n.Kind != kind {
			continue
		}
		var d noteData
		if json.Unmarshal(n.Data, &d) == nil && d.Round == round && d.Perspective == perspective {
			return true
		}
	}
	return false
}

// hasNoteFor reports a note of kind for a perspective in a round before r.
func hasNoteFor(s *debate.State, kind, perspective string, before int) bool {
	for _, n := range s.Notes {
		var d noteData
		if n.Kind == kind && json.Unmarshal(n.Data, &d) == nil && d.Perspective == perspective && d.Round < before {
			return true
		}
	}
	return false
}

// Cast implements debate.Caster: the debaters, once the moderator's
// analysis (or the fallback) assigned them.
func (p *Protocol) Cast(s *debate.State) []string {
	v := p.derive(s)
	out := make([]string, 0, len(v.debaters))
	for _, d := range v.debaters {
		out = append(out, d.Slug())
	}
	return out
}
