package factcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// Status is what the check concluded about one figure.
type Status string

// Statuses.
const (
	Verified   Status = "verified"
	Corrected  Status = "corrected"
	Unverified Status = "unverified"
	MarketData Status = "market data"
	// Web is a figure taken from a web search result: cited with its URL
	// and date, not checked against filings.
	Web Status = "web"
)

// Finding is the check of one figure.
type Finding struct {
	Status Status `json:"status"`
	Agent  string `json:"agent,omitempty"`
	Turn   string `json:"turn,omitempty"`
	// Quote is the sentence the figure is in, as the agent wrote it; Text
	// the figure itself.
	Quote string `json:"quote"`
	Text  string `json:"text"`
	// Row is the Markdown table row the figure was read from, as written
	// (Quote is then the sentence the check wrote for it): a report marks
	// a correction of it after the table, since the quote is not in the
	// text.
	Row    string `json:"row,omitempty"`
	Metric Metric `json:"metric,omitempty"`
	Period Period `json:"period"`
	// Actual is what the filings say for the metric and period stated, when
	// they say it; Reason says what is wrong or why it is unverified.
	Actual *Fact  `json:"actual,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Claimed reports a figure from a structured claim, not read in prose.
	Claimed bool `json:"claimed,omitempty"`
	// Market is the recorded market figure (a price, a market value, a
	// multiple) a market figure was verified or corrected against, with
	// its source and date.
	Market *analysis.ValueFigure `json:"market,omitempty"`
	// Web is the web search result the figure was taken from.
	Web *WebSource `json:"web,omitempty"`
	// Currency is the ISO code of the currency the filer's amounts (and
	// so Actual) are in, when it is not the US dollar ("EUR").
	Currency string `json:"currency,omitempty"`
}

// Per says what the reference says for a corrected figure, with its source:
// "per the filing, revenue FY2025 was $130.5B (10-K …)" or "per the
// recorded market data, P/E (TTM) was 25.1x (…, as of 2025-07-25)"; "" when
// there is none.
func (f Finding) Per() string {
	switch {
	case f.Actual != nil:
		label := f.Metric.Label()
		if f.Actual.Metric != f.Metric {
			label = f.Actual.Metric.Label() // an amount of change, a change over years
		}
		return fmt.Sprintf("per the filing, %s %s was %s (%s)", label, f.Actual.Period, DisplayIn(f.Metric, f.Actual.Value, f.Currency), f.Actual.Source)
	case f.Market != nil:
		return fmt.Sprintf("per the recorded market data, %s was %s (%s)", f.Market.Label, f.Market.Display, MarketSource(*f.Market))
	}
	return ""
}

// MarketSource cites a recorded market figure: its source and the date it
// is as of.
func MarketSource(v analysis.ValueFigure) string {
	s := v.Source
	if v.Date != "" && !strings.Contains(s, v.Date) {
		s += ", as of " + v.Date
	}
	if strings.Contains(v.Note, "not a market price") {
		s += "; public float, not a market price"
	}
	return s
}

// Said is what the agent wrote that holds the figure, to quote to a
// reader: the Markdown table row it was read from, else its sentence. The
// sentence the check wrote for a table's figure ("Revenue FY2025:
// $120.5B.") is not in the agent's text, and quoted as the agent's it
// puts words in its mouth.
func (f Finding) Said() string {
	if f.Row != "" {
		return f.Row
	}
	return f.Quote
}

// Correction is the sentence a reader sees for a corrected figure.
func (f Finding) Correction() string {
	per := f.Per()
	if per == "" {
		return fmt.Sprintf("%q: %s", f.Text, f.Reason)
	}
	return fmt.Sprintf("%q (%s): %s; %s.", f.Said(), f.Text, f.Reason, per)
}

// Display writes a value in its metric's unit, amounts in US dollars:
// "$215.9B" ($215,938M for precision when small), "65.5%", "$4.90".
func Display(m Metric, v float64) string { return DisplayIn(m, v, "") }

// Display writes a value in its metric's unit, amounts in the table's
// currency: "€27.6B", "NT$45.25" for filers reporting in euros and Taiwan
// dollars.
func (t *Table) Display(m Metric, v float64) string { return DisplayIn(m, v, t.Currency) }

// DisplayIn writes a value in its metric's unit, amounts in currency (an
// ISO code; "" or "USD" for dollars): "€27.6B", "DKK 290.0B", "$4.90".
func DisplayIn(m Metric, v float64, currency string) string {
	cur := analysis.CurrencyPrefix(currency)
	switch UnitOf(m) {
	case Percent:
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	case USDPerShare:
		if v < 0 {
			return "-" + cur + strconv.FormatFloat(-v, 'f', 2, 64)
		}
		return cur + strconv.FormatFloat(v, 'f', 2, 64)
	case SharesUnit:
		return strconv.FormatFloat(v/1e9, 'f', 3, 64) + "B shares"
	case Multiple:
		return analysis.FormatValue(v, analysis.Multiple)
	case Points:
		return analysis.FormatValue(v/100, analysis.Points)
	case Score:
		if m == PiotroskiF {
			return strconv.FormatFloat(v, 'f', 0, 64) + "/9"
		}
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	switch {
	case v >= 1e12:
		return sign + cur + strconv.FormatFloat(v/1e12, 'f', 3, 64) + "T"
	case v >= 1e9:
		return sign + cur + strconv.FormatFloat(v/1e9, 'f', 1, 64) + "B"
	case v >= 1e8:
		return sign + cur + strconv.FormatFloat(v/1e6, 'f', 0, 64) + "M"
	case v >= 1e6:
		// A small filer's figures: "$12.3M", not "$12M", which would
		// not show a reader why "$12.9 million" was corrected.
		return sign + cur + strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	}
	// Under a million: in units ("$452,300"), not "$0M".
	return sign + cur + commas(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
}

// dollarNamed are the currencies besides the US dollar that are written
// "$" where they are used.
var dollarNamed = map[string]bool{"CAD": true, "AUD": true, "NZD": true, "HKD": true, "SGD": true, "TWD": true, "MXN": true}

// otherCurrency says why amount m cannot be checked when it is in a
// currency other than the filer's: a euro amount for a filer reporting in
// dollars, a dollar amount ("$27.6 billion", "USD 27.6bn") for one
// reporting in euros. "" when m is in the filer's currency, is no amount,
// or states none (an amount without a currency is read in the filer's).
func (t *Table) otherCurrency(m Mention) string {
	if m.Unit != USD && m.Unit != USDPerShare {
		return ""
	}
	filer := t.Currency
	if filer == "" {
		filer = "USD"
	}
	said := m.Currency
	if said == "" {
		if !m.dollar {
			return "" // no currency stated: the filer's
		}
		said = "USD"
	}
	if said == filer || said == "JPY or CNY" && (filer == "JPY" || filer == "CNY") {
		return ""
	}
	name := func(c string) string {
		if c == "USD" {
			return "US dollars"
		}
		return c
	}
	return fmt.Sprintf("an amount in %s: the filer reports its figures in %s, and the check does not convert currencies", name(said), name(filer))
}

// commas groups the digits of a whole number in thousands.
func commas(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Check finds and checks every financial figure in text.
func (t *Table) Check(text string) []Finding {
	var out []Finding
	for _, m := range Find(text, t) {
		out = append(out, t.CheckMention(m))
	}
	return out
}

// CheckMention compares one figure with the filings.
func (t *Table) CheckMention(m Mention) Finding {
	if m.alt != (Period{}) {
		return t.checkEither(m)
	}
	f := Finding{Quote: m.Quote, Text: m.Text, Metric: m.Metric, Period: m.Period, Row: m.Row}
	if t.Currency != "" && t.Currency != "USD" {
		f.Currency = t.Currency
	}
	if m.dollar && !m.usd && !m.Market && dollarNamed[t.Currency] {
		// "$" for a filer reporting in Canadian or Taiwan dollars may be
		// its own currency or the US dollar: right in its own, it is
		// verified; otherwise nothing says which dollar it is.
		own := m
		own.dollar = false
		g := t.CheckMention(own)
		if g.Status == Corrected {
			g.Status, g.Actual = Unverified, nil
			g.Reason = fmt.Sprintf("an amount in \"$\", which may be US dollars or the filer's %s: it does not match the filing's figure in %s, "+
				"and the check does not convert currencies", t.Currency, t.Currency)
		}
		return g
	}
	switch {
	case !m.Market && t.otherCurrency(m) != "":
		// Never compared with the filer's figures: a euro amount that
		// happens to equal a dollar figure is not the filing's figure,
		// and the check does not convert currencies.
		f.Status, f.Reason = Unverified, t.otherCurrency(m)
		return f
	case m.Hi > m.Value && !m.Fraction && (m.Unit == Percent && m.Hi-m.Value > 5 || m.Unit != Percent && m.Hi > 1.25*m.Value):
		// "between $100 billion and $900 billion" is true of nearly any
		// figure: a range that wide states none.
		f.Status, f.Reason = Unverified, "a range too wide to hold the filings' figure to"
		return f
	case m.Market:
		if loss, ok := t.peOnLoss(m); ok {
			// No price makes a P/E of a loss meaningful: the figure is
			// wrong whatever the market says.
			f.Status, f.Metric, f.Period, f.Actual = Corrected, loss.Metric, loss.Period, &loss
			f.Reason = "a P/E is not meaningful: the company made a loss"
			return f
		}
		f.Status, f.Reason = MarketData, "market data, not checked against filings"
		return f
	case m.Points && UnitOf(m.Metric) != Points:
		f.Status, f.Reason = Unverified, "a change in percentage or basis points, which the check does not compute"
		return f
	case m.Hypothetical:
		f.Status, f.Reason = Unverified, "a condition, scenario or forecast, not a reported figure"
		return f
	case m.Share:
		f.Status, f.Reason = Unverified, "a share of something the filings do not report"
		return f
	case m.Segment:
		f.Status, f.Reason = Unverified, "a segment, product or region's figure: the check reads company totals"
		return f
	case m.Metric == bareCash && !m.claimed && !cashBalance(m.Quote):
		f.Status, f.Reason = Unverified, "cash stated as paid, returned, generated or raised, not as a balance: the check reads cash only as a balance at a date"
		return f
	case m.NonGAAP:
		f.Status, f.Reason = Unverified, "an adjusted (non-GAAP) figure: the filings state GAAP figures, which the check holds"
		return f
	case m.Metric == "" && m.Other != "":
		f.Status, f.Reason = Unverified, fmt.Sprintf("a figure of %s, which the check does not read from the filings", m.Other)
		return f
	case m.Unit == Multiple && UnitOf(m.Metric) != Multiple:
		f.Status, f.Reason = Unverified, "a ratio the check does not compute"
		return f
	case m.Metric == "":
		f.Status, f.Reason = Unverified, "no metric of the filings could be read for this figure"
		return f
	}
	switch m.Metric {
	case taxRate:
		return t.checkTaxRate(m)
	case StatutoryTaxRate:
		return t.checkStatutory(m, f)
	}
	if m.ToProfit {
		return t.checkToProfit(m, f)
	}
	if m.DirOnly {
		return t.checkDirection(m, f)
	}
	if m.SignStreak != 0 {
		return t.checkSignStreak(m, f)
	}
	if m.Record {
		return t.checkRecord(m, f)
	}
	if m.LossChange {
		return t.checkLossChange(m, f)
	}
	if m.Sequential {
		return t.checkSequential(m, f)
	}
	if m.Annual && len(m.Over) == 0 {
		f.Status, f.Reason = Unverified, "a rate a year over several years that neither its sentence nor the two before it in its paragraph name"
		return f
	}
	if m.AnnualWord && len(m.Over) == 0 {
		// "Annual growth of 15%" with no year: the latest year's growth,
		// or a rate a year over years it does not name. Right as the
		// first, it is verified; otherwise nothing settles it.
		g, ok := t.Lookup(m.Metric, Period{FY: t.LatestFY})
		if ok {
			if same, _ := matches(m, g.Value); same {
				f.Status, f.Period = Verified, g.Period
				return f
			}
		}
		f.Status, f.Reason = Unverified, "an annual rate with no year named: not the latest year's growth, and possibly a rate a year over years the text does not name"
		if ok {
			f.Reason = fmt.Sprintf("an annual rate with no year named: not the latest year's growth (%s in %s), and possibly a rate a year over years the text does not name", t.Display(m.Metric, g.Value), g.Period)
		}
		return f
	}
	if len(m.Over) > 0 {
		return t.checkOver(m, f)
	}
	if len(m.Total) > 0 {
		return t.checkTotal(m, f)
	}
	if m.Change {
		return t.checkChange(m, f)
	}
	if m.Period.Q == -3 {
		f.Status, f.Reason = Unverified, "a half-year, year-to-date or quarterly figure the check could not place in the fiscal calendar (it holds fiscal years and fiscal quarters)"
		return f
	}
	stated := t.candidates(m)
	var known []Fact
	if len(stated) == 0 {
		// A calendar year of a filer whose fiscal year is not it: the
		// four fiscal quarters ending in it add up to a flow's total.
		fact, why := t.calendarYear(m.Metric, m.Period.FY)
		if why != "" {
			f.Status, f.Reason = Unverified, fmt.Sprintf("calendar %d is not one of the filer's fiscal years, which end in %s, and %s",
				m.Period.FY, time.Month(t.FYEndMonth), why)
			return f
		}
		known = append(known, fact)
	}
	for _, p := range stated {
		if fact, ok := t.lookupOrChange(m.Metric, p); ok {
			known = append(known, fact)
		}
	}
	if len(known) == 0 {
		f.Status, f.Reason = Unverified, fmt.Sprintf("the filings Parley has give no %s for %s", m.Metric.Label(), periodText(m))
		for _, p := range stated {
			if why := t.gap(m.Metric, p); why != "" {
				f.Reason = why
				return f
			}
		}
		if b, _ := m.Metric.Base(); (b == DilutedShares || b == BasicShares) && (m.Period.Q == 4 || m.Period.TTM) {
			f.Reason = fmt.Sprintf("%s is an average over its period: the filings state it for the year and for the quarters of 10-Qs, "+
				"and a fourth quarter's or a TTM's cannot be worked out from them as a flow's can", b.Label())
		}
		if base, growth := m.Metric.Base(); growth {
			for _, p := range stated {
				prev := Period{FY: p.FY - 1, Q: p.Q}
				if g, ok := t.Lookup(base, prev); ok && g.Value <= 0 && !p.TTM {
					f.Reason = fmt.Sprintf("growth from %s's %s of %s is not meaningful", prev, base.Label(), t.Display(base, g.Value))
				}
			}
		}
		return f
	}
	f.Period = known[0].Period
	for _, fact := range known {
		m.slack = fact.Slack
		if fact.AsFiled != 0 && asFiledBasisRe().MatchString(LowerASCII(m.Quote)) {
			// "$3.85 as reported, before the 2024 split": the figure as
			// its filing stated it, on the footing the sentence names.
			if ok, _ := matches(m, fact.AsFiled); ok {
				f.Status, f.Period = Verified, fact.Period
				return f
			}
		}
		if ok, _ := matches(m, fact.Value); ok {
			f.Status, f.Period = Verified, fact.Period
			if why, before, wrong := t.lossMove(m, fact); wrong {
				f.Status, f.Reason, f.Actual = Corrected, why, &before
			}
			if why, before, wrong := t.levelMove(m, fact); wrong {
				f.Status, f.Reason, f.Actual = Corrected, why, &before
			}
			return f
		}
		// A return is also computed on the year's average balance, net
		// debt and net cash on other lines of cash.
		for _, alt := range alternatesOf[fact.Metric] {
			if avg, ok := t.Lookup(alt, fact.Period); ok {
				if ok, _ := matches(m, avg.Value); ok {
					f.Status, f.Period = Verified, fact.Period
					return f
				}
			}
		}
		// "Gross margin expanded 2%" may be 2% of the margin.
		if rel, ok := t.relativeChange(fact); ok && m.MarginPercent {
			if ok, _ := matches(m, rel); ok {
				f.Status, f.Period = Verified, fact.Period
				return f
			}
		}
	}
	if why, ok := t.quarterlyDividend(m, known); ok {
		f.Status, f.Reason = Unverified, why
		return f
	}
	actual := known[0]
	f.Status, f.Actual = Corrected, &actual
	m.slack = actual.Slack
	if _, why := matches(m, actual.Value); why != "" {
		f.Reason = why
		return f
	}
	if m.Fraction {
		f.Reason = fmt.Sprintf("the filing's share is %s, not %s", t.Display(m.Metric, actual.Value), m.Text)
		return f
	}
	f.Reason = t.diagnose(m, actual)
	return f
}

// calendarYear is a flow's total over calendar year y (a Period of Q
// calendarYearQ), or its growth over the calendar year before, as the sum
// of the four fiscal quarters that end in it (calendarQuarter: Apple's
// calendar 2024 is its fiscal 2024's last three quarters and fiscal
// 2025's first), reported or derived from year-to-date figures. Only an
// amount that adds up over quarters has one: not a per-share figure, a
// count averaged over the period, a balance or a rate. The reason is why
// there is none, "" when there is.
func (t *Table) calendarYear(m Metric, y int) (Fact, string) {
	base, growth := m.Base()
	if r, ok := calendarRatios[m]; ok {
		// A margin or a rate of two flows: the ratio of their totals.
		num, why := t.calendarYear(r[0], y)
		if why != "" {
			return Fact{}, why
		}
		den, why := t.calendarYear(r[1], y)
		if why != "" {
			return Fact{}, why
		}
		if den.Value <= 0 {
			return Fact{}, fmt.Sprintf("its %s is not meaningful on a %s of %s", m.Label(), r[1].Label(), t.Display(r[1], den.Value))
		}
		return Fact{Metric: m, Period: num.Period, Value: 100 * num.Value / den.Value, Source: num.Source + "; " + den.Source}, ""
	}
	if UnitOf(base) != USD || isInstant(base) || alternate[base] || labels[base] == "" {
		return Fact{}, fmt.Sprintf("its %s is not a sum of quarters the check could add up", m.Label())
	}
	total := func(y int) (Fact, bool) {
		sum := Fact{Metric: base, Period: Period{FY: y, Q: calendarYearQ}}
		var srcs []string
		for q := 1; q <= 4; q++ {
			p, ok := t.calendarQuarter(q, y)
			if !ok {
				return Fact{}, false
			}
			f, ok := t.Lookup(base, p)
			if !ok {
				return Fact{}, false
			}
			sum.Value += f.Value
			for _, s := range strings.Split(f.Source, "; ") {
				if !slices.Contains(srcs, s) {
					srcs = append(srcs, s)
				}
			}
		}
		sum.Source = strings.Join(srcs, "; ")
		return sum, true
	}
	cur, ok := total(y)
	if !ok {
		return Fact{}, fmt.Sprintf("the filings Parley has lack one of the %s quarters that end in it", base.Label())
	}
	if !growth {
		return cur, ""
	}
	prev, ok := total(y - 1)
	if !ok || prev.Value <= 0 {
		return Fact{}, fmt.Sprintf("the filings Parley have no %s total of calendar %d to measure its growth from", base.Label(), y-1)
	}
	return Fact{Metric: m, Period: cur.Period, Value: 100 * (cur.Value - prev.Value) / prev.Value, Source: cur.Source + "; " + prev.Source}, ""
}

// calendarRatios are the rates of a calendar year computed from the
// totals of two flows over it (numerator, denominator), as derive computes
// them for a fiscal period.
var calendarRatios = map[Metric][2]Metric{GrossMargin: {GrossProfit, Revenue}, OperatingMargin: {OperatingIncome, Revenue},
	NetMargin: {NetIncome, Revenue}, FCFMargin: {FreeCashFlow, Revenue}, PayoutRatio: {Dividends, NetIncome},
	EffectiveTaxRate: {IncomeTax, PretaxIncome}}

// checkTaxRate holds a rate named only a "tax rate" ("its tax rate was
// 24.1%") to the effective rate, as a debater writing of a company's year
// means it. Wrong as that, it may still be the statutory rate the filing
// reconciles from ("a 21% tax rate"), which is no wrong figure: it is then
// unverified, as is any mismatch when the filing states no statutory rate
// (a foreign filer's may be its own country's, which the check does not
// know). Named effective, a rate is held to the effective rate alone, and
// a wrong one is corrected even when it equals the statutory rate.
func (t *Table) checkTaxRate(m Mention) Finding {
	eff := m
	eff.Metric = EffectiveTaxRate
	f := t.CheckMention(eff)
	if f.Status != Corrected {
		return f
	}
	st, ok := t.Lookup(StatutoryTaxRate, Period{FY: f.Period.FY})
	if !ok {
		f.Status, f.Actual = Unverified, nil
		f.Reason = fmt.Sprintf("a tax rate not named effective: not the filing's effective rate for %s, and the filing states no statutory rate it may be instead", f.Period)
		return f
	}
	sm := m
	sm.Metric = StatutoryTaxRate
	if same, _ := matches(sm, st.Value); same {
		f.Status, f.Actual = Unverified, nil
		f.Reason = fmt.Sprintf("a tax rate not named effective: it is the federal statutory rate the filing reconciles from (%s), not the effective rate",
			t.Display(StatutoryTaxRate, st.Value))
	}
	return f
}

// checkStatutory verifies a statutory tax rate against the federal one
// the filing reconciles from for the year (a quarter's is its year's).
// A rate that is not it is unverified, never corrected: it may be another
// jurisdiction's, or a state's, and the law is not the company's figure.
func (t *Table) checkStatutory(m Mention, f Finding) Finding {
	for _, p := range t.candidates(m) {
		st, ok := t.Lookup(StatutoryTaxRate, Period{FY: p.FY})
		if !ok {
			continue
		}
		if same, _ := matches(m, st.Value); same {
			f.Status, f.Period = Verified, st.Period
			return f
		}
		f.Status, f.Period = Unverified, st.Period
		f.Reason = fmt.Sprintf("a statutory rate other than the federal one the filing reconciles from (%s in %s): it may be another jurisdiction's, which the check does not know",
			t.Display(StatutoryTaxRate, st.Value), st.Period)
		return f
	}
	f.Status, f.Reason = Unverified, "a statutory tax rate: the filings Parley has state none for "+periodText(m)
	return f
}

// checkEither checks a figure whose period may be read two ways (a
// quarter of a bare year: the fiscal quarter or the calendar one; "this
// year": the latest fiscal year or the one in progress; "two years ago":
// counted from the year in progress or from the latest): right
// in either reading, it is verified; wrong in both, corrected as the
// first; else, wrong in one and unsettled in the other, unverified, since
// nothing says which the writer meant.
func (t *Table) checkEither(m Mention) Finding {
	alt := m.alt
	m.alt = Period{}
	first := t.CheckMention(m)
	if first.Status != Corrected && first.Status != Unverified {
		return first
	}
	m.Period = alt
	second := t.CheckMention(m)
	switch {
	case second.Status == Verified:
		return second
	case first.Status == Corrected && second.Status == Corrected:
		return first
	case first.Status == Unverified && second.Status == Unverified:
		return first
	}
	wrong := first
	if wrong.Status != Corrected {
		wrong = second
	}
	f := first
	f.Status, f.Actual = Unverified, nil
	other := alt.String()
	if alt.Q < 0 {
		other = "a year to date the check does not hold"
	}
	f.Reason = fmt.Sprintf("the period stated may be read as %s or as %s: the figure does not match %s (%s), and the filings Parley has do not settle the other reading",
		first.Period, other, wrong.Period, wrong.Reason)
	return f
}

// quarterlyDividend reports whether a dividend a share stated for a year,
// wrong for the year, is one quarter's dividend: most companies pay
// quarterly and state the dividend as the quarter's ("a dividend of $0.26
// per share"), so the figure may be right of a quarter though not of the
// year, and the check cannot tell which was meant. It is one when it is a
// quarter's of the year the filings hold, or, with no quarter's held,
// about a quarter of the year's.
func (t *Table) quarterlyDividend(m Mention, known []Fact) (string, bool) {
	if m.Metric != DividendsPerShare || m.Bound != 0 || m.Hi != 0 {
		return "", false
	}
	for _, y := range known {
		if y.Period.Q != 0 || y.Period.TTM {
			continue
		}
		held := false
		for q := 1; q <= 4; q++ {
			if qf, ok := t.Lookup(DividendsPerShare, Period{FY: y.Period.FY, Q: q}); ok {
				held = true
				if ok, _ := matches(m, qf.Value); ok {
					return fmt.Sprintf("%s is %s's dividend a share, not %s's (%s): stated without \"quarterly\", the check cannot tell which is meant",
						m.Text, qf.Period, y.Period, t.Display(DividendsPerShare, y.Value)), true
				}
				// "raised its dividend to $0.84 a share", "its dividend
				// is $0.84 a share": the annual rate of a quarter's
				// dividend (4 × $0.21), not the year's declared total
				// ($0.83 when the raise came after its first quarter);
				// "paid $0.80 a share in dividends" is the year's.
				if ok, _ := matches(m, 4*qf.Value); ok && (m.dividendRate || m.LevelMove != 0) {
					return fmt.Sprintf("%s is the annual rate of %s's dividend a share (4 × %s), not %s's declared total (%s): the check cannot tell which is meant",
						m.Text, qf.Period, t.Display(DividendsPerShare, qf.Value), y.Period, t.Display(DividendsPerShare, y.Value)), true
				}
			}
		}
		if q := 4 * m.Value; !held && math.Abs(q-y.Value) <= 0.1*y.Value {
			return fmt.Sprintf("%s is about a quarter of %s's dividend a share of %s: stated without \"quarterly\", it may be one quarter's, which the filings Parley has do not give",
				m.Text, y.Period, t.Display(DividendsPerShare, y.Value)), true
		}
	}
	return "", false
}

// checkSequential holds a growth rate from the quarter before to the
// filings' quarters: the quarter stated (else the latest reported) over the
// one before it. Held to the year-over-year growth, a right sequential
// figure was corrected and a year-over-year figure called sequential passed.
func (t *Table) checkSequential(m Mention, f Finding) Finding {
	base, _ := m.Metric.Base()
	p := m.Period
	if !m.Explicit {
		var ok bool
		if p, ok = t.latestQuarterOf(base); !ok {
			f.Status, f.Reason = Unverified, fmt.Sprintf("a change from the quarter before: the filings Parley has give no quarterly %s", base.Label())
			return f
		}
	}
	if p.Q < 1 || p.TTM {
		f.Status, f.Reason = Unverified, "a change from the quarter before, stated for a period that is not a fiscal quarter"
		return f
	}
	prev := previousQuarter(p)
	f.Period = p
	cur, ok1 := t.Lookup(base, p)
	was, ok2 := t.Lookup(base, prev)
	switch {
	case !ok1 || !ok2:
		f.Status, f.Reason = Unverified, fmt.Sprintf("the filings Parley has give no %s for %s and %s", base.Label(), p, prev)
		return f
	case was.Value <= 0:
		f.Status, f.Reason = Unverified, fmt.Sprintf("growth from %s's %s of %s is not meaningful", prev, base.Label(), t.Display(base, was.Value))
		return f
	}
	actual := Fact{Metric: m.Metric, Period: p, Value: 100 * (cur.Value - was.Value) / was.Value,
		Source: fmt.Sprintf("%s over %s: %s; %s", p, prev, cur.Source, was.Source)}
	ok, why := matches(m, actual.Value)
	if ok {
		f.Status = Verified
		return f
	}
	f.Status, f.Actual, f.Reason = Corrected, &actual, why
	if why == "" {
		f.Reason = "the figure does not match the change from the quarter before"
		if yoy, found := t.Lookup(m.Metric, p); found {
			if same, _ := matches(m, yoy.Value); same {
				f.Reason = "that is the growth from a year earlier, not from the quarter before"
			}
		}
	}
	return f
}

// lookupOrChange is Lookup, and for a margin's change in points that the
// table does not hold (the analysis computes the gross and operating
// margins' for fiscal years only) the difference of the margins of the
// period and of the same period a year earlier.
func (t *Table) lookupOrChange(m Metric, p Period) (Fact, bool) {
	if f, ok := t.Lookup(m, p); ok {
		return f, true
	}
	if part, whole, ok := m.shareParts(); ok {
		a, ok1 := t.Lookup(part, p)
		b, ok2 := t.Lookup(whole, p)
		if !ok1 || !ok2 || b.Value <= 0 {
			return Fact{}, false
		}
		return Fact{Metric: m, Period: p, Value: 100 * a.Value / b.Value, Source: a.Source + "; " + b.Source}, true
	}
	margin, ok := marginOfChange[m]
	if !ok || p.TTM {
		return Fact{}, false
	}
	return t.yearOnYear(m, margin, p)
}

// averageReturn is a year's return on equity (ROAE) or on assets (ROAA)
// computed, as analysts and many filers compute it, on the average of the
// balance at the year's start and end, where the analysis's ROE and ROA
// are on the year-end balance. False when either balance is missing or
// not positive: a return on a negative book is no return.
func (t *Table) averageReturn(m Metric, fy int) (Fact, bool) {
	balance, ok := map[Metric]Metric{ROAE: Equity, ROAA: TotalAssets}[m]
	if !ok {
		return Fact{}, false
	}
	p := Period{FY: fy}
	ni, ok1 := t.Lookup(NetIncome, p)
	end, ok2 := t.Lookup(balance, p)
	start, ok3 := t.Lookup(balance, Period{FY: fy - 1})
	if !ok1 || !ok2 || !ok3 || end.Value <= 0 || start.Value <= 0 {
		return Fact{}, false
	}
	return Fact{Metric: m, Period: p, Value: 100 * ni.Value / ((start.Value + end.Value) / 2),
		Source: ni.Source + "; " + end.Source + "; " + start.Source}, true
}

// asFiledBasisRe names the footing of a figure a share as its filing
// stated it, before a later stock split restated it.
var asFiledBasisRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:pre[- ]split|before (?:the |its )?(?:\d{4} )?(?:\d+[- ]for[- ]\d+ )?(?:stock )?split|as (?:originally )?(?:reported|filed)|unadjusted|not split[- ]adjusted)\b`)
})

