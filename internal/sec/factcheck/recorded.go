package factcheck

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// WebLabel marks a figure taken from the web.
const WebLabel = "web, not checked against filings"

// Recorded is what a debate's research recorded besides the filings: the
// valuations its agents were given (every figure with its source and date,
// on a market price or on the public float) and the web search results they
// read. The check holds the figures no filing states to it.
type Recorded struct {
	// Valuations are tried in order; a figure that matches none is
	// corrected against the first that has it.
	Valuations []Valuation
	Web        []WebSource
}

// Valuation is one recorded valuation: what the valuation tool answered, or
// what the debate recorded at creation.
type Valuation struct {
	Basis   string                 `json:"basis"` // analysis.BasisMarketPrice or analysis.BasisPublicFloat
	Figures []analysis.ValueFigure `json:"figures"`
	Price   *analysis.Price        `json:"price,omitempty"`
}

// WebSource is a web search result an agent read.
type WebSource struct {
	URL       string `json:"url"`
	Published string `json:"published,omitempty"`
	Engine    string `json:"engine,omitempty"`
	Retrieved string `json:"retrieved,omitempty"`
	// Text is the result's title and snippet: a figure found in it was
	// taken from the web.
	Text string `json:"-"`
}

// Cite is how a report cites the result: "https://… (2026-06-30)".
func (w WebSource) Cite() string {
	s := w.URL
	switch {
	case w.Published != "":
		s += " (" + w.Published + ")"
	case w.Retrieved != "":
		s += " (retrieved " + w.Retrieved + ")"
	}
	return s
}

// CheckWith finds and checks every financial figure in text, holding those
// no filing states to what the debate recorded (rec may be nil).
func (t *Table) CheckWith(text string, rec *Recorded) []Finding {
	var out []Finding
	for _, m := range Find(text, t) {
		out = append(out, t.CheckMentionWith(m, rec))
	}
	return out
}

// CheckMentionWith checks one figure against the filings and what the
// debate recorded:
//
//   - a figure whose sentence cites a web result the debate recorded was
//     taken from the web: it is labelled web (not checked against filings),
//     with the result's URL and date;
//   - a price, market value or multiple is verified or corrected against
//     the recorded valuation, with its source and date; on the public-float
//     basis only a figure that says it is on the public float is corrected,
//     since a market multiple is not a public-float one;
//   - a figure the filings cannot settle that a web result states is
//     labelled web too;
//   - anything else is the filings' check.
func (t *Table) CheckMentionWith(m Mention, rec *Recorded) Finding {
	if rec != nil {
		if w, ok := rec.citedWeb(m.Quote); ok {
			f := Finding{Quote: m.Quote, Text: m.Text, Metric: m.Metric, Period: m.Period, Row: m.Row, Status: Web, Reason: WebLabel, Web: &w}
			return f
		}
	}
	f := t.CheckMention(m)
	if rec == nil || f.Status != MarketData && f.Status != Unverified {
		return f
	}
	if m.Currency == "" && !m.dollar && t.Currency != "" {
		// A market value or price stated with no currency is read in the
		// filer's, as its other amounts are.
		m.Currency = t.Currency
	}
	if f.Status == MarketData && rec.checkMarket(t, &f, m) {
		return f
	}
	if w, ok := rec.webWith(m.Text); ok {
		f.Status, f.Reason, f.Web = Web, WebLabel, &w
	}
	return f
}

