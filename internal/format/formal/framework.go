package formal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/parleyhq/parley/internal/argue/export"
	"github.com/parleyhq/parley/internal/argue/gradual"
	"github.com/parleyhq/parley/internal/debate"
)

// retractedBase is the intrinsic strength of a retracted argument: withdrawn,
// it neither survives nor lends weight, but stays on the map. (A zero base
// means "unspecified" to gradual.Graph.)
const retractedBase = 1e-6

// RelationView is one relation of the framework, for the report.
type RelationView struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"` // rebut | undercut | support
	// Move is the move that created the relation; By who classified it:
	// "protocol" (the moves settle it), "moderator" or "default".
	Move string `json:"move"`
	By   string `json:"by"`
}

// framework is the bipolar argumentation framework built from the moves.
type framework struct {
	graph     *gradual.Graph
	argOf     map[string]string // statement id → argument id
	stmtOf    map[string]string // argument id → statement id
	rels      []RelationView
	scores    gradual.Result
	sides     map[gradual.Side]gradual.SideSummary
	unrelated []string // counter-claims the moderator found bear on nothing
	dung      DungCheck
}

// DungCheck reads the framework with Dung's extension semantics as a
// cross-check of the gradual scores: the attack projection of the arguments
// still held (retracted and rejected ones are withdrawn from A), with the
// bipolar derived attacks (supported and secondary) added, and its grounded
// extension, which every complete extension contains.
type DungCheck struct {
	Derived  []string `json:"derived_attacks"` // "A6→A1"
	Grounded []string `json:"grounded"`
}

func dungCheck(fw *framework, v *view) (DungCheck, error) {
	g := gradual.NewGraph()
	held := map[string]bool{}
	for _, a := range fw.graph.Arguments() {
		id := fw.stmtOf[a.ID]
		if _, rej := v.rejected[id]; rej || v.d.stmts[id].Retracted {
			continue
		}
		held[a.ID] = true
		if err := g.Add(a); err != nil {
			return DungCheck{}, err
		}
	}
	for _, r := range fw.graph.Relations() {
		if held[r.From] && held[r.To] {
			if err := g.Relate(r); err != nil {
				return DungCheck{}, err
			}
		}
	}
	full, direct := g.Dung(true), g.Dung(false)
	c := DungCheck{Derived: []string{}, Grounded: full.Names(full.Grounded())}
	for i := range full.Len() {
		for _, j := range full.Attacks(i) {
			from, to := full.Name(i), full.Name(j)
			di, _ := direct.Index(from)
			dj, _ := direct.Index(to)
			if !direct.Attacked(di, dj) {
				c.Derived = append(c.Derived, from+"→"+to)
			}
		}
	}
	if c.Grounded == nil {
		c.Grounded = []string{}
	}
	return c, nil
}

// framework builds and scores the BAF ⟨A, R⁻, R⁺⟩: every statement (claim
// or premise) is an argument; each premise supports its conclusion; a
// counter-claim rebuts or undercuts what it answers.
func (p *Protocol) framework(v *view) (*framework, error) {
	d := v.d
	fw := &framework{graph: gradual.NewGraph(), argOf: map[string]string{}, stmtOf: map[string]string{}}
	for i, id := range d.order {
		s := d.stmts[id]
		a := gradual.Argument{ID: fmt.Sprintf("A%d", i+1), Text: s.Text, Side: gradual.Side(s.Party)}
		if _, rej := v.rejected[id]; s.Retracted || rej {
			a.Base = retractedBase
		}
		if err := fw.graph.Add(a); err != nil {
			return nil, fmt.Errorf("framework: %w", err)
		}
		fw.argOf[id], fw.stmtOf[a.ID] = a.ID, id
	}
	relate := func(from, to string, kind gradual.Kind, move, by string) error {
		r := RelationView{From: fw.argOf[from], To: fw.argOf[to], Kind: string(kind), Move: move, By: by}
		for _, x := range fw.rels {
			if x.From == r.From && x.To == r.To && x.Kind == r.Kind {
				return nil
			}
		}
		if err := fw.graph.Relate(gradual.Relation{From: r.From, To: r.To, Kind: kind}); err != nil {
			return fmt.Errorf("framework: relation of %s: %w", move, err)
		}
		fw.rels = append(fw.rels, r)
		return nil
	}
	for _, m := range d.moves {
		switch {
		case m.Act == ActSince:
			for _, pr := range m.Premises {
				if err := relate(pr.ID, m.Target, gradual.Support, m.ID, "protocol"); err != nil {
					return nil, err
				}
			}
		case m.Act == ActClaim && m.Target != "":
			kind, target, by := gradual.Rebut, m.Target, "protocol"
			switch {
			case m.Inference:
				kind = gradual.Undercut
			case m.Round > 0:
				c := v.classes[m.ID]
				if by = c.By; by == "" {
					by = "unclassified yet"
				}
				switch c.Kind {
				case kindNone:
					fw.unrelated = append(fw.unrelated, m.ID)
					continue
				case string(gradual.Undercut):
					kind = gradual.Undercut
					// Undercutting a premise breaks its link to the
					// conclusion: the attack lands on the conclusion.
					if concl := d.stmts[m.Target].Conclusion; concl != "" {
						target = concl
					}
				}
			}
			if err := relate(m.ID, target, kind, m.ID, by); err != nil {
				return nil, err
			}
		}
	}
	method, err := gradual.ParseMethod(p.opts.Method)
	if err != nil {
		return nil, err
	}
	res, err := gradual.Evaluate(context.Background(), fw.graph, method, gradual.Options{})
	if err != nil {
		return nil, fmt.Errorf("score the framework: %w", err)
	}
	fw.scores = res
	if fw.dung, err = dungCheck(fw, v); err != nil {
		return nil, err
	}
	fw.sides = map[gradual.Side]gradual.SideSummary{}
	for _, s := range gradual.Summarise(fw.graph, res.Scores) {
		fw.sides[s.Side] = s
	}
	return fw, nil
}

