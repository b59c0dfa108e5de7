// Package bullbear is the `bullbear` debate format: two adversarial agents
// argue the bull and the bear case for one stock from its SEC filings, rebut
// each other by quoting each other directly, have the numbers they cite
// checked against the 10-K, and a moderator synthesises a conviction score
// with its reasoning and the condition that would break the thesis.
//
// Phases (spec bullbear.md): 1 research (parallel, with tools), 2 opening
// arguments (parallel), 3 rebuttals (sequential, bull then bear; a second
// round with --deep), 4 fact check, reconciliation when a figure is off,
// and the moderator's synthesis.
package bullbear

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/setup"
)

// Name is the format's name.
const Name = "bullbear"

// Agents, which are also their roles (so that --model-for bull=... works).
const (
	AgentBull      = "bull"
	AgentBear      = "bear"
	AgentModerator = "moderator"
)

// Turn ids name each turn by its place in the debate, so that resume knows
// what is done.
const (
	idSynthesis   = "synthesis/moderator"
	noteFactCheck = "bullbear.fact_check"
	// noteSynthesisCheck records the fact check of the moderator's
	// synthesis: its corrections are shown inline in the report.
	noteSynthesisCheck = "bullbear.synthesis_check"
	noteDataOnly       = "bullbear.data_only"
)

func researchID(side string) string            { return "research/" + side }
func openingID(side string) string             { return "opening/" + side }
func rebuttalID(round int, side string) string { return fmt.Sprintf("rebuttal/%d/%s", round, side) }
func reconcileID(side string) string           { return "reconcile/" + side }

// Hint is human guidance for one agent, given when the debate was created.
type Hint struct {
	Target string `json:"target"` // bull or bear
	Text   string `json:"text"`
}

// Options are the format's settings, stored with the debate so that a resumed
// debate follows the same rules and checks against the same figures.
type Options struct {
	// Ticker is the stock under debate ("NVDA"), or the CIK the user gave.
	Ticker  string `json:"ticker"`
	Company string `json:"company,omitempty"`
	CIK     string `json:"cik,omitempty"`
	// SIC is the filer's industry code (it picks the Altman model).
	SIC int `json:"sic,omitempty"`
	// Deep runs a second rebuttal round.
	Deep bool `json:"deep,omitempty"`
	// Framework is the scoring framework given as context (piotroski, altman).
	Framework string `json:"framework,omitempty"`
	// FrameworkSummary is the framework's result, computed at creation.
	FrameworkSummary string `json:"framework_summary,omitempty"`
	Hints            []Hint `json:"hints,omitempty"`
	// FiscalYear is the fiscal year the figures are for.
	FiscalYear int `json:"fiscal_year,omitempty"`
	// Figures are the reference figures from the 10-K that the fact check
	// compares the agents' numbers with.
	Figures []Figure `json:"figures,omitempty"`
	// Facts are the reference facts (fiscal years, quarters, TTM) that the
	// fact check holds every figure of every text to; debates created before
	// they existed are checked against Figures alone.
	Facts *factcheck.Table `json:"facts,omitempty"`
	// Currency is the ISO code of the currency the filer reports in, when
	// it is not the US dollar ("EUR", "TWD"): its figures are read, shown
	// and checked in it, never converted. CurrencyNote says, for a filer
	// reporting in several, which is read and that the others are left out.
	Currency     string `json:"currency,omitempty"`
	CurrencyNote string `json:"currency_note,omitempty"`
	// Data labels where the figures came from and when ("offline snapshot
	// recorded 2026-07-09").
	Data string `json:"data,omitempty"`
	// Offline is true when the data came from the offline snapshot; a
	// resumed debate then stays offline so as not to mix sources.
	Offline bool `json:"offline,omitempty"`
	// SourceAsked is the SEC data the request asked for: SourceSnapshot
	// (--offline, --snapshot, or no usable SEC_USER_AGENT) or SourceEDGAR,
	// which falls back to the snapshot when EDGAR cannot be reached (then
	// Offline is true). It is part of the question the debate asks; where
	// the data came from is not. Empty in debates created before it.
	SourceAsked string `json:"source_asked,omitempty"`
	// Tools names the research tools the agents had, recorded at creation
	// so that the report states them ("web_search" only when configured).
	Tools []string `json:"tools,omitempty"`
	// MarketData names the market data provider ("" when off).
	MarketData string `json:"market_data,omitempty"`
	// WebSearch names the web search engine ("" when off).
	WebSearch string `json:"web_search,omitempty"`
	// Valuation holds the valuation figures computed at creation, each with
	// its source and date. With ValuationBasis "market price" their market
	// value comes from MarketData (verified market data, not a filing); with
	// "public float" from the 10-K cover's dei:EntityPublicFloat.
	Valuation      []analysis.ValueFigure `json:"valuation,omitempty"`
	ValuationBasis string                 `json:"valuation_basis,omitempty"`
	// MarketPrice is the closing price the valuation used, with its
	// provider, URL and trading day: verified market data (nil when off).
	MarketPrice *analysis.Price `json:"market_price,omitempty"`
}

