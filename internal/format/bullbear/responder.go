package bullbear

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/sectools"
)

// noLLM opens every data-only turn, so that no reader mistakes it for a
// model's argument.
const noLLM = "No LLM was used: this turn was written by Parley's data-only %s agent from SEC data (XBRL facts and the filing list), by fixed rules."

// DataAgents argue from analysis.Evidence without a model: each side
// presents the metrics that favour it (with tag, period and accession), the
// rebuttals quote the opponent and answer with the opposing metrics of the
// same contention, and the moderator scores the conviction as the weighted
// share of evidence favouring the bull. Everything is deterministic.
type DataAgents struct {
	ev   *analysis.Evidence
	data string // provenance label
	more Research
}

// Research is what the data-only agents use beyond the XBRL evidence: the
// 8-K timeline since the last 10-K and the valuation, each with its source.
// A nil part was unavailable; its Err says why.
type Research struct {
	Events       *sectools.Timeline
	EventsErr    string
	Valuation    *analysis.Valuation
	ValuationErr string
}

// WithResearch adds the events timeline and the valuation.
func (d *DataAgents) WithResearch(r Research) *DataAgents {
	d.more = r
	return d
}

// NewDataAgents returns the data-only agents for the evidence; data labels
// where it came from.
func NewDataAgents(ev *analysis.Evidence, data string) *DataAgents {
	return &DataAgents{ev: ev, data: data}
}

// Responders returns a responder per agent: bull, bear and moderator.
func (d *DataAgents) Responders() map[string]debate.Responder {
	return map[string]debate.Responder{AgentBull: d, AgentBear: d, AgentModerator: d}
}

// Respond implements debate.Responder.
func (d *DataAgents) Respond(ctx context.Context, s *debate.State, t debate.TurnSpec) (string, error) {
	kind, _, _ := strings.Cut(t.ID, "/")
	var text string
	switch kind {
	case "research":
		text = d.research(s, t.Agent)
	case "opening":
		text = d.opening(t.Agent)
	case "rebuttal":
		text = d.rebuttal(s, t)
	case "reconcile":
		text = d.reconcile(s, t.Agent)
	case "synthesis":
		return d.synthesis(s)
	default:
		return "", fmt.Errorf("data-only agents cannot answer turn %s", t.ID)
	}
	return text + hintNote(s, t.Hints), nil
}

// hintNote acknowledges the hints a turn was given: a data-only agent argues
// from reported figures only and says so rather than pretend to follow them.
func hintNote(s *debate.State, ids []int) string {
	var b strings.Builder
	for _, h := range s.Hints {
		for _, id := range ids {
			if h.ID == id {
				fmt.Fprintf(&b, "\nUSER HINT received: %q. A data-only agent argues from the reported figures only, so it cannot act on hints; configure a model to use them.\n", h.Text)
			}
		}
	}
	return b.String()
}

func (d *DataAgents) mine(side string) (own, other []analysis.Metric) {
	if side == AgentBull {
		return d.ev.Bull, d.ev.Bear
	}
	return d.ev.Bear, d.ev.Bull
}

// research is a side's research note: the count of scored metrics, the
// names of those its opening argues (the opening states them with their
// figures and sources, so the note does not say them twice), the others in
// full, and the 8-K timeline and the valuation. Those two are the same data
// for both sides: when the bull's note is data-only too, the bear's refers
// to it rather than listing them again.
func (d *DataAgents) research(s *debate.State, side string) string {
	var b strings.Builder
	fmt.Fprintf(&b, noLLM+"\n\n", side)
	fmt.Fprintf(&b, "Research for the %s case on %s, FY%d", side, d.ev.Company, d.ev.FiscalYear)
	if d.data != "" {
		fmt.Fprintf(&b, " (data: %s)", d.data)
	}
	own, other := d.mine(side)
	fmt.Fprintf(&b, ":\n%d scored metrics favour the %s, %d favour the %s.\n", len(own), side, len(other), opponent(side))
	n := d.argued(side)
	if n > 0 {
		names := make([]string, n)
		for i, m := range own[:n] {
			names[i] = m.Label
		}
		fmt.Fprintf(&b, "The opening argues the strongest %d, with their figures and sources: %s.\n", n, strings.Join(names, ", "))
	}
	if rest := own[n:]; len(rest) > 0 {
		if n > 0 {
			b.WriteString("The others:\n")
		}
		for _, m := range rest {
			fmt.Fprintf(&b, "- %s\n", citeMetric(m))
		}
	}
	if side == AgentBear && !hasModel(s, AgentBull) && (d.more.Events != nil || d.more.Valuation != nil) {
		b.WriteString("\n8-K events and valuation: the same data as in the bull's research above.\n")
	} else {
		d.researchMore(&b, side)
	}
	if len(d.ev.Unscored) > 0 {
		// Each with the analysis's own reason: "missing data" would
		// misstate a loss, negative equity or a bank's Altman score.
		b.WriteString("\nNot scored:\n")
		for _, g := range d.ev.Unscored {
			fmt.Fprintf(&b, "- %s not available: %s\n", g.Name, g.Reason)
		}
	}
	return b.String()
}