// Persona is a participant with its stated persona and bias.
type Persona struct {
	Role    string `json:"role"`
	Title   string `json:"title"`
	Persona string `json:"persona"`
	Bias    string `json:"bias"`
}

// Personas are the spec's three participants.
var personas = []Persona{
	{Role: PRO, Title: "Proponent: argues FOR the proposition", Persona: "Pragmatic engineer focused on delivery and simplicity", Bias: "Prefers solutions that ship fast and are easy to maintain"},
	{Role: OPP, Title: "Opponent: argues AGAINST the proposition", Persona: "Cautious architect focused on quality and long-term health", Bias: "Prefers solutions that minimize risk and technical debt"},
	{Role: MOD, Title: "Moderator: neutral judge", Persona: "Senior staff engineer balancing trade-offs", Bias: "None — evaluates argument strength, not rhetoric"},
}

// Personas returns the participants.
func Personas() []Persona { return slices.Clone(personas) }

func personaOf(role string) Persona {
	for _, p := range personas {
		if p.Role == role {
			return p
		}
	}
	return Persona{Role: role}
}

// ArgumentView is one argument of the framework, scored.
type ArgumentView struct {
	ID        string  `json:"id"`
	Statement string  `json:"statement"` // the dialogue's id: P1, O2.1
	Side      string  `json:"side"`
	Text      string  `json:"text"`
	Score     float64 `json:"score"`
	Survived  bool    `json:"survived"`
	Retracted bool    `json:"retracted,omitempty"`
	Rejected  string  `json:"rejected,omitempty"` // why the moderator rejected it
}

// CommitmentView is one party's final commitment store.
type CommitmentView struct {
	Party       string   `json:"party"`
	Commitments []string `json:"commitments"` // argument ids
	Retractions []string `json:"retractions"` // argument ids
	Conceded    []string `json:"conceded"`    // the other side's arguments it conceded
}

// Semantics says how the scores were computed.
type Semantics struct {
	Method     string `json:"method"`
	Rule       string `json:"rule"`
	Converged  bool   `json:"converged"`
	Iterations int    `json:"iterations"`
	Acyclic    bool   `json:"acyclic"`
}

// Metrics are the spec's debate quality metrics, and the protocol's own.
type Metrics struct {
	Arguments   int `json:"arguments"`
	Attacks     int `json:"attacks"`
	Rebuts      int `json:"rebuts"`
	Undercuts   int `json:"undercuts"`
	Supports    int `json:"supports"`
	Concessions int `json:"concessions"`
	Retractions int `json:"retractions"`
	Moves       int `json:"moves"`
	Refused     int `json:"refused_moves"` // replies refused as illegal (or unparsable) and asked again
	Forfeits    int `json:"forfeits"`
	Passes      int `json:"passes"` // turns with nothing to answer
	Unanswered  int `json:"unanswered_challenges"`
}

// Forfeit is a turn lost to a move still illegal after the repair.
type Forfeit struct {
	Turn   string `json:"turn"`
	Party  string `json:"party"`
	Reason string `json:"reason"`
}

// Exports are the framework in other tools' formats.
type Exports struct {
	DOT     string          `json:"dot"`
	Argdown string          `json:"argdown"`
	AIF     json.RawMessage `json:"aif"`
}