// Cues of cash held at a date ("had", "ended the year with", "cash of",
// "on hand", "cash pile") and of cash moved ("returned", "paid", "spent",
// "generated", "in cash and stock"): "cash" named alone is a balance only
// with the first and none of the second.
var (
	cashHeldRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:had|has|have|holds?|held|holding|ended|ending|end of|as of|at year[- ]end|on hand|balance sheet|sits? on|sitting on|sat on|in the bank|` +
			`cash\s+(?:of|was|were|is|are|stood|totall?ed|pile|hoard|reserves?|position|holdings|balances?|at))\b`)
	})
	cashMovedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:return(?:ed|ing|s)?|pa(?:id|ys?|ying)|sp(?:ent|end|ending)|generat(?:ed|es|ing|ion)|rais(?:ed|es|ing)|burn(?:ed|t|s|ing)?|` +
			`us(?:ed|es|ing)|invest(?:ed|ing)|acqui(?:red|res?|ring|sitions?)|bought|buy(?:ing|s)?|deals?|consideration|shareholders|dividends?|` +
			`buybacks?|repurchas(?:ed|es?|ing)|flows?|stock|inflows?|outflows?|proceeds|received|collected)\b`)
	})
)

// cashBalance reports whether a sentence states "cash" named alone as a
// balance held (cashHeldRe) and not as cash moved (cashMovedRe).
func cashBalance(sentence string) bool {
	return cashHeldRe().MatchString(sentence) && !cashMovedRe().MatchString(sentence)
}

