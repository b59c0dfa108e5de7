package bullbear

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/factcheck"
)

// Figure kinds.
const (
	KindUSD      = "usd"
	KindPercent  = "percent"
	KindMultiple = "multiple"
)

// Figure is one reference number from the 10-K that the agents' numbers are
// checked against.
type Figure struct {
	// Name identifies what the figure measures ("revenue", "revenue_growth").
	Name       string  `json:"name"`
	Label      string  `json:"label"`
	Kind       string  `json:"kind"` // usd, percent (Value is a fraction), multiple
	FiscalYear int     `json:"fy"`
	Value      float64 `json:"value"`
	Display    string  `json:"display"`
	// Citation names the filing(s): "10-K 0001045810-26-000021".
	Citation string `json:"citation"`
	// Currency is the ISO code of an amount's currency when it is not the
	// US dollar ("EUR"): Display writes it ("€28,263M").
	Currency string `json:"currency,omitempty"`
}

// Discrepancy is a number an agent cited that matches no reported value of
// the figure it was cited for.
type Discrepancy struct {
	Agent   string  `json:"agent"`
	Turn    string  `json:"turn"`
	Cited   string  `json:"cited"`   // the text cited, "40%"
	Context string  `json:"context"` // the words around it
	Figure  string  `json:"figure"`  // figure name
	Label   string  `json:"label"`
	Actual  string  `json:"actual"` // per the 10-K, with the fiscal year
	Source  string  `json:"source"`
	Value   float64 `json:"value"` // the cited value, in the figure's unit
	// Per names the reference when it is not the 10-K: "the recorded
	// market data" for a price, market value or multiple.
	Per string `json:"per,omitempty"`
}

// String is the sentence the moderator and the reader see.
func (d Discrepancy) String() string {
	return fmt.Sprintf("%s cited %s %s; per %s, the figure is %s (%s).", title(d.Agent), d.Label, d.Cited, d.per(), d.Actual, d.Source)
}

func (d Discrepancy) per() string {
	if d.Per != "" {
		return d.Per
	}
	return "the 10-K"
}

// FactCheck is the result of checking the agents' numbers, recorded once as a
// note so that a resumed debate does not check again.
type FactCheck struct {
	Checked       int           `json:"checked"` // numbers matched to a figure
	Discrepancies []Discrepancy `json:"discrepancies,omitempty"`
	// Findings are every figure read (verified, corrected, unverified or
	// market data), and Summary counts them, for debates checked against
	// Options.Facts.
	Findings []factcheck.Finding `json:"findings,omitempty"`
	Summary  string              `json:"summary,omitempty"`
}

func (fc FactCheck) note() debate.Note {
	data, _ := json.Marshal(fc)
	if fc.Summary != "" {
		text := "Fact check: " + fc.Summary + "."
		if n := len(fc.Discrepancies); n > 0 {
			parts := make([]string, n)
			for i, d := range fc.Discrepancies {
				parts[i] = d.String()
			}
			text += " Factual discrepancy detected: " + strings.Join(parts, " ") + " The moderator asks both agents to reconcile."
		}
		return debate.Note{Kind: noteFactCheck, Data: data, Text: text}
	}
	text := fmt.Sprintf("Fact check: %d cited figure(s) matched against the 10-K; all within tolerance", fc.Checked)
	if fc.Checked == 0 {
		text = "Fact check: no cited figure could be matched against the 10-K figures"
	}
	if n := len(fc.Discrepancies); n > 0 {
		parts := make([]string, n)
		for i, d := range fc.Discrepancies {
			parts[i] = d.String()
		}
		text = fmt.Sprintf("Factual discrepancy detected (%d of %d checked): %s The moderator asks both agents to reconcile.", n, fc.Checked, strings.Join(parts, " "))
	}
	return debate.Note{Kind: noteFactCheck, Data: data, Text: text}
}

// synthesisNote records the synthesis's check.
func (fc FactCheck) synthesisNote() debate.Note {
	data, _ := json.Marshal(fc)
	text := "Fact check of the synthesis: " + fc.Summary + "."
	for _, d := range fc.Discrepancies {
		text += " " + d.String()
	}
	return debate.Note{Kind: noteSynthesisCheck, Data: data, Text: text}
}