// checkMarket holds a market figure to the recorded valuations; it reports
// whether it settled the figure.
func (r *Recorded) checkMarket(t *Table, f *Finding, m Mention) bool {
	if m.Hypothetical {
		// "breaks if the P/E stays above 25x": a condition, not a
		// statement of the figure.
		return false
	}
	mm := analysis.MarketMention{Sentence: m.Quote, Start: m.Start, End: m.End, Value: m.Value, Step: m.Step, Approx: m.Approx, Bound: m.Bound, Currency: m.Currency}
	switch m.Unit {
	case "multiple":
		mm.Unit = analysis.UnitTimes
	case Percent:
		mm.Unit = analysis.UnitPercent
	case USD:
		mm.Unit = analysis.UnitUSD
	case USDPerShare:
		mm.Unit = analysis.UnitPerShare
	default:
		return false
	}
	// A figure that says it is on the public float is of that basis: it is
	// held to a public-float valuation only, and a market figure to any.
	onFloat := strings.Contains(LowerASCII(m.Quote), "public float")
	var first *analysis.MarketCheck
	var firstBasis, otherTime string
	for _, v := range r.Valuations {
		if onFloat && v.Basis != analysis.BasisPublicFloat {
			continue
		}
		c, ok := analysis.CheckMarket(v.Figures, v.Price, mm)
		if !ok {
			continue
		}
		if why := t.marketTime(m, c.Figure.Date); why != "" {
			// A multiple or price of another day is not the
			// recorded one, right or wrong.
			if otherTime == "" {
				otherTime = "market data, not checked: " + why + ", and the recorded " + c.Figure.Label + " is as of " + c.Figure.Date
			}
			continue
		}
		if c.Match {
			f.Status, f.Reason, f.Market = Verified, "matches the recorded market data", &c.Figure
			return true
		}
		if alt, ok := t.peOnEPS(v.Price, c.Figure); ok {
			if ac, ok := analysis.CheckMarket([]analysis.ValueFigure{alt}, nil, mm); ok && ac.Match {
				f.Status, f.Reason, f.Market = Verified, "matches the recorded price over the filings' diluted EPS (TTM)", &ac.Figure
				return true
			}
		}
		if first == nil {
			first, firstBasis = &c, v.Basis
		}
	}
	if first == nil {
		if otherTime != "" {
			f.Reason = otherTime
			return true
		}
		if onFloat && len(r.Valuations) > 0 {
			f.Reason = "market data, not checked against filings; it is on the public float, and the debate's valuation is on a market price"
			return true
		}
		return false
	}
	if firstBasis == analysis.BasisPublicFloat && !onFloat {
		// The debate has no market price: a multiple quoted from the
		// market is not wrong for differing from the public float's.
		f.Reason = "market data, not checked against filings; the debate's valuation is on the public float (" +
			first.Figure.Label + " " + first.Figure.Display + " as of " + first.Figure.Date + "), not a market price"
		return true
	}
	f.Status, f.Reason, f.Market = Corrected, "it does not match the market data the debate recorded", &first.Figure
	return true
}

// peOnEPS is the P/E as the recorded price over diluted EPS (TTM), the
// other way a P/E is stated besides the valuation's market cap over net
// income (pe, recorded): they differ by the weighted diluted shares
// against the cover's count, NVIDIA's 24.6x against 24.3x. ok is false for
// another figure, with no price, or with no positive TTM EPS.
func (t *Table) peOnEPS(price *analysis.Price, pe analysis.ValueFigure) (analysis.ValueFigure, bool) {
	if pe.Name != "pe_ttm" || price == nil || price.Value <= 0 || !strings.EqualFold(cmp.Or(price.Currency, "USD"), cmp.Or(t.Currency, "USD")) {
		return analysis.ValueFigure{}, false
	}
	eps, ok := t.Lookup(EPSDiluted, Period{FY: t.LatestFY, TTM: true})
	if !ok || eps.Value <= 0 {
		return analysis.ValueFigure{}, false
	}
	v := price.Value / eps.Value
	return analysis.ValueFigure{Name: "pe_ttm", Label: "P/E (TTM, price ÷ diluted EPS)", Value: v, Unit: "times",
		Display: fmt.Sprintf("%.1fx", v), Formula: fmt.Sprintf("price ÷ diluted EPS (TTM, %s)", Display(EPSDiluted, eps.Value)),
		Date: pe.Date, Source: pe.Source + "; diluted EPS (TTM) " + eps.Source}, true
}