// alternatesOf are the other readings of a metric a figure right by any
// of is right, and one right by none is corrected against the metric's.
// A return on equity or assets is also stated on the year's average
// balance (Apple's fiscal 2025 return on equity is 151.9% on year-end
// equity, 171% on average equity). Net debt is stated less cash and
// short-term investments (as the valuation computes it) or less cash
// alone; net cash, its opposite, either way or counting the marketable
// securities held past a year as well (Apple's own "net cash").
var alternatesOf = map[Metric][]Metric{ROE: {ROAE}, ROA: {ROAA}, ROCE: {ROACE}, NetDebt: {netDebtOfCash},
	NetCash: {netCashOfCash, netCashWithSecurities}, CashAndInvestments: {cashWithLongTermSecurities}, PayoutRatio: {payoutRatioPerShare},
	bareCash:   {cashWithRestricted, CashAndInvestments, cashWithLongTermSecurities},
	ForeignTax: {foreignTaxPaid}}

// relativeChange is a margin's change as a percentage of the margin a year
// earlier, for a change in points.
func (t *Table) relativeChange(change Fact) (float64, bool) {
	margin, ok := marginOfChange[change.Metric]
	if !ok {
		return 0, false
	}
	was, ok := t.Lookup(margin, Period{FY: change.Period.FY - 1, Q: change.Period.Q})
	if !ok || was.Value <= 0 {
		return 0, false
	}
	return 100 * change.Value / was.Value, true
}