// checkTexts checks every figure of the given turns' texts, and the
// structured claims they declare, against the reference facts, and the
// figures no filing states against what the debate recorded (rec).
func (p *Protocol) checkTexts(rec *recorded, turns []*debate.Turn) FactCheck {
	var fc FactCheck
	seen := map[string]bool{}
	for _, t := range turns {
		if t == nil {
			continue
		}
		prose, claims := splitClaims(t.Text)
		var fs []factcheck.Finding
		// An opponent's words quoted in a rebuttal are the opponent's
		// figures: checked in the opponent's turn, not again here.
		fs = append(fs, p.opts.Facts.CheckWith(stripQuotes(prose), rec.forAgent(t.Agent))...)
		for _, c := range claims {
			fs = append(fs, p.opts.Facts.CheckClaim(c))
		}
		for _, f := range fs {
			f.Agent, f.Turn = t.Agent, t.ID
			key := t.Agent + "|" + f.Quote + "|" + f.Text + "|" + string(f.Status)
			if seen[key] {
				continue
			}
			seen[key] = true
			fc.Findings = append(fc.Findings, f)
			if f.Status == factcheck.Verified || f.Status == factcheck.Corrected {
				fc.Checked++
			}
			if f.Status == factcheck.Corrected {
				fc.Discrepancies = append(fc.Discrepancies, discrepancyOf(f))
			}
		}
	}
	fc.Summary = factcheck.Summary(fc.Findings)
	return fc
}

// discrepancyOf states a corrected finding as the report's discrepancy.
func discrepancyOf(f factcheck.Finding) Discrepancy {
	d := Discrepancy{Agent: f.Agent, Turn: f.Turn, Cited: f.Text, Context: f.Said(), Figure: string(f.Metric),
		Label: f.Metric.Label() + " (" + f.Period.String() + ")"}
	switch {
	case f.Actual != nil:
		d.Actual = fmt.Sprintf("%s in %s; %s", factcheck.DisplayIn(f.Metric, f.Actual.Value, f.Currency), f.Actual.Period, f.Reason)
		d.Source = f.Actual.Source
		if form := foreignForm(d.Source); form != "" {
			d.Per = "the " + form
		}
	case f.Market != nil:
		d.Figure, d.Label, d.Per = f.Market.Name, f.Market.Label, "the recorded market data"
		d.Actual = f.Market.Display + " as of " + f.Market.Date
		d.Source = factcheck.MarketSource(*f.Market)
	default:
		d.Actual = f.Reason
	}
	return d
}

// checkSynthesis checks the texts written after the first check: the
// reconciliations and the moderator's synthesis.
func (p *Protocol) checkSynthesis(s *debate.State, v *view) FactCheck {
	var turns []*debate.Turn
	for _, side := range sides {
		turns = append(turns, v.reconcile[side])
	}
	text := strings.Join(synthesisTexts(v.synthesis), "\n\n")
	turns = append(turns, &debate.Turn{TurnRef: debate.TurnRef{ID: idSynthesis, Agent: AgentModerator}, Text: text})
	return p.checkTexts(p.recorded(s), turns)
}