// Result is the verdict of a formal debate.
type Result struct {
	Topic        string             `json:"topic"`
	Participants []Persona          `json:"participants"`
	Focus        string             `json:"focus,omitempty"`
	Context      []string           `json:"context"`
	Rounds       int                `json:"rounds"`
	EndReason    string             `json:"end_reason"`
	Winner       string             `json:"winner"` // PRO | OPP | TIE
	Scores       map[string]float64 `json:"scores"`
	WinnerRule   string             `json:"winner_rule"`
	// DecidedBy is "scores", or why a side lost regardless of them (it gave
	// the proposition up, or forfeited the opening).
	DecidedBy    string           `json:"decided_by"`
	Semantics    Semantics        `json:"semantics"`
	Proposition  string           `json:"proposition,omitempty"` // argument id of PRO's opening claim
	Arguments    []ArgumentView   `json:"arguments"`
	Relations    []RelationView   `json:"relations"`
	Unrelated    []string         `json:"unrelated,omitempty"` // counter-claims classified as bearing on nothing
	Dung         DungCheck        `json:"dung"`
	Commitments  []CommitmentView `json:"commitments"`
	Strongest    []string         `json:"strongest_surviving"`
	ValidPoints  []string         `json:"valid_points_losing_side"`
	Judgment     *Judgment        `json:"judgment,omitempty"`
	JudgmentNote string           `json:"judgment_note,omitempty"`
	Unanswered   []string         `json:"unanswered_challenges,omitempty"`
	Forfeits     []Forfeit        `json:"forfeits,omitempty"`
	Metrics      Metrics          `json:"metrics"`
	Exports      Exports          `json:"exports"`
}

// WinnerRule states how the winner follows from the scores.
const WinnerRule = "a side that gives the proposition up loses (PRO retracting φ or conceding ¬φ, OPP conceding φ); otherwise " +
	"side score = mean gradual score of the side's arguments; the higher side score wins, " +
	"ties broken by the number of surviving arguments (score > 0.5), then by the opening positions' scores"

const ruleText = "score(A) = clamp(0.5 + Σ 0.2·score(supporter) − Σ 0.3·score(rebutter) − Σ 0.4·score(undercutter), 0, 1), iterated to a fixed point; retracted arguments and those the moderator rejected have base ~0"