// CurrencyLine says, for a filer reporting in a currency other than the US
// dollar, that its figures are in it and not converted, and for one that
// tags several currencies which is read; "" for a filer in dollars alone.
func (o *Options) CurrencyLine() string {
	if o.Currency == "" {
		// A dollar filer that also tags another currency: which is read.
		return o.CurrencyNote
	}
	s := fmt.Sprintf("%s reports in %s: its figures are read, shown and checked in %s (%s), as its filings state them; "+
		"Parley does not convert currencies, so an amount stated in another currency (US dollars included) is not checked against them",
		cmp.Or(o.Ticker, o.Company), o.Currency, o.Currency, strings.TrimSpace(analysis.CurrencyPrefix(o.Currency)))
	if o.CurrencyNote != "" {
		s += ". " + o.CurrencyNote
	}
	return s
}

// ToolsLine says which research tools the agents had, for the report.
func (o *Options) ToolsLine() string {
	if len(o.Tools) == 0 {
		return ""
	}
	s := strings.Join(o.Tools, ", ")
	if o.MarketData != "" {
		s += "; market data: " + o.MarketData
	} else {
		s += "; market data: off (valuation from the public float)"
	}
	if o.WebSearch != "" {
		s += "; web search: " + o.WebSearch + " (web figures are not checked against filings)"
	} else {
		s += "; web search: off"
	}
	return s
}

var tickerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z0-9][A-Z0-9.\-]{0,14}$`) })

// Validate checks the options.
func (o *Options) Validate() error {
	o.Ticker = strings.ToUpper(strings.TrimSpace(o.Ticker))
	if !tickerRe().MatchString(o.Ticker) {
		return fmt.Errorf("bullbear debates one stock: give its ticker, such as NVDA (got %q); use another format for questions", o.Ticker)
	}
	if o.Framework != "" {
		fw, err := analysis.Framework(o.Framework)
		if err != nil {
			return fmt.Errorf("--framework %s: unknown framework; choose one of %s", o.Framework, strings.Join(analysis.FrameworkNames(), ", "))
		}
		o.Framework = fw.Name()
	}
	for _, h := range o.Hints {
		if h.Target != AgentBull && h.Target != AgentBear {
			return fmt.Errorf("hint for %q: hints go to bull or bear (the moderator takes none: it must remain impartial)", h.Target)
		}
		if strings.TrimSpace(h.Text) == "" {
			return fmt.Errorf("hint for %s is empty", h.Target)
		}
	}
	return nil
}

// ParseHint reads a --hint value, "bull: mention the new AI chip" or the
// spec's "Bull, mention the new AI chip". "both:" gives the same hint to each
// side.
func ParseHint(s string) ([]Hint, error) {
	target, text, ok := strings.Cut(s, ":")
	if t, x, ok2 := strings.Cut(s, ","); ok2 && (!ok || len(t) < len(target)) {
		// The spec's typed form: "Bull, mention their new AI chip".
		target, text, ok = t, x, true
	}
	target = strings.ToLower(strings.TrimSpace(target))
	text = strings.TrimSpace(text)
	// A text of no word ("...") is none: it was queued, and spent a
	// turn's attention on nothing. (Checked here, where a hint is given,
	// not in Validate, which stored debates' options pass at each replay.)
	if !setup.HasWords(text) {
		text = ""
	}
	if !ok || text == "" {
		// The example is a hint, not the flag again: the API and the
		// dashboard name their field for the flag, and read "for example
		// \"hints\" \"bull: …\"".
		return nil, fmt.Errorf("--hint %q: write AGENT: TEXT, for example \"bull: mention their new AI chip\"", s)
	}
	switch target {
	case AgentBull, AgentBear:
		return []Hint{{Target: target, Text: text}}, nil
	case "both":
		return []Hint{{Target: AgentBull, Text: text}, {Target: AgentBear, Text: text}}, nil
	case AgentModerator:
		return nil, fmt.Errorf("--hint %q: the moderator takes no hints (it must remain impartial); hint bull or bear", s)
	}
	return nil, fmt.Errorf("--hint %q: unknown agent %q; hint bull, bear or both", s, target)
}

// Protocol is the bullbear format's rules.
type Protocol struct {
	opts Options
}

// NewProtocol returns the protocol for a debate.
func NewProtocol(opts Options) (*Protocol, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Protocol{opts: opts}, nil
}

// Rounds is the number of rebuttal rounds: 1, or 2 in deep mode.
func (p *Protocol) Rounds() int {
	if p.opts.Deep {
		return 2
	}
	return 1
}

// view is what Next derives from the state; the renderer uses it too.
type view struct {
	research  map[string]*debate.Turn
	openings  map[string]*debate.Turn
	rebuttals [][2]*debate.Turn // per round: bull, bear
	check     *FactCheck
	reconcile map[string]*debate.Turn
	synthesis *Synthesis
	synTurn   *debate.Turn
	synCheck  *FactCheck
	pending   *debate.Step
}

var sides = []string{AgentBull, AgentBear}

// Next implements debate.Protocol.
func (p *Protocol) Next(s *debate.State) (debate.Step, error) {
	v := p.derive(s)
	if v.pending != nil {
		return *v.pending, nil
	}
	return debate.Step{Done: true, Verdict: p.result(s, v), Reason: "synthesis complete"}, nil
}

// derive walks the debate's script against the state: the first thing not
// done yet becomes the pending step.
func (p *Protocol) derive(s *debate.State) *view {
	v := &view{research: map[string]*debate.Turn{}, openings: map[string]*debate.Turn{}, reconcile: map[string]*debate.Turn{}}

	// 0. Hints given at creation are queued before anything runs.
	var emit []debate.Payload
	for i, h := range p.opts.Hints {
		id := i + 1
		if !slices.ContainsFunc(s.Hints, func(x debate.Hint) bool { return x.ID == id }) {
			emit = append(emit, debate.HintQueued{ID: id, Target: h.Target, Text: h.Text})
		}
	}
	if len(emit) > 0 {
		v.pending = &debate.Step{Emit: emit}
		return v
	}

	// 1. Research, both sides at once.
	var missing []debate.TurnSpec
	for _, side := range sides {
		if t := s.Completed(researchID(side)); t != nil {
			v.research[side] = t
		} else {
			missing = append(missing, p.researchTurn(s, side))
		}
	}
	if len(missing) > 0 {
		v.pending = withPhase(s, "research", "Phase 1 (Research)", missing...)
		return v
	}

	// 2. Openings, both sides at once.
	for _, side := range sides {
		if t := s.Completed(openingID(side)); t != nil {
			v.openings[side] = t
		} else {
			missing = append(missing, p.openingTurn(s, v, side))
		}
	}
	if len(missing) > 0 {
		label := "Phase 2 (Opening Arguments)"
		if len(missing) == 1 {
			label = fmt.Sprintf("Phase 2 (%s Opening)", title(missing[0].Agent))
		}
		v.pending = withPhase(s, "opening", label, missing...)
		return v
	}

	// 3. Rebuttals: bull then bear, each answering the other's latest turn.
	for r := 1; r <= p.Rounds(); r++ {
		var pair [2]*debate.Turn
		for i, side := range sides {
			t := s.Completed(rebuttalID(r, side))
			if t == nil {
				v.rebuttals = append(v.rebuttals, pair)
				label := fmt.Sprintf("Phase 3 (%s Rebuttal)", title(side))
				if p.Rounds() > 1 {
					label = fmt.Sprintf("Phase 3 (%s Rebuttal, Round %d)", title(side), r)
				}
				v.pending = withPhase(s, "rebuttal", label, p.rebuttalTurn(s, v, r, side))
				return v
			}
			pair[i] = t
		}
		v.rebuttals = append(v.rebuttals, pair)
	}

	// 4. Fact check: computed once from the texts and recorded as a note.
	fc, ok := factCheckNote(s)
	if !ok {
		check := p.factCheck(s, v)
		v.pending = &debate.Step{Emit: []debate.Payload{check.note()}}
		return v
	}
	v.check = fc
	if len(fc.Discrepancies) > 0 {
		for _, side := range sides {
			if t := s.Completed(reconcileID(side)); t != nil {
				v.reconcile[side] = t
			} else {
				missing = append(missing, p.reconcileTurn(s, v, side))
			}
		}
		if len(missing) > 0 {
			v.pending = withPhase(s, "reconcile", "Phase 4 (Reconciliation)", missing...)
			return v
		}
	}

	// 5. Synthesis: the debate does not end without a valid one.
	st, next, pause := debate.ResultAttempt(s, idSynthesis, "the moderator's synthesis")
	switch {
	case pause != nil:
		v.pending = pause
		return v
	case st == nil:
		t := p.synthesisTurn(s, v)
		t.ID = next
		v.pending = withPhase(s, "synthesis", "Phase 4 (Moderator Synthesis)", t)
		return v
	}
	v.synTurn = st
	var syn Synthesis
	if json.Unmarshal(st.Move, &syn) == nil {
		v.synthesis = &syn
	}
	// 6. The synthesis is checked like everything else: a wrong figure in it
	// is corrected inline in the report, never repeated unmarked.
	if p.opts.Facts != nil && v.synthesis != nil {
		sc, ok := synthesisCheckNote(s)
		if !ok {
			check := p.checkSynthesis(s, v)
			v.pending = &debate.Step{Emit: []debate.Payload{check.synthesisNote()}}
			return v
		}
		v.synCheck = sc
	}
	return v
}

// withPhase wraps turns in a step, announcing the phase when it changes.
func withPhase(s *debate.State, phase, label string, turns ...debate.TurnSpec) *debate.Step {
	st := &debate.Step{Turns: turns}
	if s.Phase.Label != label {
		st.Emit = []debate.Payload{debate.PhaseChanged{Phase: phase, Label: label, Round: turns[0].Round}}
	}
	return st
}

func title(side string) string {
	if side == "" {
		return ""
	}
	return strings.ToUpper(side[:1]) + side[1:]
}

func opponent(side string) string {
	if side == AgentBull {
		return AgentBear
	}
	return AgentBull
}

// synthesisCheckNote reads the synthesis's fact check recorded in the log.
func synthesisCheckNote(s *debate.State) (*FactCheck, bool) {
	for _, n := range s.Notes {
		if n.Kind == noteSynthesisCheck {
			var fc FactCheck
			if json.Unmarshal(n.Data, &fc) == nil {
				return &fc, true
			}
		}
	}
	return nil, false
}

// factCheckNote reads the fact check recorded in the log.
func factCheckNote(s *debate.State) (*FactCheck, bool) {
	for _, n := range s.Notes {
		if n.Kind == noteFactCheck {
			var fc FactCheck
			if json.Unmarshal(n.Data, &fc) == nil {
				return &fc, true
			}
		}
	}
	return nil, false
}

// Parse implements debate.Protocol.
func (p *Protocol) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	kind, _, _ := strings.Cut(t.ID, "/")
	switch kind {
	case "synthesis":
		var syn Synthesis
		if err := debate.DecodeMove(text, &syn); err != nil {
			return nil, err
		}
		if err := syn.Check(); err != nil {
			return nil, err
		}
		return syn, nil
	case "research", "reconcile":
		text = strings.TrimSpace(text)
		if text == "" {
			return nil, fmt.Errorf("%w: the reply is empty", debate.ErrRepairable)
		}
		return Argument{Side: t.Agent, Content: text}, nil
	case "opening":
		text = strings.TrimSpace(text)
		pts := Points(text)
		if len(pts) < MinPoints || len(pts) > MaxPoints {
			return nil, fmt.Errorf("%w: present %d to %d points as a bulleted list (one point per \"- \" line, each with its inline citation); found %d",
				debate.ErrRepairable, MinPoints, MaxPoints, len(pts))
		}
		return Argument{Side: t.Agent, Content: text, Points: pts}, nil
	case "rebuttal":
		text = strings.TrimSpace(text)
		qs, err := CheckQuotes(text, opponentCorpus(s, t.Agent), opponent(t.Agent))
		if err != nil {
			return nil, err
		}
		return Argument{Side: t.Agent, Content: text, Quotes: qs}, nil
	}
	return nil, fmt.Errorf("bullbear: unknown turn %s", t.ID)
}

// opponentCorpus is everything the opponent of side has argued so far: what
// a rebuttal may quote.
func opponentCorpus(s *debate.State, side string) string {
	op := opponent(side)
	var b strings.Builder
	for _, t := range s.CompletedTurns() {
		if t.Agent == op && !strings.HasPrefix(t.ID, "research/") {
			b.WriteString(t.Text)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Argument is a bull or bear turn's move.
type Argument struct {
	Side    string   `json:"side"`
	Content string   `json:"content"`
	Points  []string `json:"points,omitempty"` // opening: the bulleted points
	Quotes  []string `json:"quotes,omitempty"` // rebuttal: the opponent's words quoted
}

// Points per opening, from the spec: "even weak cases present 3-5 points".
const (
	MinPoints = 3
	MaxPoints = 5
)

var pointRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s{0,3}(?:[-*•]|\d{1,2}[.)])\s+(.+)$`) })

// Points returns the bulleted or numbered points of a text.
func Points(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if m := pointRe().FindStringSubmatch(line); m != nil {
			if pt := strings.TrimSpace(m[1]); pt != "" {
				out = append(out, pt)
			}
		}
	}
	return out
}

// Cast implements debate.Caster: the bull and the bear, from the start.
func (p *Protocol) Cast(*debate.State) []string { return []string{AgentBull, AgentBear} }
