package formal

import (
	"fmt"
	"slices"
	"strings"
)

// Speech acts of the persuasion dialogue (Prakken 2006).
const (
	ActClaim   = "claim"
	ActWhy     = "why"
	ActConcede = "concede"
	ActRetract = "retract"
	ActSince   = "since"
)

// acts lists the speech acts.
var acts = []string{ActClaim, ActWhy, ActConcede, ActRetract, ActSince}

// Parties of the dialogue.
const (
	PRO = "PRO"
	OPP = "OPP"
	MOD = "MOD"
)

func other(party string) string {
	if party == PRO {
		return OPP
	}
	return PRO
}

// prefix is the letter of a party's move ids: P1, O2.
func prefix(party string) string { return party[:1] }

// MoveIn is one move as a debater sends it.
type MoveIn struct {
	Act         string   `json:"act"`
	RepliesTo   string   `json:"replies_to"`
	Statement   string   `json:"statement"`
	Premises    []string `json:"premises"`
	Explanation string   `json:"explanation"`
}

// Reply is a debater turn's JSON.
type Reply struct {
	Moves          []MoveIn `json:"moves"`
	FinalStatement string   `json:"final_statement"`
}

// Premise is one reason of a since move, a statement of its own.
type Premise struct {
	ID   string `json:"id"` // "P2.1"
	Text string `json:"text"`
}

// Move is a legal move as the dialogue recorded it, with its id.
type Move struct {
	ID        string `json:"id"` // "P2"
	Party     string `json:"party"`
	Act       string `json:"act"`
	RepliesTo string `json:"replies_to,omitempty"`
	// Target is the statement the act is about: the statement challenged,
	// conceded or retracted, the conclusion a since move defends, or the
	// statement a counter-claim attacks.
	Target string `json:"target,omitempty"`
	// Inference is set when a counter-claim attacks the inference of a since
	// move (RepliesTo) rather than a statement: an undercut.
	Inference   bool      `json:"inference,omitempty"`
	Statement   string    `json:"statement"`
	Premises    []Premise `json:"premises,omitempty"`
	Explanation string    `json:"explanation,omitempty"`
	Round       int       `json:"round"`
}

// TurnMove is the parsed move of a debater turn: its moves and, in the
// closing round, the final statement.
type TurnMove struct {
	Party          string `json:"party"`
	Moves          []Move `json:"moves"`
	FinalStatement string `json:"final_statement,omitempty"`
}

// Statement is an addressable proposition: the content of a claim or a premise.
type Statement struct {
	ID    string // "P1", "P2.1"
	Party string
	Text  string
	Move  string // the move that stated it
	// Conclusion is, for a premise, the statement it supports.
	Conclusion string
	Retracted  bool // withdrawn by its owner
	Round      int
}

// stage is the part of the debate a turn belongs to; legality depends on it.
type stage int

const (
	stageOpening stage = iota
	stageArgument
	stageClosing
)

// dialogue is the state of the persuasion dialogue: moves, statements,
// commitment stores and what is still open. It is rebuilt from the log by
// replaying the recorded moves through the same rules that accepted them.
type dialogue struct {
	moves   []*Move
	byID    map[string]*Move
	stmts   map[string]*Statement
	order   []string // statement ids in the order they were stated
	next    map[string]int
	commits map[string][]string // party → statement ids, in the order committed
	retract map[string][]string // party → statement ids retracted, in order
	// concedes records, per party, the other side's statements it conceded.
	concedes map[string][]string
	answered map[string]string // why move id → the move answering it
}

func newDialogue() *dialogue {
	return &dialogue{
		byID: map[string]*Move{}, stmts: map[string]*Statement{}, next: map[string]int{PRO: 1, OPP: 1},
		commits: map[string][]string{}, retract: map[string][]string{}, concedes: map[string][]string{}, answered: map[string]string{},
	}
}

// committed reports whether party holds statement id in its commitment store.
func (d *dialogue) committed(party, id string) bool { return slices.Contains(d.commits[party], id) }

func (d *dialogue) commit(party, id string) {
	if !d.committed(party, id) {
		d.commits[party] = append(d.commits[party], id)
	}
}

func (d *dialogue) uncommit(party, id string) {
	d.commits[party] = slices.DeleteFunc(d.commits[party], func(s string) bool { return s == id })
	d.retract[party] = append(d.retract[party], id)
}