// checkChange holds an amount of change ("grew by $6.0 billion", "a $1.2
// billion increase in net income") to the difference between the period
// stated and the same period a year earlier. Held to the level, a right
// change was corrected.
func (t *Table) checkChange(m Mention, f Finding) Finding {
	if m.Period.Q == -3 {
		f.Status, f.Reason = Unverified, "a change over a period the check could not place in the fiscal calendar"
		return f
	}
	stated := t.candidates(m)
	for _, p := range stated {
		if p.TTM {
			continue
		}
		cur, ok1 := t.Lookup(m.Metric, p)
		was, ok2 := t.Lookup(m.Metric, Period{FY: p.FY - 1, Q: p.Q})
		if !ok1 || !ok2 {
			continue
		}
		diff := cur.Value - was.Value
		if m.fromLoss && (cur.Value >= 0 || was.Value >= 0) {
			// "the net loss widened by $630 million": stated of a loss in
			// both periods, which one of them was not.
			p0 := Period{FY: p.FY - 1, Q: p.Q}
			f.Status, f.Period, f.Actual = Corrected, p, &was
			f.Reason = fmt.Sprintf("stated as a change in a loss, but %s was not a loss in %s", m.Metric.Label(), p0)
			if cur.Value >= 0 {
				f.Actual, f.Reason = &cur, fmt.Sprintf("stated as a change in a loss, but %s was not a loss in %s", m.Metric.Label(), p)
			}
			return f
		}
		// Named for the change, so that Per says "revenue change FY2024
		// was $6.0B", not that revenue was.
		actual := Fact{Metric: m.Metric + "_change", Period: p, Value: diff, Source: cur.Source + "; " + was.Source}
		f.Period = p
		size := math.Abs(diff)
		tol := m.Step
		if tol == 0 {
			tol = size * 0.001
		}
		if m.Approx {
			tol = math.Max(tol, 0.03*size)
		}
		tol += 1e-9 * math.Max(1, size)
		switch {
		case m.Dir < 0 && diff > 0:
			f.Reason = fmt.Sprintf("stated as a decline, but %s rose %s from %s", m.Metric.Label(), t.Display(m.Metric, diff), Period{FY: p.FY - 1, Q: p.Q})
		case m.Dir > 0 && diff < 0:
			f.Reason = fmt.Sprintf("stated as a rise, but %s fell %s from %s", m.Metric.Label(), t.Display(m.Metric, -diff), Period{FY: p.FY - 1, Q: p.Q})
		case math.Abs(m.Value-size) <= tol:
			f.Status = Verified
			return f
		default:
			f.Reason = fmt.Sprintf("the change from %s does not match: %s changed by %s", Period{FY: p.FY - 1, Q: p.Q}, m.Metric.Label(), t.Display(m.Metric, diff))
		}
		f.Status, f.Actual = Corrected, &actual
		return f
	}
	f.Status, f.Reason = Unverified, fmt.Sprintf("the filings Parley has give no %s for %s and the year before", m.Metric.Label(), periodText(m))
	return f
}

// previousQuarter is the fiscal quarter before p.
func previousQuarter(p Period) Period {
	if p.Q == 1 {
		return Period{FY: p.FY - 1, Q: 4}
	}
	return Period{FY: p.FY, Q: p.Q - 1}
}

// latestQuarterOf is the latest fiscal quarter for which the table holds m.
func (t *Table) latestQuarterOf(m Metric) (Period, bool) {
	var best Period
	for _, f := range t.Facts {
		if f.Metric != m || f.Period.Q < 1 || f.Period.TTM {
			continue
		}
		if p := f.Period; p.FY > best.FY || p.FY == best.FY && p.Q > best.Q {
			best = p
		}
	}
	return best, best.Q > 0
}

// latestQuarter is the latest fiscal quarter the table holds revenue for
// ("last quarter", "the most recent quarter").
func (t *Table) latestQuarter() (Period, bool) { return t.latestQuarterOf(Revenue) }

// peRe names a price-to-earnings multiple; forwardRe a forecast one, which
// rests on earnings to come, not on the loss reported.
var (
	peRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(p/e|pe ratio|price to earnings|price/earnings|earnings multiple)\b|(?:\btimes|\dx|×)\s+(?:trailing\s+|ttm\s+)?earnings\b`)
	})
	forwardRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(forward|next year|fy\d{2,4}e|estimated|expected|consensus)\b`)
	})
)

// peOnLoss is the loss that makes a trailing P/E stated in m meaningless:
// the TTM net income, else the latest fiscal year's, when negative.
func (t *Table) peOnLoss(m Mention) (Fact, bool) {
	if m.Unit != Multiple || m.Hypothetical {
		return Fact{}, false
	}
	clause := clauseAround(lowerASCII(m.Quote), m.Start, m.End)
	if !peRe().MatchString(clause) || forwardRe().MatchString(clause) {
		return Fact{}, false
	}
	for _, p := range []Period{{FY: t.LatestFY, TTM: true}, {FY: t.LatestFY}} {
		if f, ok := t.Lookup(NetIncome, p); ok {
			return f, f.Value < 0
		}
	}
	return Fact{}, false
}

// candidates are the periods a figure may be for: the one stated (a bare
// calendar year is also the fiscal year ending early in the next one), or,
// unstated, the latest fiscal year or the trailing twelve months.
func (t *Table) candidates(m Mention) []Period {
	p := m.Period
	switch {
	case p.Q == -1:
		out := []Period{{FY: p.FY}}
		if t.FYEndMonth >= 1 && t.FYEndMonth <= 3 && !t.FYNamedForStart {
			out = append(out, Period{FY: p.FY + 1})
		}
		return out
	case p.Q == -2:
		// An explicit calendar year is a fiscal year only where the two
		// (nearly) coincide: a December year end, or a year ending in
		// January (named for the year it ends in, or, ending in its first
		// days, for the year before) or, named for the year it begins in,
		// early February.
		switch e := t.FYEndMonth; {
		case e == 12 || e == 0:
			return []Period{{FY: p.FY}}
		case e == 1 && !t.FYNamedForStart:
			return []Period{{FY: p.FY + 1}}
		case (e == 1 || e == 2) && t.FYNamedForStart:
			return []Period{{FY: p.FY}}
		}
		return nil
	case !m.Explicit && (m.Metric == NetDebt || m.Metric == NetCash || m.Metric == CashAndInvestments || m.Metric == bareCash):
		// Net debt with no date is the valuation's, at the latest balance
		// sheet (a 10-Q's after the 10-K), or the latest year end's.
		out := []Period{{FY: t.LatestFY}}
		if q, ok := t.latestQuarterOf(m.Metric); ok && q.FY > t.LatestFY {
			out = append(out, q)
		}
		return out
	case !m.Explicit:
		return []Period{{FY: t.LatestFY}, {FY: t.LatestFY, TTM: true}}
	case m.FromQuarter && p.Q > 0:
		return []Period{p, previousQuarter(Period{FY: p.FY + 1, Q: p.Q})}
	}
	return []Period{p}
}

func periodText(m Mention) string {
	switch m.Period.Q {
	case -1:
		return fmt.Sprint(m.Period.FY)
	case -2:
		return fmt.Sprintf("calendar %d", m.Period.FY)
	}
	return m.Period.String()
}

// isChange reports whether a metric is a change (a growth rate, or a move in
// points), stated as a size with its direction in words, not with a sign.
func isChange(metric Metric) bool {
	u := UnitOf(metric)
	if u == Points {
		return true
	}
	_, growth := metric.Base()
	return u == Percent && growth
}