// hasModel reports whether the debate's recorded cast gives agent (whose
// role is its name) a model; without one a data-only agent answers.
func hasModel(s *debate.State, agent string) bool {
	return s.Models[agent] != "" || s.Models["*"] != ""
}

// argued is how many of a side's own metrics its opening argues: the
// heaviest, up to the points left beside the valuation and events points.
func (d *DataAgents) argued(side string) int {
	own, _ := d.mine(side)
	return max(0, min(len(own), MaxPoints-len(d.extraPoints(side))))
}

// citeMetric is a metric with its tags and periods: the full citation.
func citeMetric(m analysis.Metric) string {
	s := m.Bullet()
	var tags []string
	for _, c := range m.Citations {
		tag := c.Tag + " " + c.End.String()
		if len(tags) < 3 && !contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	if len(tags) > 0 {
		s += " [" + strings.Join(tags, "; ") + "]"
	}
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// points are a side's 3-5 opening points: its own metrics, heaviest first,
// and when it has fewer than three, the opposing metrics nearest to flipping
// (the spec forces balance: even a weak case presents 3-5 points).
func (d *DataAgents) points(side string) []string {
	own, other := d.mine(side)
	var out []string
	for _, m := range own[:d.argued(side)] {
		out = append(out, citeMetric(m))
	}
	out = append(out, d.extraPoints(side)...)
	rest := append([]analysis.Metric(nil), other...)
	for len(out) < MinPoints && len(rest) > 0 {
		i := nearestIdx(rest)
		m := rest[i]
		rest = append(rest[:i], rest[i+1:]...)
		out = append(out, fmt.Sprintf("The %s's %s is only %.2f threshold-units from its cut-off: %s", opponent(side), lowerLabel(m.Label), m.Distance, citeMetric(m)))
	}
	for len(out) < MinPoints {
		out = append(out, fmt.Sprintf("No further reported metric supports the %s case for FY%d; the case rests on the points above", side, d.ev.FiscalYear))
	}
	return out
}

func nearestIdx(ms []analysis.Metric) int {
	best := 0
	for i, m := range ms {
		if m.Distance < ms[best].Distance {
			best = i
		}
	}
	return best
}

func lowerLabel(s string) string {
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

func (d *DataAgents) opening(side string) string {
	var b strings.Builder
	fmt.Fprintf(&b, noLLM+"\n\n", side)
	fmt.Fprintf(&b, "The %s case for %s (FY%d):\n\n", strings.ToUpper(side), d.ev.Company, d.ev.FiscalYear)
	for _, p := range d.points(side) {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	return b.String()
}

// rebuttal quotes up to two of the opponent's points, word for word, and
// answers each with this side's metric from the same contention, or its
// heaviest metric.
func (d *DataAgents) rebuttal(s *debate.State, t debate.TurnSpec) string {
	side, op := t.Agent, opponent(t.Agent)
	var theirs []string
	if ot := s.Completed(openingID(op)); ot != nil {
		theirs = Points(ot.Text)
	}
	own, _ := d.mine(side)
	var b strings.Builder
	fmt.Fprintf(&b, noLLM+"\n\n", side)
	// Round r answers the opponent's points r*2-1 and r*2, so a second round
	// takes up points the first left alone.
	start := (t.Round - 1) * 2
	answered := 0
	for i := start; i < len(theirs) && answered < 2; i++ {
		fmt.Fprintf(&b, "> %s\n\n", theirs[i])
		counter, ok := d.counter(side, theirs[i])
		switch {
		case ok:
			fmt.Fprintf(&b, "That point is real but contested: %s.\n\n", counter)
		case len(own) > 0:
			fmt.Fprintf(&b, "I acknowledge the figure; against it stands %s.\n\n", citeMetric(own[answered%len(own)]))
		default:
			fmt.Fprintf(&b, "I acknowledge this point: no reported metric contradicts it.\n\n")
		}
		answered++
	}
	if answered == 0 {
		// Nothing left to quote: quote the opponent's first point again.
		if len(theirs) > 0 {
			fmt.Fprintf(&b, "> %s\n\n", theirs[0])
		}
		fmt.Fprintf(&b, "The %s has no further point to answer; my case stands on the data above.\n", op)
	}
	return b.String()
}

// counter finds the contention a quoted point belongs to and returns this
// side's metric of it.
func (d *DataAgents) counter(side, point string) (string, bool) {
	for _, c := range d.ev.Contentions {
		theirs, mine := c.Bear, c.Bull
		if side == AgentBear {
			theirs, mine = c.Bull, c.Bear
		}
		if strings.HasPrefix(point, theirs.Label+" ") {
			return fmt.Sprintf("on %s, %s", strings.ToLower(c.Topic), citeMetric(mine)), true
		}
	}
	return "", false
}

func (d *DataAgents) reconcile(s *debate.State, side string) string {
	var b strings.Builder
	fmt.Fprintf(&b, noLLM+"\n\n", side)
	fc, _ := factCheckNote(s)
	n := 0
	if fc != nil {
		for _, x := range fc.Discrepancies {
			if x.Agent == side {
				fmt.Fprintf(&b, "I correct %s %s: per %s, the figure is %s.\n", x.Label, x.Cited, x.per(), x.Actual)
				n++
			}
		}
	}
	if n == 0 {
		b.WriteString("My figures are the reported ones; nothing to correct.\n")
	}
	return b.String()
}

func (d *DataAgents) synthesis(s *debate.State) (string, error) {
	ev := d.ev
	syn := Synthesis{Score: ev.Conviction.Score, Stance: StanceOf(ev.Conviction.Score), Agreements: []string{}, Discrepancies: []string{}}
	syn.BullCase = d.points(AgentBull)
	syn.BearCase = d.points(AgentBear)
	for _, c := range ev.Contentions {
		syn.Contentions = append(syn.Contentions, Contention{Topic: c.Topic,
			Bull: fmt.Sprintf("%s of %s", c.Bull.Label, c.Bull.Display), Bear: fmt.Sprintf("%s of %s", c.Bear.Label, c.Bear.Display)})
	}
	if len(syn.Contentions) < 2 {
		// Fewer than two metric pairs disagree: the data agree.
		syn.Consensus = true
		if ev.Conviction.BullShare >= 0.5 {
			for _, m := range ev.Bull {
				syn.Agreements = append(syn.Agreements, fmt.Sprintf("%s of %s favours the bull", m.Label, m.Display))
			}
		} else {
			for _, m := range ev.Bear {
				syn.Agreements = append(syn.Agreements, fmt.Sprintf("%s of %s favours the bear", m.Label, m.Display))
			}
		}
		if len(syn.Agreements) == 0 {
			syn.Agreements = []string{"no reported metric could be scored"}
		}
	}
	if syn.Contentions == nil {
		syn.Contentions = []Contention{}
	}
	for _, bk := range ev.Buckets {
		fav := "split"
		if side, ok := bk.Favours(); ok {
			fav = side.String()
		}
		syn.Buckets = append(syn.Buckets, Bucket{Bucket: bk.Name, Favours: fav,
			Evidence: fmt.Sprintf("weight %.1f bull vs %.1f bear", bk.BullWeight, bk.BearWeight)})
	}
	syn.Conviction = ev.Conviction.Reasoning()
	if ev.Conviction.If == "" {
		syn.Conviction = fmt.Sprintf("%d/10 because %s. Would be %d/10 if more annual data is reported.", ev.Conviction.Score, ev.Conviction.Because, ev.Conviction.Score)
	}
	if ev.ThesisBreaker != nil {
		syn.ThesisBreaker = ev.ThesisBreaker.String()
	} else {
		syn.ThesisBreaker = "Bull thesis breaks if: any scored metric turns against it (none could be scored)"
	}
	if fc, ok := factCheckNote(s); ok {
		for _, x := range fc.Discrepancies {
			syn.Discrepancies = append(syn.Discrepancies, x.String())
		}
	}
	syn.Summary = fmt.Sprintf("No LLM was used: the moderator's verdict is arithmetic over the %d scored metrics of FY%d: %.0f%% of the evidence weight favours the bull.",
		len(ev.Bull)+len(ev.Bear), ev.FiscalYear, 100*ev.Conviction.BullShare)
	b, err := json.Marshal(syn)
	if err != nil {
		return "", fmt.Errorf("encode the data-only synthesis: %w", err)
	}
	return string(b), nil
}

// valuationPE is the P/E above which the data-only bear argues valuation
// (the price already discounts years of growth) and below which the bull
// does (the earnings are cheap). It is a fixed rule, stated in the point.
const valuationPE = 20

// riskItems are 8-K items that report a setback or a change the bear cites.
var riskItems = []string{"1.02", "1.03", "1.05", "2.04", "2.05", "2.06", "3.01", "4.01", "4.02", "5.02"}

// extraPoints are the points from the valuation and the events timeline.
func (d *DataAgents) extraPoints(side string) []string {
	var out []string
	if v := d.more.Valuation; v != nil {
		if pe, ok := v.Figure("pe_ttm"); ok {
			basis := "market price"
			if v.Basis == analysis.BasisPublicFloat {
				basis = "public float, not a market price"
			}
			cite := fmt.Sprintf("(%s, as of %s; %s)", pe.Source, pe.Date, basis)
			switch {
			case side == AgentBear && pe.Value >= valuationPE:
				out = append(out, fmt.Sprintf("Valuation: P/E (TTM) of %s %s is at or above %dx: the price already discounts years of growth", pe.Display, cite, valuationPE))
			case side == AgentBull && pe.Value < valuationPE:
				out = append(out, fmt.Sprintf("Valuation: P/E (TTM) of %s %s is below %dx for a profitable filer", pe.Display, cite, valuationPE))
			}
		}
	}
	if tl := d.more.Events; tl != nil && side == AgentBear {
		for _, e := range tl.Events {
			for _, it := range e.Items {
				if slices.Contains(riskItems, it.Code) {
					out = append(out, fmt.Sprintf("Material event: 8-K filed %s, item %s (%s), accession %s (%s)", e.Filed, it.Code, it.Meaning, e.Accession, e.URL))
					return out
				}
			}
		}
	}
	return out
}

// researchMore lists the events timeline and the valuation in a research turn,
// each as a paragraph of its own: a line right after a list item would be
// read as part of that item wherever the turn is rendered as Markdown (the
// shell, the HTML and PDF documents).
func (d *DataAgents) researchMore(b *strings.Builder, side string) {
	switch tl := d.more.Events; {
	case tl != nil:
		fmt.Fprintf(b, "\n8-K events since %s (%s; %s):\n", tl.Since, tl.SinceReason, tl.Source)
		for _, e := range tl.Events {
			var items []string
			for _, it := range e.Items {
				items = append(items, it.Code+" "+it.Meaning)
			}
			fmt.Fprintf(b, "- %s 8-K %s: %s (%s)\n", e.Filed, e.Accession, strings.Join(items, "; "), e.URL)
		}
		if tl.Note != "" {
			fmt.Fprintf(b, "  (%s)\n", tl.Note)
		}
	case d.more.EventsErr != "":
		fmt.Fprintf(b, "\n8-K events: not available (%s).\n", d.more.EventsErr)
	}
	switch v := d.more.Valuation; {
	case v != nil:
		fmt.Fprintf(b, "\nValuation (%s basis):\n", v.Basis)
		for _, f := range v.Figures {
			fmt.Fprintf(b, "- %s: %s (%s; %s, as of %s)\n", f.Label, f.Display, f.Formula, f.Source, f.Date)
		}
		for _, n := range v.Notes {
			fmt.Fprintf(b, "  Note: %s\n", n)
		}
	case d.more.ValuationErr != "":
		fmt.Fprintf(b, "\nValuation: not available (%s).\n", d.more.ValuationErr)
	}
}