// annotate marks, in a text of the synthesis, every sentence holding a
// figure the check corrected: the sentence is followed by the correction
// and its source, so that the report never repeats a wrong figure unmarked.
// A figure read from a Markdown table is marked after its table: its quote
// is the sentence the check wrote for it, which the text lacks, and a note
// inside the table would be a cell of its own.
func annotate(text string, fc *FactCheck) string {
	if fc == nil {
		return text
	}
	var rows [][2]string // the row and the note of each correction of a table's figure
	for _, f := range fc.Findings {
		if f.Status != factcheck.Corrected || f.Agent != AgentModerator {
			continue
		}
		note := " [Fact check: " + f.Text + " is wrong, " + f.Reason
		if per := f.Per(); per != "" {
			note += "; " + per
		}
		note += ".]"
		switch {
		case f.Row != "" && strings.Contains(text, f.Row):
			rows = append(rows, [2]string{f.Row, strings.TrimSpace(note)})
		case strings.Contains(text, f.Quote):
			text = strings.Replace(text, f.Quote, f.Quote+note, 1)
		}
	}
	if len(rows) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	after := map[int][]string{} // notes by the last line of their table
	for _, r := range rows {
		for i, l := range lines {
			if strings.TrimSpace(l) != r[0] {
				continue
			}
			j := i
			for j+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j+1]), "|") {
				j++
			}
			after[j] = append(after[j], r[1])
			break
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		if notes := after[i]; len(notes) > 0 {
			// A blank line first: a line right under a table is its row.
			b.WriteString("\n\n" + strings.Join(notes, "\n\n"))
			if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// synthesisTexts are the synthesis's prose fields.
func synthesisTexts(syn *Synthesis) []string {
	out := []string{syn.Summary, syn.Conviction, syn.ThesisBreaker}
	out = append(out, syn.BullCase...)
	out = append(out, syn.BearCase...)
	out = append(out, syn.Agreements...)
	for _, c := range syn.Contentions {
		out = append(out, c.Bull, c.Bear)
	}
	for _, bk := range syn.Buckets {
		out = append(out, bk.Evidence)
	}
	return out
}

// claimsRe finds the block of structured claims a debater appends.
var claimsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<claims>\s*(.*?)\s*</claims>`) })

// splitClaims separates a turn's prose from its claims block
// ("<claims>[...]</claims>", a JSON array of factcheck.Claim). A block that
// does not decode declares nothing; its figures are still read in the prose.
func splitClaims(text string) (string, []factcheck.Claim) {
	loc := claimsRe().FindStringSubmatchIndex(text)
	if loc == nil {
		return text, nil
	}
	var claims []factcheck.Claim
	_ = json.Unmarshal([]byte(text[loc[2]:loc[3]]), &claims)
	return text[:loc[0]] + text[loc[1]:], claims
}

// StripClaims removes the claims block from a turn's text for display.
func StripClaims(text string) string {
	prose, _ := splitClaims(text)
	return strings.TrimSpace(prose)
}

// factCheck checks the numbers of every bull and bear text: research notes,
// openings and rebuttals (reconciliations and the synthesis are checked when
// they are written).
func (p *Protocol) factCheck(s *debate.State, v *view) FactCheck {
	if p.opts.Facts != nil {
		var turns []*debate.Turn
		for _, side := range sides {
			turns = append(turns, v.research[side])
		}
		for _, side := range sides {
			turns = append(turns, v.openings[side])
		}
		for _, pair := range v.rebuttals {
			turns = append(turns, pair[0], pair[1])
		}
		return p.checkTexts(p.recorded(s), turns)
	}
	var fc FactCheck
	var turns []*debate.Turn
	for _, side := range sides {
		turns = append(turns, v.openings[side])
	}
	for _, pair := range v.rebuttals {
		turns = append(turns, pair[0], pair[1])
	}
	seen := map[string]bool{}
	for _, t := range turns {
		if t == nil {
			continue
		}
		for _, c := range Cited(stripQuotes(t.Text)) {
			cands := p.figures(c.Figure)
			if len(cands) == 0 {
				continue
			}
			fc.Checked++
			if matchesAny(c, cands) {
				continue
			}
			key := t.Agent + "|" + c.Figure + "|" + c.Text
			if seen[key] {
				continue
			}
			seen[key] = true
			cur := cands[0]
			fc.Discrepancies = append(fc.Discrepancies, Discrepancy{
				Agent: t.Agent, Turn: t.ID, Cited: c.Text, Context: c.Context, Figure: c.Figure,
				Label: lowerLabel(cur.Label), Actual: fmt.Sprintf("%s in FY%d", cur.Display, cur.FiscalYear),
				Source: cur.Citation, Value: c.Value,
			})
		}
	}
	return fc
}

// figures returns the reference figures of a name, latest fiscal year first.
func (p *Protocol) figures(name string) []Figure {
	var out []Figure
	for _, f := range p.opts.Figures {
		if f.Kind == KindUSD && f.Currency != "" {
			// This check reads dollar amounts ("$215.9B") only: an
			// amount in another currency is not held to them, nor a
			// dollar amount to euros (Parley does not convert).
			continue
		}
		if f.Name == name {
			out = append(out, f)
		}
	}
	// Latest year first: the discrepancy reports the current figure.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].FiscalYear > out[j-1].FiscalYear; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Tolerances: a cited figure within them of any reported year's value is
// right (rounding, "about", the prior year quoted for comparison).
const (
	tolPercentPoints = 1.0  // percentage points
	tolRelative      = 0.05 // 5% of the value
	tolMultiple      = 0.10 // 10% of a multiple
)

func matchesAny(c CitedNumber, fs []Figure) bool {
	for _, f := range fs {
		if within(c.Value, f) {
			return true
		}
	}
	return false
}

func within(cited float64, f Figure) bool {
	switch f.Kind {
	case KindPercent:
		// Growth is often cited without its sign ("fell 12%").
		actual := math.Abs(f.Value * 100)
		diff := math.Abs(math.Abs(cited) - actual)
		return diff <= math.Max(tolPercentPoints, tolRelative*actual)
	case KindMultiple:
		return math.Abs(cited-f.Value) <= math.Max(0.05, tolMultiple*math.Abs(f.Value))
	default:
		return math.Abs(cited-f.Value) <= tolRelative*math.Abs(f.Value)
	}
}

// CitedNumber is a number in an agent's text attributed to a figure.
type CitedNumber struct {
	Text    string  // as written: "$215.9B", "65.5%", "0.08x"
	Value   float64 // dollars, percent (65.5), or multiple
	Kind    string
	Figure  string // the figure it was attributed to
	Context string
}

var (
	usdRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(trillion|billion|million|thousand|bn|tn|mm|[tbmk])?\b`)
	})
	percentRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)([-+]?\d+(?:\.\d+)?)\s?(%|percent\b)`) })
	multipleRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s?[x×](?:\W|$)`) })
	anyNumRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d`) })
)

// keyword attributes numbers of a kind to a figure. Phrases are matched in
// lower case with hyphens as spaces; the longest one nearest the number wins.
type keyword struct {
	kind, phrase, figure string
}

func keywords() []keyword {
	var out []keyword
	add := func(kind, figure string, phrases ...string) {
		for _, p := range phrases {
			out = append(out, keyword{kind, p, figure})
		}
	}
	add(KindUSD, "revenue", "revenue", "revenues", "sales", "top line")
	add(KindUSD, "net_income", "net income", "net earnings")
	add(KindUSD, "operating_income", "operating income", "operating profit")
	add(KindUSD, "gross_profit", "gross profit")
	add(KindUSD, "operating_cash_flow", "operating cash flow", "cash from operations", "cash flow from operations")
	add(KindUSD, "free_cash_flow", "free cash flow", "fcf")
	add(KindPercent, "revenue_growth", "revenue", "revenues", "revenue growth", "sales growth", "sales", "top line")
	add(KindPercent, "net_income_growth", "net income", "net income growth", "earnings growth", "net earnings")
	add(KindPercent, "gross_margin", "gross margin", "gross margins")
	add(KindPercent, "operating_margin", "operating margin", "operating margins")
	add(KindPercent, "net_margin", "net margin", "net margins", "net profit margin")
	add(KindPercent, "fcf_margin", "free cash flow margin", "fcf margin")
	add(KindPercent, "roe", "return on equity", "roe")
	add(KindPercent, "roa", "return on assets", "roa")
	add(KindMultiple, "debt_to_equity", "debt to equity", "debt/equity", "d/e")
	add(KindMultiple, "current_ratio", "current ratio")
	add(KindMultiple, "cash_conversion", "cash conversion")
	return out
}

// blockers between a keyword and its number mean the number measures
// something else: a share, a segment, a quarter, a forecast.
var blockerRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(share|shares|concentration|customer|customers|segment|data center|guidance|expect|expects|expected|forecast|quarter|quarterly|q[1-4]|sequential|sequentially|per share|eps|change|points|pts|cagr|of the evidence|weight|threshold|cut-off|above|below)\b`)
})