// matches compares a stated figure with the filing's value. It returns
// whether they agree and, when they disagree in direction, why. A change
// (a growth rate, a margin's change in points) is held to its direction:
// stated without one, it is a rise.
func matches(m Mention, actual float64) (bool, string) {
	stated := m.Value
	if isChange(m.Metric) {
		size := func(v float64) string { return strings.TrimPrefix(Display(m.Metric, v), "+") }
		switch {
		case m.Dir < 0 && actual > 0.05:
			return false, fmt.Sprintf("stated as a decline, but it rose %s", size(actual))
		case m.Dir >= 0 && actual < -0.05:
			if m.Dir > 0 {
				return false, fmt.Sprintf("stated as growth, but it fell %s", size(-actual))
			}
			return false, fmt.Sprintf("stated as a rise, but it fell %s", size(-actual))
		}
		actual = math.Abs(actual)
	} else if m.Neg {
		stated = -stated // a negative figure: "-3.1%", "(3.1%)", "-$1.2B", "($0.52)"
	}
	tol := m.Step
	switch UnitOf(m.Metric) {
	case USD, USDPerShare, SharesUnit:
		// A reported amount is exact in the filing: written to a digit,
		// it is right only rounded to it, half a unit either way.
		tol /= 2
	case Percent, Points:
		// A rate in digits is right rounded to its last digit ("6%" of
		// 5.8%), give or take rateAllowance, never more than a whole
		// unit: "5%" of 5.8% and "7%" of 6.43% are wrong, where a whole
		// unit either way let them pass. A width the words set
		// ("doubled", "a third of") is held whole.
		if !m.wordWidth {
			tol = tol/2 + math.Min(rateAllowance, tol/2)
		}
	case Multiple, Score:
		// A ratio or a score is right rounded to its last digit ("0.89"
		// or "0.9" of 0.893, "2.4" of an Altman Z of 2.43), give or take
		// ratioAllowance of its value, never more than a whole unit: a
		// whole unit either way let "0.8" pass of 0.893 and "3" of a Z of
		// 2.1. A count of criteria ("8/9") has no step and stays exact.
		if !m.wordWidth {
			tol = tol/2 + math.Min(ratioAllowance*math.Abs(actual), tol/2)
		}
	}
	if tol == 0 {
		tol = math.Abs(actual) * 0.001
	}
	if m.Approx {
		tol = math.Max(tol, 0.03*math.Abs(actual))
	}
	tol += m.slack + 1e-9*math.Max(1, math.Abs(actual))
	if m.Hi > m.Value {
		// A range: the filing's figure lies within it, its ends read to
		// the precision they were written with.
		lo, hi := stated, m.Hi
		if m.Neg {
			lo, hi = -m.Hi, stated
		}
		return actual >= lo-tol && actual <= hi+tol, ""
	}
	switch m.Bound {
	case 1:
		return actual >= stated-tol, ""
	case -1:
		return actual <= stated+tol, ""
	}
	return math.Abs(stated-actual) <= tol, ""
}

// rateAllowance is how far past half a unit of its last digit a rate in
// percent or points may lie from the filing's, in points: a twentieth,
// for a rate worked out from amounts already rounded to three or four
// figures (Apple's fiscal 2025 revenue growth, 6.43%, is 6.45% from
// $416.2B and $391.0B, written "6.5%") or truncated at a tenth ("6.4%" of
// 6.49%). At a whole percent it is small beside the half unit: "5%" holds
// of 4.45% to 5.55%.
const rateAllowance = 0.05

// ratioAllowance is how far past half a unit of its last digit a ratio or
// a score may lie from the filing's, as a fraction of the filing's value:
// a writer works a ratio out from amounts already rounded, most often to
// three or four figures, each off by up to a twentieth of a percent to
// half of one, so their quotient by up to about one percent (a current
// ratio from $148B and $166B is 0.892, of 0.893; Altman's Z adds five
// such terms). It is not a whole unit of the last digit: "0.8" of 0.893
// and "3.1" of a Z of 2.4 are wrong however the inputs were rounded.
const ratioAllowance = 0.01

// diagnose names what is wrong with a figure that matches nothing stated:
// the right figure of another period, a scale slip, another metric's value,
// or just a wrong value.
func (t *Table) diagnose(m Mention, actual Fact) string {
	// A bound ("more than $70 billion") holds of a negative figure too: its
	// sign says nothing.
	if u := UnitOf(m.Metric); u != Percent && u != Points && actual.Value != 0 && m.Bound == 0 {
		mm := m
		mm.Neg = !m.Neg
		if ok, _ := matches(mm, actual.Value); ok {
			switch {
			case m.Metric == NetCash && actual.Value < 0:
				return "the sign is wrong: the filing's debt exceeds its cash, a net debt, not net cash"
			case m.Metric == NetDebt && actual.Value < 0:
				return "the sign is wrong: the filing's cash exceeds its debt, a net cash position, not net debt"
			case m.Metric == Equity && actual.Value < 0:
				return "the sign is wrong: the filing reports a stockholders' deficit (liabilities exceed assets), not positive equity"
			case actual.Value < 0:
				return "the sign is wrong: the filing reports a negative figure (a loss), not a positive one"
			}
			return "the sign is wrong: the filing reports a positive figure, not a negative one (a loss)"
		}
	}
	// A figure as filed before a stock split the later filings restate
	// it for: no slip of scale, but the older footing.
	if actual.AsFiled != 0 {
		if ok, _ := matches(m, actual.AsFiled); ok {
			return fmt.Sprintf("that is the figure as filed before a stock split; restated for the split, as the later filings state the years "+
				"they cover, it is %s", t.Display(actual.Metric, actual.Value))
		}
	}
	// A related line's of the period: a return on year-end equity stated
	// as one on the average, cash and securities stated as net cash.
	for _, r := range relatedOf[m.Metric] {
		if f, ok := t.Lookup(r, actual.Period); ok && m.Bound == 0 {
			if ok, _ := matches(m, f.Value); ok {
				return fmt.Sprintf("that is the filing's %s, not its %s", r.Label(), m.Metric.Label())
			}
		}
	}
	// A period of the same fiscal year first: a quarter's figure called
	// the year's, or the year's called its last quarter's, is the likelier
	// slip than a figure of years before that happens to match.
	// Years far apart are not a slip: a growth rate or margin of a decade
	// before that matches is chance (Apple's net income grew "about a
	// third" in fiscal 2025, wrong, was said to be fiscal 2015's).
	// A zero is no other period's figure either: a line is nil in many
	// (dividends before the first).
	for _, sameYear := range []bool{true, false} {
		for _, f := range t.Of(m.Metric) {
			if m.Value == 0 || f.Period == actual.Period || (f.Period.FY == actual.Period.FY) != sameYear || max(f.Period.FY-actual.Period.FY, actual.Period.FY-f.Period.FY) > Years {
				continue
			}
			if ok, _ := matches(m, f.Value); ok {
				return fmt.Sprintf("right figure, wrong period: it is %s's, not %s's", f.Period, actual.Period)
			}
		}
	}
	for _, k := range []float64{1e3, 1e-3, 1e6, 1e-6, 10, 0.1} {
		if m.Bound != 0 || m.Value == 0 {
			break // "more than $80 billion" is as true of $66 trillion; $0 of any scale is $0
		}
		mm := m
		// A range scales whole: "$420-430 billion" scaled by its low end
		// alone spanned $42 to $430 billion, and was called a slip of scale.
		mm.Value, mm.Step, mm.Hi = m.Value*k, m.Step*k, m.Hi*k
		if ok, _ := matches(mm, actual.Value); ok {
			return "the scale is wrong (millions, billions or a misplaced digit)"
		}
	}
	// Another line's figure, of the same kind: a bound holds of every
	// larger line ("revenue of more than $80 billion" is no slip for total
	// assets), and a rate is no growth ("an effective tax rate of 34%" is
	// not capex's growth of 34%).
	_, growth := m.Metric.Base()
	for _, f := range t.Facts {
		if m.Bound != 0 {
			break
		}
		if f.Period != actual.Period || f.Metric == m.Metric || alternate[f.Metric] || UnitOf(f.Metric) != UnitOf(m.Metric) {
			continue
		}
		if f.Metric == StatutoryTaxRate && m.Metric != EffectiveTaxRate {
			continue // the law's rate, not a line another figure is a slip of
		}
		if _, g := f.Metric.Base(); g != growth {
			continue
		}
		if ok, _ := matches(m, f.Value); ok {
			return fmt.Sprintf("that is the filing's %s, not its %s", f.Metric.Label(), m.Metric.Label())
		}
	}
	return "the figure does not match the filing"
}

// relatedOf are the lines a figure of a metric is most likely another's
// of, named first when it matches one.
var relatedOf = map[Metric][]Metric{ROAE: {ROE}, ROACE: {ROCE}, ROAA: {ROA}, NetCash: {CashAndInvestments, Cash},
	NetDebt: {LongTermDebt}, CashAndInvestments: {Cash}}

// Claim is a figure a debater declares alongside its prose.
type Claim struct {
	Metric    string      `json:"metric"`
	Period    string      `json:"period"` // "FY2026", "Q3 FY2026", "TTM"
	Value     json.Number `json:"value"`
	Unit      string      `json:"unit,omitempty"`  // usd, usd_per_share, shares, percent
	Scale     string      `json:"scale,omitempty"` // thousand, million, billion, trillion
	Direction string      `json:"direction,omitempty"`
	Source    string      `json:"source,omitempty"`
	Text      string      `json:"text,omitempty"` // the figure as written in the prose
}