func (d *dialogue) conceded(party, id string) bool { return slices.Contains(d.concedes[party], id) }

// challenged reports whether party has asked why of statement id.
func (d *dialogue) challenged(party, id string) bool {
	for _, m := range d.moves {
		if m.Party == party && m.Act == ActWhy && m.Target == id {
			return true
		}
	}
	return false
}

// illegal is the reason a move is refused.
type illegal struct{ reason string }

func (e *illegal) Error() string { return e.reason }

func refuse(format string, args ...any) error { return &illegal{fmt.Sprintf(format, args...)} }

// describeRef names what an id refers to, for error messages.
func (d *dialogue) describeRef(id string) string {
	if s, ok := d.stmts[id]; ok {
		return fmt.Sprintf("%s (%s's statement %q)", id, s.Party, short(s.Text, 60))
	}
	if m, ok := d.byID[id]; ok {
		return fmt.Sprintf("%s (%s's %s move)", id, m.Party, m.Act)
	}
	return id
}

// apply checks one move by party against the protocol and, when legal,
// records it with its effects on the commitment stores.
func (d *dialogue) apply(party string, st stage, round int, in MoveIn) (*Move, error) {
	act := strings.ToLower(strings.TrimSpace(in.Act))
	// Models write ids as "[P1]" or "p2.1" too.
	ref := strings.ToUpper(strings.Trim(strings.TrimSpace(in.RepliesTo), "[]`\"' "))
	text := strings.TrimSpace(in.Statement)
	if !slices.Contains(acts, act) {
		return nil, refuse("act %q is not a speech act: use one of %s", in.Act, strings.Join(acts, ", "))
	}
	m := &Move{Party: party, Act: act, RepliesTo: ref, Explanation: strings.TrimSpace(in.Explanation), Round: round}
	opp := other(party)

	switch st {
	case stageOpening:
		if party == PRO {
			if act != ActClaim || ref != "" {
				return nil, refuse("the opening move of PRO is `claim φ` with an empty replies_to, got `%s` replying to %q", act, ref)
			}
		} else if (act != ActClaim && act != ActWhy) || ref != d.firstClaim(PRO) {
			return nil, refuse("OPP opens with `claim ¬φ` or `why φ` replying to %s, got `%s` replying to %q", d.firstClaim(PRO), act, ref)
		}
	case stageClosing:
		if act != ActConcede && act != ActRetract {
			return nil, refuse("the closing round allows only `concede` and `retract` (the other side could not answer a new %s); put your final position in final_statement", act)
		}
	}
	if ref == "" && !(st == stageOpening && party == PRO) {
		return nil, refuse("every move must reply to an open move: replies_to is empty")
	}

	var target *Statement
	if ref != "" {
		target = d.stmts[ref]
		if target == nil && d.byID[ref] == nil {
			return nil, refuse("replies_to %q names no move or statement of this debate", ref)
		}
	}
	refMove := d.byID[ref]

	switch act {
	case ActClaim:
		if text == "" {
			return nil, refuse("a claim needs its statement")
		}
		if ref != "" {
			switch {
			case target != nil:
				if target.Party != opp {
					return nil, refuse("a counter-claim replies to the other side's statement; %s is your own", d.describeRef(ref))
				}
				if target.Retracted {
					return nil, refuse("%s was retracted: there is nothing left to attack", ref)
				}
				if d.conceded(party, ref) {
					return nil, refuse("you conceded %s: retract the concession before attacking it", ref)
				}
				m.Target = ref
			case refMove.Act == ActSince:
				if refMove.Party != opp {
					return nil, refuse("an undercut attacks the other side's inference; %s is your own", d.describeRef(ref))
				}
				if d.stmts[refMove.Target].Retracted {
					return nil, refuse("the conclusion of %s was retracted: there is nothing left to undercut", ref)
				}
				m.Target, m.Inference = refMove.Target, true
			default:
				return nil, refuse("`claim` answers a claim or premise (counter-claim) or a since move (undercut of its inference); %s has valid responses %s", d.describeRef(ref), validResponses(refMove.Act))
			}
		}
		m.Statement = text
	case ActWhy:
		if target == nil {
			return nil, refuse("`why` challenges a statement (a claim or a premise such as P2.1); %s is not one — its valid responses are %s", d.describeRef(ref), validResponses(refMove.Act))
		}
		if target.Party != opp {
			return nil, refuse("you cannot challenge your own statement %s", ref)
		}
		if !d.committed(opp, ref) {
			return nil, refuse("%s is not in %s's commitment store any more (retracted)", ref, opp)
		}
		if d.conceded(party, ref) {
			return nil, refuse("you conceded %s: you cannot ask why of it", ref)
		}
		if d.challenged(party, ref) {
			return nil, refuse("you already asked why of %s: challenge its premises, attack it, or concede it", ref)
		}
		m.Target, m.Statement = ref, target.Text
	case ActConcede:
		if target == nil {
			return nil, refuse("`concede` admits a statement (a claim or a premise such as P2.1); %s is not one", d.describeRef(ref))
		}
		if target.Party != opp {
			return nil, refuse("you cannot concede your own statement %s", ref)
		}
		if target.Retracted {
			return nil, refuse("%s was retracted by %s: there is nothing to concede", ref, opp)
		}
		if d.committed(party, ref) {
			return nil, refuse("%s is already in your commitment store", ref)
		}
		m.Target, m.Statement = ref, target.Text
	case ActRetract:
		var s string
		switch {
		case target != nil && target.Party == party:
			s = ref
		case target != nil && d.committed(party, ref):
			s = ref // withdrawing an earlier concession
		case refMove != nil && refMove.Party == opp && (refMove.Act == ActWhy || refMove.Act == ActClaim) &&
			refMove.Target != "" && d.stmts[refMove.Target].Party == party:
			s = refMove.Target // answering a why or a counter-claim by giving the statement up
		default:
			return nil, refuse("`retract` withdraws one of your commitments: reply to the statement itself, or to the other side's why or counter-claim against it; %s is neither", d.describeRef(ref))
		}
		if !d.committed(party, s) {
			return nil, refuse("%s is not in your commitment store (already retracted?)", s)
		}
		m.Target, m.Statement = s, d.stmts[s].Text
	case ActSince:
		var s string
		switch {
		case refMove != nil && refMove.Party == opp && refMove.Act == ActWhy:
			if by := d.answered[ref]; by != "" {
				return nil, refuse("the challenge %s was already answered by %s", ref, by)
			}
			s = refMove.Target
		case refMove != nil && refMove.Party == opp && refMove.Act == ActClaim && refMove.Target != "" && d.stmts[refMove.Target].Party == party:
			s = refMove.Target // a defence against a counter-claim
		default:
			return nil, refuse("`φ since S` answers `why φ`, or defends φ against a counter-claim; %s is neither a why nor an attack on one of your statements", d.describeRef(ref))
		}
		if !d.committed(party, s) {
			return nil, refuse("%s is no longer in your commitment store: you cannot give reasons for it", s)
		}
		var ps []string
		for _, p := range in.Premises {
			if p = strings.TrimSpace(p); p != "" {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			return nil, refuse("`since` needs at least one premise (the reasons S)")
		}
		if len(ps) > MaxPremises {
			return nil, refuse("`since` gives at most %d premises, got %d: keep the strongest", MaxPremises, len(ps))
		}
		m.Target, m.Statement = s, d.stmts[s].Text
		for _, p := range ps {
			m.Premises = append(m.Premises, Premise{Text: p})
		}
	}

	// Legal: record it and apply the effect rules.
	m.ID = fmt.Sprintf("%s%d", prefix(party), d.next[party])
	d.next[party]++
	d.moves = append(d.moves, m)
	d.byID[m.ID] = m
	switch act {
	case ActClaim: // C = C ∪ {φ}
		d.addStmt(&Statement{ID: m.ID, Party: party, Text: m.Statement, Move: m.ID, Round: round})
		d.commit(party, m.ID)
	case ActWhy: // C = C
	case ActConcede: // C = C ∪ {φ}
		d.commit(party, m.Target)
		d.concedes[party] = append(d.concedes[party], m.Target)
	case ActRetract: // C = C − {φ}
		d.uncommit(party, m.Target)
		if s := d.stmts[m.Target]; s.Party == party {
			s.Retracted = true
		} else {
			d.concedes[party] = slices.DeleteFunc(d.concedes[party], func(x string) bool { return x == m.Target })
		}
		if refMove != nil && refMove.Act == ActWhy {
			d.answered[ref] = m.ID
		}
	case ActSince: // C = C ∪ {φ} ∪ S
		d.commit(party, m.Target)
		for i := range m.Premises {
			m.Premises[i].ID = fmt.Sprintf("%s.%d", m.ID, i+1)
			d.addStmt(&Statement{ID: m.Premises[i].ID, Party: party, Text: m.Premises[i].Text, Move: m.ID, Conclusion: m.Target, Round: round})
			d.commit(party, m.Premises[i].ID)
		}
		if refMove.Act == ActWhy {
			d.answered[ref] = m.ID
		}
	}
	return m, nil
}

func (d *dialogue) addStmt(s *Statement) {
	d.stmts[s.ID] = s
	d.order = append(d.order, s.ID)
}

// firstClaim is the id of party's first claim (PRO's φ), or "".
func (d *dialogue) firstClaim(party string) string {
	for _, m := range d.moves {
		if m.Party == party && m.Act == ActClaim {
			return m.ID
		}
	}
	return ""
}

// settled reports a dialogue the parties ended themselves: the proponent
// gave up the proposition φ (retracted it, or conceded the opponent's
// opening counter-claim ¬φ), or the opponent conceded φ. The side that gave
// up loses, whatever the scores say.
func (d *dialogue) settled() (winner, reason string) {
	phi := d.firstClaim(PRO)
	if phi == "" {
		return "", ""
	}
	if !d.committed(PRO, phi) {
		return OPP, "PRO retracted the proposition " + phi
	}
	if d.conceded(OPP, phi) {
		return PRO, "OPP conceded the proposition " + phi
	}
	for _, m := range d.moves {
		if m.Party == OPP && m.Round == 0 && m.Act == ActClaim && d.conceded(PRO, m.ID) {
			return OPP, "PRO conceded OPP's counter-position " + m.ID
		}
	}
	return "", ""
}

func validResponses(act string) string {
	switch act {
	case ActClaim:
		return "`why φ`, `claim ¬φ`, `concede φ`"
	case ActWhy:
		return "`φ since S`, `retract φ`"
	case ActSince:
		return "`why ψ` or `concede ψ` for a premise ψ, or a `claim` undercutting the inference"
	default:
		return "none (`" + act + "` ends its line of dialogue)"
	}
}

// unanswered returns the other side's why moves against party's statements
// that still await a since or a retraction.
func (d *dialogue) unanswered(party string) []*Move {
	var out []*Move
	for _, m := range d.moves {
		if m.Act == ActWhy && m.Party == other(party) && d.answered[m.ID] == "" && d.committed(party, m.Target) {
			out = append(out, m)
		}
	}
	return out
}

// hasOpen reports whether the other side made a move party can answer: a
// statement it has neither conceded nor seen retracted, an inference to
// undercut, or a challenge or attack on party's statements.
func (d *dialogue) hasOpen(party string) bool {
	opp := other(party)
	for _, id := range d.order {
		if s := d.stmts[id]; s.Party == opp && !s.Retracted && !d.conceded(party, id) {
			return true
		}
	}
	return len(d.unanswered(party)) > 0 || len(d.attacksOn(party)) > 0
}

// attacksOn returns the other side's counter-claims against party's
// statements still committed, not themselves retracted.
func (d *dialogue) attacksOn(party string) []*Move {
	var out []*Move
	for _, m := range d.moves {
		if m.Act == ActClaim && m.Party == other(party) && m.Target != "" && !d.stmts[m.ID].Retracted && d.committed(party, m.Target) {
			out = append(out, m)
		}
	}
	return out
}

// unsettled returns the counter-claims whose relation the moves do not
// settle: a claim against a statement outside the opening. A counter-claim
// may contradict the statement (rebut) or deny that it supports anything
// (undercut); only reading it tells which, so the moderator classifies it.
func (d *dialogue) unsettled() []*Move {
	var out []*Move
	for _, m := range d.moves {
		if m.Act == ActClaim && m.Target != "" && !m.Inference && m.Round > 0 {
			out = append(out, m)
		}
	}
	return out
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