// periodRe marks a clause about a quarter or a forecast.
var periodRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(quarter|quarterly|q[1-4]|sequential|sequentially|guidance|forecast|expects?|expected|next year|ttm)\b`)
})

// maxGap is how far (in bytes) a keyword may precede its number.
const maxGap = 48

// Cited finds the numbers in a text that can be attributed to a reference
// figure: a percentage, a dollar amount (with B/M/K or billion/million) or a
// multiple, preceded in the same sentence by the figure's name with no other
// number and no blocking word in between.
func Cited(text string) []CitedNumber {
	low := asciiLower(text)
	var out []CitedNumber
	scan := func(kind string, re *regexp.Regexp, value func(m []string) (float64, bool)) {
		for _, loc := range re.FindAllStringSubmatchIndex(low, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = low[loc[2*i]:loc[2*i+1]]
				}
			}
			val, ok := value(m)
			if !ok {
				continue
			}
			start := loc[0]
			fig, ctxStart := attribute(low, start, kind)
			if fig == "" {
				continue
			}
			// A quarter or a forecast anywhere in the clause makes the number
			// something other than the fiscal year's figure.
			after := low[loc[1]:min(len(low), loc[1]+24)]
			if i := strings.IndexAny(after, ".;\n!?"); i >= 0 {
				after = after[:i]
			}
			if periodRe().MatchString(low[ctxStart:loc[1]] + after) {
				continue
			}
			cited := strings.TrimRightFunc(text[start:loc[1]], func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '%'
			})
			out = append(out, CitedNumber{
				Text: strings.TrimSpace(cited), Value: val, Kind: kind, Figure: fig,
				Context: strings.TrimSpace(text[ctxStart:loc[1]]),
			})
		}
	}
	scan(KindUSD, usdRe(), func(m []string) (float64, bool) {
		n, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if err != nil {
			return 0, false
		}
		switch m[2] {
		case "trillion", "tn", "t":
			n *= 1e12
		case "billion", "bn", "b":
			n *= 1e9
		case "million", "mm", "m":
			n *= 1e6
		case "thousand", "k":
			n *= 1e3
		default:
			if n < 1e5 {
				return 0, false // "$5" is a share price, not a company figure
			}
		}
		return n, true
	})
	scan(KindPercent, percentRe(), func(m []string) (float64, bool) {
		n, err := strconv.ParseFloat(m[1], 64)
		return n, err == nil
	})
	scan(KindMultiple, multipleRe(), func(m []string) (float64, bool) {
		n, err := strconv.ParseFloat(m[1], 64)
		return n, err == nil
	})
	return out
}

// attribute returns the figure whose keyword precedes position at in low
// (lower-cased text), and where the context starts.
func attribute(low string, at int, kind string) (string, int) {
	from := max(0, at-maxGap)
	// Stay within the sentence.
	if i := strings.LastIndexAny(low[from:at], ".;:\n!?"); i >= 0 {
		// A decimal point is not a sentence end.
		j := from + i
		if !(j > 0 && j+1 < len(low) && isDigit(low[j-1]) && isDigit(low[j+1])) {
			from = j + 1
		}
	}
	window := low[from:at]
	best, bestEnd, bestLen := "", -1, 0
	for _, k := range keywords() {
		if k.kind != kind {
			continue
		}
		for off := 0; ; {
			i := strings.Index(window[off:], k.phrase)
			if i < 0 {
				break
			}
			s := off + i
			e := s + len(k.phrase)
			off = s + 1
			if s > 0 && isWord(window[s-1]) || e < len(window) && isWord(window[e]) {
				continue // part of a longer word
			}
			if e > bestEnd || e == bestEnd && len(k.phrase) > bestLen {
				best, bestEnd, bestLen = k.figure, e, len(k.phrase)
			}
		}
	}
	if best == "" {
		return "", 0
	}
	between := window[bestEnd:]
	if anyNumRe().MatchString(between) || blockerRe().MatchString(between) {
		return "", 0
	}
	return best, from
}

// asciiLower lower-cases ASCII letters and turns hyphens into spaces,
// keeping every byte offset of text valid in the result.
func asciiLower(text string) string { return factcheck.LowerASCII(text) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWord(c byte) bool  { return c >= 'a' && c <= 'z' || isDigit(c) }

// CheckAnswer checks the figures of a follow-up answer against the
// debate's reference facts, as every other text of the debate is; nil when
// the debate has none (one created before they were recorded).
func (Format) CheckAnswer(s *debate.State, agent, text string) []factcheck.Finding {
	var o Options
	if json.Unmarshal(s.Options, &o) != nil || o.Facts == nil {
		return nil
	}
	p := &Protocol{opts: o}
	return p.checkTexts(p.recorded(s), []*debate.Turn{{TurnRef: debate.TurnRef{Agent: agent}, Text: text}}).Findings
}