// marketTime says why a market figure is of another time than date (the
// recorded figure's, "2026-07-07"), "" when it may be of that day: the
// sentence states a calendar date that is not it ("on March 3, 2026", "as
// of January 2025"), or dates the figure to a period before the latest
// fiscal year ("at the end of fiscal 2024", "a year ago", "on fiscal 2025
// earnings"). A figure stated with no time, or of the latest year (whose
// earnings the trailing multiple is on), is today's.
func (t *Table) marketTime(m Mention, date string) string {
	y, mo, d, ok := isoDate(date)
	if !ok {
		return ""
	}
	if dates := statedDates(m.Quote); len(dates) > 0 {
		for _, sd := range dates {
			if sd.month == mo && (sd.day == 0 || sd.day == d) && (sd.year == 0 || sd.year == y) {
				return ""
			}
		}
		return "the sentence dates it to " + dates[0].text
	}
	switch {
	case m.Relative:
		return "the sentence dates it to " + m.Period.String() + " (counted back)"
	case m.Explicit && (m.Period.FY == 0 || m.Period.FY < t.LatestFY):
		return "the sentence dates it to " + m.Period.String()
	}
	return ""
}

// statedDate is a calendar date a sentence states: a day ("July 7, 2026",
// "July 7", "2026-07-07") or a month ("January 2025"); 0 for a part not
// stated.
type statedDate struct {
	year, month, day int
	text             string
}

var (
	monthDateRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?|(\d{4})\b)`)
	})
	isoDateRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`) })
)

func statedDates(s string) []statedDate {
	var out []statedDate
	for _, g := range monthDateRe().FindAllStringSubmatch(s, -1) {
		sd := statedDate{month: strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(g[1]))/3 + 1, text: g[0]}
		sd.day, _ = strconv.Atoi(g[2])
		sd.year, _ = strconv.Atoi(g[3] + g[4])
		if sd.day > 31 {
			continue
		}
		out = append(out, sd)
	}
	for _, g := range isoDateRe().FindAllStringSubmatch(s, -1) {
		if y, mo, d, ok := isoDate(g[0]); ok {
			out = append(out, statedDate{year: y, month: mo, day: d, text: g[0]})
		}
	}
	return out
}

func isoDate(s string) (y, m, d int, ok bool) {
	tm, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, 0, 0, false
	}
	return tm.Year(), int(tm.Month()), tm.Day(), true
}

// citedWeb is the recorded web result a sentence cites, by its URL or its
// host name.
func (r *Recorded) citedWeb(sentence string) (WebSource, bool) {
	low := strings.ToLower(sentence)
	for _, w := range r.Web {
		u := strings.ToLower(strings.TrimRight(w.URL, "/"))
		u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
		if u != "" && strings.Contains(low, u) {
			return w, true
		}
	}
	for _, w := range r.Web {
		if h := host(w.URL); h != "" && containsWord(low, h) {
			return w, true
		}
	}
	return WebSource{}, false
}

// webWith is the recorded web result whose text holds a figure as written.
func (r *Recorded) webWith(figure string) (WebSource, bool) {
	figure = strings.ToLower(strings.TrimSpace(figure))
	if len(figure) < 2 {
		return WebSource{}, false
	}
	for _, w := range r.Web {
		if containsWord(strings.ToLower(w.Text), figure) {
			return w, true
		}
	}
	return WebSource{}, false
}

// host is a URL's host name without "www.", "" for SEC hosts: a filing's
// link is not a web source.
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if h == "sec.gov" || strings.HasSuffix(h, ".sec.gov") || !strings.Contains(h, ".") {
		return ""
	}
	return h
}

// containsWord reports whether s holds sub not inside a longer word or
// number ("5%" is not in "15%").
func containsWord(s, sub string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return false
		}
		b, e := off+i, off+i+len(sub)
		if (b == 0 || !isWordByte(s[b-1]) && s[b-1] != '.' && s[b-1] != '$') && (e == len(s) || !isWordByte(s[e]) || !isWordByte(sub[len(sub)-1])) {
			return true
		}
		off = b + 1
	}
}