// result assembles the verdict from the view.
func (p *Protocol) result(s *debate.State, v *view) (Result, error) {
	fw, err := p.framework(v)
	if err != nil {
		return Result{}, err
	}
	d := v.d
	r := Result{
		Topic: p.topic, Participants: Personas(), Focus: p.opts.Focus, Context: p.opts.Context.Facts,
		Rounds: p.opts.Rounds, EndReason: v.endReason, WinnerRule: WinnerRule,
		Semantics: Semantics{Method: p.opts.Method, Converged: fw.scores.Converged, Iterations: fw.scores.Iterations, Acyclic: fw.scores.Acyclic},
		Relations: fw.rels, Judgment: v.judgment, Unrelated: fw.unrelated, Dung: fw.dung,
	}
	if r.Relations == nil {
		r.Relations = []RelationView{}
	}
	if r.Context == nil {
		r.Context = []string{}
	}
	if p.opts.Method == string(gradual.Spec) {
		r.Semantics.Rule = ruleText
	}
	if v.judgeErr != "" {
		r.JudgmentNote = "the moderator's verdict could not be used: " + v.judgeErr
	}
	sc := fw.scores.Scores
	for _, id := range d.order {
		a := fw.argOf[id]
		st := d.stmts[id]
		r.Arguments = append(r.Arguments, ArgumentView{ID: a, Statement: id, Side: st.Party, Text: st.Text, Score: round2(sc[a]),
			Survived: sc[a] > gradual.SurvivalThreshold, Retracted: st.Retracted, Rejected: v.rejected[id]})
	}
	if r.Arguments == nil {
		r.Arguments = []ArgumentView{}
	}
	if id := d.firstClaim(PRO); id != "" {
		r.Proposition = fw.argOf[id]
	}
	for _, party := range []string{PRO, OPP} {
		cv := CommitmentView{Party: party, Commitments: []string{}, Retractions: []string{}, Conceded: []string{}}
		for _, id := range d.commits[party] {
			cv.Commitments = append(cv.Commitments, fw.argOf[id])
		}
		for _, id := range d.retract[party] {
			cv.Retractions = append(cv.Retractions, fw.argOf[id])
		}
		for _, id := range d.concedes[party] {
			cv.Conceded = append(cv.Conceded, fw.argOf[id])
		}
		r.Commitments = append(r.Commitments, cv)
	}

	// Winner.
	pro, opp := fw.sides[gradual.Pro], fw.sides[gradual.Opp]
	r.Scores = map[string]float64{PRO: round2(pro.Mean), OPP: round2(opp.Mean)}
	r.Winner = decide(pro, opp, sc[fw.argOf[d.firstClaim(PRO)]], sc[fw.argOf[d.firstClaim(OPP)]])
	r.DecidedBy = "scores"
	if w, why := d.settled(); w != "" {
		r.Winner, r.DecidedBy = w, why
	}
	if len(v.turns) == 1 && v.turns[0].forfeit != "" {
		r.Winner, r.DecidedBy = OPP, "PRO forfeited the opening claim"
	}
	loser := ""
	switch r.Winner {
	case PRO:
		loser = OPP
	case OPP:
		loser = PRO
	}
	ranked := fw.sides[gradual.Side(r.Winner)].Ranked
	if r.Winner == "TIE" {
		ranked = append(append([]string(nil), pro.Ranked...), opp.Ranked...)
		slices.SortStableFunc(ranked, func(a, b string) int {
			switch {
			case sc[a] > sc[b]:
				return -1
			case sc[a] < sc[b]:
				return 1
			}
			return 0
		})
	}
	for _, a := range ranked {
		if sc[a] > gradual.SurvivalThreshold && len(r.Strongest) < 3 {
			r.Strongest = append(r.Strongest, a)
		}
	}
	if loser != "" {
		for _, a := range fw.sides[gradual.Side(loser)].Ranked {
			if sc[a] > gradual.SurvivalThreshold {
				r.ValidPoints = append(r.ValidPoints, a)
			}
		}
		for _, id := range d.concedes[r.Winner] {
			if a := fw.argOf[id]; !slices.Contains(r.ValidPoints, a) {
				r.ValidPoints = append(r.ValidPoints, a)
			}
		}
	}
	if r.Strongest == nil {
		r.Strongest = []string{}
	}
	if r.ValidPoints == nil {
		r.ValidPoints = []string{}
	}

	// Metrics.
	c := fw.graph.Counts()
	r.Metrics = Metrics{Arguments: c.Arguments, Rebuts: c.Rebuts, Undercuts: c.Undercuts, Attacks: c.Rebuts + c.Undercuts, Supports: c.Supports, Moves: len(d.moves)}
	for _, m := range d.moves {
		switch m.Act {
		case ActConcede:
			r.Metrics.Concessions++
		case ActRetract:
			r.Metrics.Retractions++
		}
	}
	for _, tv := range v.turns {
		if tv.pass {
			r.Metrics.Passes++
			continue
		}
		r.Metrics.Refused += len(tv.turn.Repairs)
		if tv.forfeit != "" {
			r.Metrics.Forfeits++
			r.Forfeits = append(r.Forfeits, Forfeit{Turn: tv.id, Party: tv.party, Reason: tv.forfeit})
		}
	}
	for _, party := range []string{PRO, OPP} {
		for _, m := range d.unanswered(party) {
			r.Unanswered = append(r.Unanswered, fmt.Sprintf("%s: %s asked why of %s (%s), unanswered", m.ID, m.Party, fw.argOf[m.Target], short(m.Statement, 80)))
		}
	}
	r.Metrics.Unanswered = len(r.Unanswered)

	// Exports.
	var dot, ad, aif bytes.Buffer
	if err := export.DOT(&dot, fw.graph, sc); err != nil {
		return r, err
	}
	if err := export.Argdown(&ad, fw.graph, sc); err != nil {
		return r, err
	}
	if err := export.AIF(&aif, fw.graph, sc); err != nil {
		return r, err
	}
	r.Exports = Exports{DOT: dot.String(), Argdown: ad.String(), AIF: json.RawMessage(bytes.TrimSpace(aif.Bytes()))}
	return r, nil
}

// decide applies WinnerRule.
func decide(pro, opp gradual.SideSummary, proOpening, oppOpening float64) string {
	const eps = 1e-9
	cmp := func(a, b float64) int {
		switch {
		case a > b+eps:
			return 1
		case b > a+eps:
			return -1
		}
		return 0
	}
	for _, c := range []int{cmp(pro.Mean, opp.Mean), cmp(float64(pro.Surviving), float64(opp.Surviving)), cmp(proOpening, oppOpening)} {
		switch c {
		case 1:
			return PRO
		case -1:
			return OPP
		}
	}
	return "TIE"
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