// claimPeriodRe reads a claim's period as the prompt asks for it ("FY2026",
// "Q3 FY2026", "TTM") and as models also write it ("FY26", "Q3 FY26",
// "FY2026 Q3", "3Q26", "fiscal 2026").
var claimPeriodRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:(?:Q([1-4])\s*)?(?:FY\s*'?|fiscal\s+(?:year\s+)?)?(\d{4}|\d{2})(?:\s*Q([1-4]))?|([1-4])Q\s*'?(\d{4}|\d{2})|(TTM|LTM|trailing twelve months))\s*$`)
})

// claimMetricAliases are names models give a claim's metric besides the
// ones the prompt lists.
var claimMetricAliases = map[string]Metric{
	"eps": EPSDiluted, "diluted_eps": EPSDiluted, "eps_basic_diluted": EPSDiluted, "basic_eps": EPSBasic,
	"revenues": Revenue, "sales": Revenue, "net_sales": Revenue, "total_revenue": Revenue,
	"net_profit": NetIncome, "net_earnings": NetIncome, "operating_profit": OperatingIncome,
	"cogs": CostOfRevenue, "cost_of_sales": CostOfRevenue, "r&d": RandD, "rd": RandD, "r_and_d": RandD,
	"capital_expenditure": Capex, "capital_expenditures": Capex, "ocf": OperatingCashFlow, "fcf": FreeCashFlow,
	"assets": TotalAssets, "liabilities": TotalLiabilities, "equity": Equity, "shareholders_equity": Equity,
	"total_equity": Equity, "total_stockholders_equity": Equity, "income_before_taxes": PretaxIncome,
	"income_before_income_taxes": PretaxIncome, "income_tax_expense": IncomeTax, "provision_for_income_taxes": IncomeTax,
	"tax_rate": EffectiveTaxRate, "dps": DividendsPerShare, "dividend_payout_ratio": PayoutRatio, "payout": PayoutRatio,
	"statutory_rate": StatutoryTaxRate, "federal_statutory_tax_rate": StatutoryTaxRate, "statutory_income_tax_rate": StatutoryTaxRate, "dividend_per_share": DividendsPerShare,
	"dividends_paid": Dividends, "buybacks": Repurchases, "repurchases": Repurchases, "stock_repurchases": Repurchases, "cash_and_equivalents": Cash, "shares": Shares, "debt": LongTermDebt,
	"diluted_share_count": DilutedShares, "weighted_average_diluted_shares": DilutedShares, "diluted_shares_outstanding": DilutedShares,
	"diluted_weighted_average_shares": DilutedShares,
	"weighted_average_basic_shares":   BasicShares, "basic_weighted_average_shares": BasicShares, "basic_share_count": BasicShares,
	"basic_shares_outstanding": BasicShares, "cash_taxes": CashTaxesPaid, "cash_taxes_paid": CashTaxesPaid, "taxes_paid": CashTaxesPaid,
	"income_tax_paid": CashTaxesPaid, "foreign_tax": ForeignTax, "foreign_taxes": ForeignTax, "domestic_tax": DomesticTax,
	"foreign_pretax": ForeignPretax, "domestic_pretax": DomesticPretax,
	"roae": ROAE, "return_on_average_equity": ROAE, "roaa": ROAA, "return_on_average_assets": ROAA,
	"roace": ROACE, "return_on_average_common_equity": ROACE, "return_on_common_equity": ROCE,
	"net_cash_position": NetCash, "cash_net_of_debt": NetCash, "cash_and_marketable_securities": CashAndInvestments,
	"cash_and_short_term_investments": CashAndInvestments,
}

// CheckClaim verifies a structured claim. A claim with an unknown metric or
// an unreadable period is unverified, saying why.
func (t *Table) CheckClaim(c Claim) Finding {
	text := c.Text
	if text == "" {
		text = strings.TrimSpace(c.Value.String() + " " + c.Scale + " " + c.Unit)
	}
	f := Finding{Quote: text, Text: text, Claimed: true}
	metric := Metric(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(c.Metric)), " ", "_"))
	if metric == Cash {
		// "cash" alone names no one line, in a claim as in the prose it
		// declares; "cash_and_equivalents" is the strict line.
		metric = bareCash
	}
	if b, growth := metric.Base(); claimMetricAliases[string(metric)] != "" || growth && claimMetricAliases[string(b)] != "" {
		if growth {
			metric = Growth(claimMetricAliases[string(b)])
		} else {
			metric = claimMetricAliases[string(metric)]
		}
	}
	if _, ok := labels[metric]; !ok {
		if b, growth := metric.Base(); !growth || labels[b] == "" {
			f.Status, f.Reason = Unverified, fmt.Sprintf("unknown metric %q", c.Metric)
			return f
		}
	}
	f.Metric = metric
	pm := claimPeriodRe().FindStringSubmatch(c.Period)
	if pm == nil {
		f.Status, f.Reason = Unverified, fmt.Sprintf("period %q is not FY2026, Q3 FY2026 or TTM", c.Period)
		return f
	}
	var p Period
	switch {
	case pm[6] != "":
		p = Period{FY: t.LatestFY, TTM: true}
	case pm[5] != "":
		p.FY, _ = strconv.Atoi(pm[5])
		p.Q, _ = strconv.Atoi(pm[4])
	default:
		p.FY, _ = strconv.Atoi(pm[2])
		for _, q := range []string{pm[1], pm[3]} {
			if q != "" {
				p.Q, _ = strconv.Atoi(q)
			}
		}
	}
	if p.FY > 0 && p.FY < 100 {
		p.FY += 2000
	}
	if p.Q == 0 && !p.TTM && len(pm[2]) == 4 && !strings.ContainsAny(strings.ToLower(c.Period), "fiscalyq") {
		// A bare year ("2025") is a calendar year, as in prose: for a year
		// ending in January also the fiscal year ending early in the next.
		p.Q = -1
	}
	num := c.Value.String()
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		f.Status, f.Reason = Unverified, fmt.Sprintf("value %q is not a number", num)
		return f
	}
	scale := claimScale(c.Scale, c.Unit)
	m := Mention{Quote: text, Text: text, Value: v * scale, Step: step(strings.TrimPrefix(num, "-"), scale), Unit: UnitOf(metric),
		Metric: metric, Period: p, Explicit: true, claimed: true}
	if metric == PiotroskiF {
		m.Step = 0 // a count of criteria: exact
	}
	m.Currency = claimCurrency(c.Unit)
	switch strings.ToLower(c.Direction) {
	case "down", "decline", "fell", "decrease", "negative":
		m.Dir = -1
	case "up", "rise", "rose", "increase", "grew", "positive":
		m.Dir = 1
	}
	if m.Value < 0 {
		m.Dir, m.Value, m.Neg = -1, -m.Value, true
	}
	r := t.CheckMention(m)
	if r.Status == Corrected && m.Unit == Percent && m.Value <= 1 && !strings.Contains(c.Unit+c.Text, "%") {
		// A rate written as a fraction ("0.711" for a 71.1% margin), as
		// JSON values often are: right if the percentage it stands for is.
		frac := m
		frac.Value, frac.Step = 100*m.Value, 100*m.Step
		if fr := t.CheckMention(frac); fr.Status == Verified {
			r = fr
		}
	}
	r.Claimed = true
	return r
}

// claimCurrency is the currency other than the dollar a claim's unit names
// ("eur_billions", "EUR", "€bn"), by its ISO code; "" for none. A unit of
// "usd" or "usd_per_share" is the claim's kind of value, as the claim
// format names it, not a statement that the amount is in dollars: such an
// amount is read in the filer's currency.
func claimCurrency(unit string) string {
	u := strings.ToLower(unit)
	for _, part := range strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == ' ' || r == '-' || r == '/' }) {
		if foreignCodeRe().MatchString(part) {
			return currencyCode(part)
		}
	}
	if strings.Contains(u, "€") {
		return "EUR"
	}
	return ""
}

// claimScale is the scale a claim states, in its scale ("billion",
// "millions", "bn") or, with none, in its unit ("usd_billions", "USD
// millions"): read only from the scale, "millions" and "usd_billions" were
// no scale, and a right claim was corrected as a scale slip.
func claimScale(scale, unit string) float64 {
	s := strings.ToLower(strings.TrimSpace(scale))
	if s == "" {
		u := strings.ToLower(unit)
		for _, w := range []string{"trillion", "billion", "million", "thousand"} {
			if strings.Contains(u, w) {
				s = w
				break
			}
		}
		if s == "" {
			for _, part := range strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
				if sc := scaleOf(part); sc != 1 && len(part) > 1 {
					return sc
				}
			}
		}
	}
	return scaleOf(strings.TrimSuffix(s, "s"))
}

// Summary counts findings by status: "41 figures: 36 verified (4 against
// the recorded market data), 3 corrected, 2 unverified, 1 market data (not
// checked against filings)".
func Summary(fs []Finding) string {
	n := map[Status]int{}
	market := 0
	for _, f := range fs {
		n[f.Status]++
		if f.Status == Verified && f.Market != nil {
			market++
		}
	}
	noun := "figures"
	if len(fs) == 1 {
		noun = "figure"
	}
	s := fmt.Sprintf("%d %s: %d verified", len(fs), noun, n[Verified])
	if market > 0 {
		s += fmt.Sprintf(" (%d against the recorded market data)", market)
	}
	s += fmt.Sprintf(", %d corrected, %d unverified", n[Corrected], n[Unverified])
	if n[MarketData] > 0 {
		s += fmt.Sprintf(", %d market data (not checked against filings)", n[MarketData])
	}
	if n[Web] > 0 {
		s += fmt.Sprintf(", %d from the web (%s)", n[Web], WebLabel)
	}
	return s
}

// checkTotal holds a flow's amount stated over a span of years to its sum
// over the span's years, counting the first year named or not ("over
// fiscal 2023 through fiscal 2025" is three years; "over the past three
// years" the three to the latest): right as either, it is verified.
// Unverified when the filings Parley has lack one of the years.
func (t *Table) checkTotal(m Mention, f Finding) Finding {
	var first *Fact
	for _, pair := range m.Total {
		for _, from := range []int{pair[0].FY, pair[0].FY + 1} {
			sum, ok := 0.0, from < pair[1].FY
			var srcs []string
			for y := from; y <= pair[1].FY && ok; y++ {
				g, found := t.Lookup(m.Metric, Period{FY: y})
				sum, ok = sum+g.Value, found
				srcs = append(srcs, g.Source)
			}
			if !ok {
				continue
			}
			if same, _ := matches(m, sum); same {
				f.Status, f.Period = Verified, pair[1]
				return f
			}
			if first == nil {
				first = &Fact{Metric: Metric(fmt.Sprintf("%s_total_FY%d_FY%d", m.Metric, from, pair[1].FY)), Period: pair[1],
					Value: sum, Source: strings.Join(srcs, "; ")}
			}
		}
	}
	if first == nil {
		f.Status, f.Reason = Unverified, fmt.Sprintf("a total over several years: the filings Parley has give no %s for each of them", m.Metric.Label())
		return f
	}
	f.Status, f.Period, f.Actual = Corrected, first.Period, first
	f.Reason = "the total over the years stated does not match"
	return f
}

// checkOver holds a growth stated over several years to the change of its
// metric between the years stated: verified when any reading of them
// matches, corrected (with the first reading's change) when none does.
func (t *Table) checkOver(m Mention, f Finding) Finding {
	base, _ := m.Metric.Base()
	var first *Fact
	for _, pair := range m.Over {
		was, ok1 := t.Lookup(base, pair[0])
		cur, ok2 := t.Lookup(base, pair[1])
		if !ok1 || !ok2 || was.Value <= 0 {
			continue
		}
		g := Fact{Metric: Metric(fmt.Sprintf("%s_growth_since_%s", base, pair[0])), Period: pair[1],
			Value: 100 * (cur.Value - was.Value) / was.Value, Source: cur.Source + "; " + was.Source}
		rates := []float64{g.Value}
		if m.Annual {
			// The compound annual rate, and the average of the years'
			// growth rates, which "on average" may mean.
			n := float64(pair[1].FY - pair[0].FY)
			g.Metric = Metric(fmt.Sprintf("%s_annual_growth_since_%s", base, pair[0]))
			g.Value = 100 * (math.Pow(cur.Value/was.Value, 1/n) - 1)
			rates = []float64{g.Value}
			sum, k := 0.0, 0
			for y := pair[0].FY + 1; y <= pair[1].FY; y++ {
				if yg, ok := t.Lookup(m.Metric, Period{FY: y}); ok {
					sum, k = sum+yg.Value, k+1
				}
			}
			if k == pair[1].FY-pair[0].FY {
				rates = append(rates, sum/float64(k))
			}
		}
		for _, r := range rates {
			if ok, _ := matches(m, r); ok {
				f.Status, f.Period = Verified, pair[1]
				return f
			}
		}
		if first == nil {
			first = &g
		}
	}
	if first == nil {
		f.Status, f.Reason = Unverified, fmt.Sprintf("a change over several years: the filings Parley has give no %s for both ends", base.Label())
		return f
	}
	f.Status, f.Period, f.Actual = Corrected, first.Period, first
	if _, why := matches(m, first.Value); why != "" {
		f.Reason = why
	} else {
		f.Reason = "the change over the years stated does not match"
	}
	return f
}

// priorPeriods are the periods a change to p is measured from: the same
// period a year earlier, and for a quarter also the quarter before (a
// quarter's "swung to a loss" or "narrowed" may be either).
func priorPeriods(p Period) []Period {
	if p.TTM {
		return nil
	}
	out := []Period{{FY: p.FY - 1, Q: p.Q}}
	if p.Q >= 1 {
		out = append(out, previousQuarter(p))
	}
	return out
}

// lossMove checks what a right level says of the period before: a swing
// of its sign ("swung to a loss of $130 million") and the way a loss moved
// ("the net loss narrowed to $90 million"). It returns, when the period
// before contradicts it, why and that period's figure. With no figure for
// the period before, nothing is said.
func (t *Table) lossMove(m Mention, cur Fact) (string, Fact, bool) {
	if m.Swing == 0 && m.LossMove == 0 {
		return "", Fact{}, false
	}
	prior := t.priorFacts(cur)
	if len(prior) == 0 {
		return "", Fact{}, false
	}
	label := cur.Metric.Label()
	if m.Swing != 0 {
		for _, p := range prior {
			if m.Swing < 0 && p.Value >= 0 || m.Swing > 0 && p.Value <= 0 {
				return "", Fact{}, false
			}
		}
		p := prior[0]
		if m.Swing < 0 {
			return fmt.Sprintf("stated as a swing to a loss, but %s was a loss in %s too", label, p.Period), p, true
		}
		return fmt.Sprintf("stated as a swing to a profit, but %s was positive in %s too", label, p.Period), p, true
	}
	word := map[int]string{-1: "narrowed", 1: "widened"}[m.LossMove]
	for _, p := range prior {
		if p.Value < 0 && (m.LossMove < 0 && p.Value < cur.Value || m.LossMove > 0 && p.Value > cur.Value) {
			return "", Fact{}, false
		}
	}
	p := prior[0]
	if p.Value >= 0 {
		return fmt.Sprintf("stated as a loss that %s, but %s was not a loss in %s", word, label, p.Period), p, true
	}
	return fmt.Sprintf("stated as a loss that %s, but the loss %s from %s's %s", word, map[int]string{-1: "widened", 1: "narrowed"}[m.LossMove], p.Period, t.Display(p.Metric, p.Value)), p, true
}

// priorFacts returns the figures of cur's line for the periods a change
// to cur is measured from (priorPeriods), those the table holds.
func (t *Table) priorFacts(cur Fact) []Fact {
	var prior []Fact
	for _, p := range priorPeriods(cur.Period) {
		if f, ok := t.Lookup(cur.Metric, p); ok {
			prior = append(prior, f)
		}
	}
	return prior
}

// levelMove checks the way a right level of a line that is not a loss is
// said to have moved ("revenue fell to $402.8 billion") against the
// periods before it: wrong when none of them moved that way (a quarter may
// be compared with the quarter before or a year earlier). With no figure
// for the period before, nothing is said.
func (t *Table) levelMove(m Mention, cur Fact) (string, Fact, bool) {
	if m.LevelMove == 0 {
		return "", Fact{}, false
	}
	prior := t.priorFacts(cur)
	if m.MoveFrom != nil {
		// The sentence names the period it moved from.
		prior = nil
		for _, p := range t.candidates(Mention{Period: *m.MoveFrom, Explicit: true}) {
			if f, ok := t.Lookup(cur.Metric, p); ok && p != cur.Period {
				prior = append(prior, f)
			}
		}
	}
	if len(prior) == 0 {
		return "", Fact{}, false
	}
	for _, p := range prior {
		if m.LevelMove > 0 && p.Value < cur.Value || m.LevelMove < 0 && p.Value > cur.Value {
			return "", Fact{}, false
		}
	}
	p := prior[0]
	said, was := "rose", "fell"
	if m.LevelMove < 0 {
		said, was = "fell", "rose"
	}
	if p.Value == cur.Value {
		was = "was unchanged"
	}
	return fmt.Sprintf("stated as having %s to %s, but %s %s from %s's %s", map[string]string{"rose": "risen", "fell": "fallen"}[said],
		t.Display(cur.Metric, cur.Value), cur.Metric.Label(), was, p.Period, t.Display(p.Metric, p.Value)), p, true
}

// checkToProfit holds a return to profit stated without a figure
// ("returned to profitability in 2024") to the sign of the line in the
// period named and the one before: a profit after a loss. A loss in the
// period named, or a profit in the period before too, makes it wrong.
func (t *Table) checkToProfit(m Mention, f Finding) Finding {
	for _, p := range t.candidates(m) {
		cur, ok := t.Lookup(m.Metric, p)
		if !ok {
			continue
		}
		f.Period = p
		label := m.Metric.Label()
		if cur.Value <= 0 {
			f.Status, f.Actual = Corrected, &cur
			f.Reason = fmt.Sprintf("stated as a return to profit, but %s was %s in %s", label, t.Display(cur.Metric, cur.Value), p)
			return f
		}
		var prior []Fact
		for _, q := range priorPeriods(p) {
			if g, ok := t.Lookup(m.Metric, q); ok {
				prior = append(prior, g)
			}
		}
		if len(prior) == 0 {
			f.Status, f.Reason = Unverified, fmt.Sprintf("a return to profit: the filings Parley has give no %s for the period before %s", label, p)
			return f
		}
		for _, g := range prior {
			if g.Value < 0 {
				f.Status = Verified
				return t.checkHistory(m, p, f)
			}
		}
		f.Status, f.Actual = Corrected, &prior[0]
		f.Reason = fmt.Sprintf("stated as a return to profit, but %s was positive in %s too (%s), not a loss", label, prior[0].Period, t.Display(prior[0].Metric, prior[0].Value))
		return f
	}
	f.Status, f.Reason = Unverified, fmt.Sprintf("a return to profit: the filings Parley has give no %s for %s", m.Metric.Label(), periodText(m))
	return f
}

// checkDirection holds the move of a line stated with no figure ("revenue
// declined in fiscal 2024") to the sign of its change from a year earlier
// (for a margin, its change in points) in the period named and, for a
// streak, the years before it: wrong when it moved the other way in any.
func (t *Table) checkDirection(m Mention, f Finding) Finding {
	change := Growth(m.Metric)
	if c := changeOf[m.Metric]; c != "" {
		change = c
	}
	words := map[int]string{1: "risen", -1: "fallen"}
	// A calendar year may be either of two fiscal years: wrong only when
	// every reading is, the first wrong one saying why.
	var wrong *Finding
	for _, p := range t.candidates(m) {
		if p.TTM {
			continue
		}
		var moves []Fact
		for k := 0; k < max(1, m.Streak); k++ {
			g, ok := t.lookupOrChange(change, Period{FY: p.FY - k, Q: p.Q})
			if !ok {
				// Growth from a loss is not meaningful, but which way the
				// line moved is: the difference of its two figures
				// ("operating income improved for three straight years"
				// of a loss widening was unverified).
				g, ok = t.levelChange(m.Metric, Period{FY: p.FY - k, Q: p.Q})
			}
			if !ok {
				break
			}
			moves = append(moves, g)
		}
		if len(moves) == 0 {
			continue
		}
		f.Period, f.Metric = p, change
		contradicted := false
		for _, g := range moves {
			if g.Value*float64(m.Dir) <= 0 {
				g := g
				c := f
				c.Status, c.Actual = Corrected, &g
				c.Reason = fmt.Sprintf("stated as having %s in %s, but %s %s", words[m.Dir], g.Period, m.Metric.Label(), moved(g))
				if g.Period != p {
					c.Reason = fmt.Sprintf("stated as having %s %d years in a row to %s, but %s %s in %s", words[m.Dir], m.Streak, p, m.Metric.Label(), moved(g), g.Period)
				}
				if wrong == nil {
					wrong = &c
				}
				contradicted = true
				break
			}
		}
		if contradicted {
			continue
		}
		if len(moves) < max(1, m.Streak) {
			f.Status, f.Reason = Unverified, fmt.Sprintf("a move %d years in a row: the filings Parley has give no %s for the years before %s", m.Streak, change.Label(), moves[len(moves)-1].Period)
			return f
		}
		f.Status = Verified
		return f
	}
	if wrong != nil {
		return *wrong
	}
	f.Status, f.Reason = Unverified, fmt.Sprintf("the filings Parley has give no %s for %s", change.Label(), periodText(m))
	return f
}

// checkRecord holds a record stated with no figure to the line's figures
// of the same kind of period (years, or the same quarter) before it: wrong
// when one was higher; else unverified, since a year before those the
// table holds may have been higher still.
func (t *Table) checkRecord(m Mention, f Finding) Finding {
	var wrong *Finding
	for _, p := range t.candidates(m) {
		cur, ok := t.Lookup(m.Metric, p)
		if !ok || p.TTM {
			continue
		}
		f.Period = p
		earliest := p
		var higher *Fact
		for _, g := range t.Of(m.Metric) {
			if g.Period.TTM || g.Period.Q != p.Q || g.Period.FY >= p.FY {
				continue
			}
			if g.Value > cur.Value && higher == nil {
				g := g
				higher = &g
			}
			if g.Period.FY < earliest.FY {
				earliest = g.Period
			}
		}
		if higher != nil {
			// A calendar year may be either of two fiscal years: wrong
			// only when every reading is.
			if wrong == nil {
				c := f
				c.Status, c.Actual = Corrected, higher
				c.Reason = fmt.Sprintf("stated as a record in %s (%s), but %s was higher in %s (%s)", p, t.Display(cur.Metric, cur.Value),
					m.Metric.Label(), higher.Period, t.Display(higher.Metric, higher.Value))
				wrong = &c
			}
			continue
		}
		f.Status = Unverified
		f.Reason = fmt.Sprintf("a record: %s in %s was the highest of the years the filings Parley has, back to %s; an earlier one may have been higher", m.Metric.Label(), p, earliest)
		return f
	}
	if wrong != nil {
		return *wrong
	}
	f.Status, f.Reason = Unverified, fmt.Sprintf("a record: the filings Parley has give no %s for %s", m.Metric.Label(), periodText(m))
	return f
}

// moved says how a change went: "rose 2.0%", "fell 2.8 points".
func moved(g Fact) string {
	w := "rose"
	if g.Value < 0 {
		w = "fell"
	}
	if g.Value == 0 {
		return "was unchanged"
	}
	return w + " " + strings.TrimPrefix(Display(g.Metric, g.Value), "-")
}

// checkHistory holds what a right return to profit in p says of the years
// before it (Mention.History: "after two years of losses", "after losses
// in 2022 and 2023", "its first profit since 2021") to the line's sign in
// each: corrected when a year had the other sign, unverified when a year
// it names is not in the filings Parley has. A quarter's return is left
// as it is: the history is stated in years.
func (t *Table) checkHistory(m Mention, p Period, f Finding) Finding {
	h := m.History
	if h == nil || p.Q != 0 || p.TTM {
		return f
	}
	// A bare year of the history is read as the year of the return was:
	// for a filer whose year ends in January, "2024" may be fiscal 2025.
	offset := 0
	if m.Period.Q == -1 {
		offset = p.FY - m.Period.FY
	}
	resolve := func(y Period) Period {
		if y.Q == -1 {
			return Period{FY: y.FY + offset}
		}
		return Period{FY: y.FY}
	}
	type sign struct {
		p    Period
		loss bool
	}
	var want []sign
	for _, y := range h.Losses {
		want = append(want, sign{resolve(y), true})
	}
	for _, y := range h.Profits {
		want = append(want, sign{resolve(y), false})
	}
	if h.Run > 0 {
		// A run of n loss years right before, and a profit before it.
		for k := 1; k <= h.Run; k++ {
			want = append(want, sign{Period{FY: p.FY - k}, true})
		}
		want = append(want, sign{Period{FY: p.FY - h.Run - 1}, false})
	}
	if h.Since != nil {
		// The first profit since a year: losses in every year between.
		since := resolve(*h.Since)
		for y := since.FY + 1; y < p.FY; y++ {
			want = append(want, sign{Period{FY: y}, true})
		}
		want = append(want, sign{since, false})
	}
	label := m.Metric.Label()
	var missing []Period
	for _, w := range want {
		g, ok := t.Lookup(m.Metric, w.p)
		if !ok {
			missing = append(missing, w.p)
			continue
		}
		if w.loss && g.Value >= 0 || !w.loss && g.Value <= 0 {
			f.Status, f.Actual, f.Period = Corrected, &g, p
			if w.loss {
				f.Reason = fmt.Sprintf("stated as a return to profit after a loss in %s, but %s was %s in %s", w.p, label, t.Display(g.Metric, g.Value), w.p)
			} else {
				f.Reason = fmt.Sprintf("stated as a return to profit after a profit in %s, but %s was %s in %s", w.p, label, t.Display(g.Metric, g.Value), w.p)
			}
			return f
		}
	}
	if len(missing) > 0 {
		f.Status = Unverified
		f.Reason = fmt.Sprintf("a return to profit in %s after the years it names: the filings Parley has give no %s for %s", p, label, missing[0])
	}
	return f
}

// lossLabels name the size of a loss of a metric, for the change of it.
var lossLabels = map[Metric]string{NetIncome: "net loss", OperatingIncome: "operating loss", EPSDiluted: "diluted loss per share",
	EPSBasic: "basic loss per share"}

// checkLossChange holds a percentage change of a loss ("the net loss
// narrowed 20%", "the operating loss doubled") to the change of the loss's
// size between the period stated and the one before, the filings storing
// the loss as a negative figure: a loss from $60M to $120M widened 100%.
// Stated of a period that was not a loss, or whose period before was a
// profit, the change is wrong whatever its size.
func (t *Table) checkLossChange(m Mention, f Finding) Finding {
	base, _ := m.Metric.Base()
	if m.Annual && len(m.Over) == 0 || m.Period.Q == -3 {
		f.Status, f.Reason = Unverified, "a change in a loss over a period the check could not place"
		return f
	}
	var pairs [][2]Period
	switch {
	case len(m.Over) > 0:
		pairs = m.Over
	case m.Sequential:
		p := m.Period
		if !m.Explicit {
			var ok bool
			if p, ok = t.latestQuarterOf(base); !ok {
				break
			}
		}
		if p.Q >= 1 && !p.TTM {
			pairs = append(pairs, [2]Period{previousQuarter(p), p})
		}
	default:
		for _, p := range t.candidates(m) {
			if !p.TTM {
				pairs = append(pairs, [2]Period{{FY: p.FY - 1, Q: p.Q}, p})
			}
		}
	}
	size := func(v float64) string { return strings.TrimPrefix(t.Display(base, -v), "-") }
	var first *Finding
	for _, pair := range pairs {
		was, ok1 := t.Lookup(base, pair[0])
		cur, ok2 := t.Lookup(base, pair[1])
		if !ok1 || !ok2 {
			continue
		}
		g := f
		g.Period = pair[1]
		switch {
		case cur.Value >= 0:
			g.Status, g.Actual, g.Metric = Corrected, &cur, base
			g.Reason = fmt.Sprintf("stated as a change in a loss, but %s was not a loss in %s", base.Label(), pair[1])
		case was.Value >= 0:
			g.Status, g.Actual, g.Metric = Corrected, &was, base
			g.Reason = fmt.Sprintf("stated as a change in a loss, but %s was not a loss in %s: it swung to a loss of %s in %s", base.Label(), pair[0], size(cur.Value), pair[1])
		default:
			change := 100 * (math.Abs(cur.Value) - math.Abs(was.Value)) / math.Abs(was.Value)
			name := Metric(lossLabels[base])
			if name == "" {
				name = base
			}
			actual := Fact{Metric: Growth(Metric(strings.ReplaceAll(string(name), " ", "_"))), Period: pair[1], Value: change,
				Source: cur.Source + "; " + was.Source}
			ok, _ := matches(m, change)
			if ok {
				g.Status = Verified
				return g
			}
			g.Status, g.Actual = Corrected, &actual
			switch {
			case m.Dir < 0 && change > 0.05:
				g.Reason = fmt.Sprintf("stated as a narrowing loss, but the loss widened from %s to %s", size(was.Value), size(cur.Value))
			case m.Dir > 0 && change < -0.05:
				g.Reason = fmt.Sprintf("stated as a widening loss, but the loss narrowed from %s to %s", size(was.Value), size(cur.Value))
			default:
				g.Reason = fmt.Sprintf("the loss's change does not match: it went from %s in %s to %s", size(was.Value), pair[0], size(cur.Value))
			}
		}
		if first == nil {
			first = &g
		}
	}
	if first == nil {
		f.Status, f.Reason = Unverified, fmt.Sprintf("a change in a loss: the filings Parley has give no %s for %s and the period before", base.Label(), periodText(m))
		return f
	}
	return *first
}

// checkSignStreak holds a result's sign stated of every year of a span
// ("has lost money in each of the last three years") to the line's sign in
// each year to the one it ends in: a year of the other sign corrects it, a
// year the table does not hold leaves it unverified.
func (t *Table) checkSignStreak(m Mention, f Finding) Finding {
	end := m.Period
	f.Period = end
	said := map[int]string{-1: "a loss", 1: "a profit"}[m.SignStreak]
	if m.Metric == Repurchases || m.Metric == Dividends {
		said = "paid" // a buyback or dividend every year: some cash paid in each
	}
	for k := 0; k < m.Streak; k++ {
		p := Period{FY: end.FY - k}
		g, ok := t.Lookup(m.Metric, p)
		if !ok {
			f.Status, f.Reason = Unverified, fmt.Sprintf("%s %d years in a row: the filings Parley has give no %s for %s", said, m.Streak, m.Metric.Label(), p)
			return f
		}
		if g.Value*float64(m.SignStreak) <= 0 {
			f.Status, f.Actual = Corrected, &g
			f.Reason = fmt.Sprintf("stated as %s in each of %d years to %s, but %s was %s in %s", said, m.Streak, end, m.Metric.Label(), t.Display(m.Metric, g.Value), p)
			return f
		}
	}
	f.Status = Verified
	return f
}

// levelChange is the change of a line's level from the same period a
// year earlier, as an amount of the line: which way it moved where its
// growth, from a loss or from nothing, is not meaningful.
func (t *Table) levelChange(m Metric, p Period) (Fact, bool) {
	if UnitOf(m) != USD && UnitOf(m) != USDPerShare || p.TTM {
		return Fact{}, false
	}
	return t.yearOnYear(m, m, p)
}

// yearOnYear is line of at p less its value in the same period a year
// earlier, as metric m, sourced from both.
func (t *Table) yearOnYear(m, of Metric, p Period) (Fact, bool) {
	cur, ok1 := t.Lookup(of, p)
	was, ok2 := t.Lookup(of, Period{FY: p.FY - 1, Q: p.Q})
	if !ok1 || !ok2 {
		return Fact{}, false
	}
	return Fact{Metric: m, Period: p, Value: cur.Value - was.Value, Source: cur.Source + "; " + was.Source}, true
}
