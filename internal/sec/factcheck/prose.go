package factcheck

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Mention is a financial figure found in prose: a number with its unit and
// the metric, period and direction the sentence gives it.
type Mention struct {
	Quote    string  // the sentence, as written
	Text     string  // the figure, as written: "$130.5 billion", "65%"
	Value    float64 // in the unit: dollars, percent, dollars a share, shares
	Unit     Unit
	Step     float64 // the value of one unit of its last stated digit
	Approx   bool    // "about", "roughly", "~", "nearly"
	Bound    int     // +1 "more than", -1 "less than", 0 exact
	Metric   Metric  // "" when none could be read
	Period   Period
	Explicit bool // the period was stated (not the default)
	Relative bool // the period was stated relative to the latest ("last year")
	Dir      int  // +1 rose/grew, -1 fell/declined, 0 unstated
	Market   bool // a price, market value or multiple: not in the filings
	Points   bool // a change in percentage points or basis points
	// Hypothetical marks a figure in a condition, scenario or forecast
	// ("breaks if gross margin falls to 40%"), and Share a percentage of
	// something that is not a financial line ("72% of the evidence"):
	// neither states what the filings report.
	Hypothetical bool
	Share        bool
	// Segment marks a figure of a part of the company (a segment, product
	// line or region: "Data Center revenue", "Google Cloud revenue"): the
	// check reads company totals only.
	Segment bool
	// Start and End are the byte span of Text in Quote: the words next to
	// a market figure decide which recorded figure it cites.
	Start, End int
}

var (
	moneyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:(?:US)?\$|\bUSD\s?)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(trillion|billion|million|thousand|bn|tn|mln|mm|[tbmk])\b)?`)
	})
	// scaled numbers without a currency sign: "130.5 billion", "4.1bn".
	scaledRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(trillion|billion|million|bn|tn|mln)\b`)
	})
	percentRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)([-+−]?\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b|pct\b|percentage points?\b|pp\b|pts?\b|points?\b|bps\b|basis points?\b)`)
	})
	multRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s?[x×](?:\W|$)`) })
)

var (
	approxRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(about|around|roughly|approximately|approx\.?|nearly|almost|close to|some|circa|an estimated|estimated|just under|just over|north of|south of)\s*$|~\s*$`)
	})
	moreRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(more than|over|above|exceeding|exceeded|exceeds|in excess of|at least|north of|upwards of|topped|tops|topping|surpassed|surpasses|crossed|beyond)\s*$`)
	})
	lessRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(less than|under|below|at most|south of|shy of)\s*$`)
	})
	upRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(rose|rise|rises|rising|risen|grew|grow|grows|growing|grown|growth|increase|increased|increases|increasing|up|jump|jumped|jumps|climb|climbed|climbs|surge|surged|soared|expanded|expand|expands|expanding|gained|gain|gains|accelerated|higher|improved|advanced|added)\b`)
	})
	downRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(fell|fall|falls|falling|fallen|declined|decline|declines|declining|decreased|decrease|decreases|down|drop|dropped|drops|shrank|shrink|shrinks|shrunk|contracted|contract|contracts|contraction|slumped|slid|lower|plunged|tumbled|eroded|compressed|lost|negative)\b`)
	})
)

// metricPhrases maps phrases (lower case, hyphens as spaces) to metrics. The
// longest phrase wins where phrases overlap ("cost of revenue" over
// "revenue").
var metricPhrases = []struct {
	phrase string
	metric Metric
}{
	{"cost of revenue", CostOfRevenue}, {"cost of revenues", CostOfRevenue}, {"cost of sales", CostOfRevenue},
	{"cost of goods sold", CostOfRevenue}, {"cogs", CostOfRevenue}, {"costs of revenue", CostOfRevenue},
	{"revenue", Revenue}, {"revenues", Revenue}, {"sales", Revenue}, {"net sales", Revenue}, {"top line", Revenue},
	{"turnover", Revenue}, {"total revenue", Revenue}, {"net revenue", Revenue},
	{"gross profit", GrossProfit}, {"gross margin", GrossMargin}, {"gross margins", GrossMargin},
	{"operating income", OperatingIncome}, {"operating profit", OperatingIncome}, {"income from operations", OperatingIncome},
	{"operating margin", OperatingMargin}, {"operating margins", OperatingMargin},
	{"net income", NetIncome}, {"net earnings", NetIncome}, {"net profit", NetIncome}, {"bottom line", NetIncome},
	{"profit", NetIncome}, {"profits", NetIncome}, {"earned", NetIncome},
	{"net margin", NetMargin}, {"net margins", NetMargin}, {"net profit margin", NetMargin}, {"profit margin", NetMargin},
	{"diluted eps", EPSDiluted}, {"diluted earnings per share", EPSDiluted}, {"eps", EPSDiluted},
	{"earnings per share", EPSDiluted}, {"per share earnings", EPSDiluted}, {"per diluted share", EPSDiluted},
	{"basic eps", EPSBasic}, {"basic earnings per share", EPSBasic}, {"per basic share", EPSBasic},
	{"operating cash flow", OperatingCashFlow}, {"cash from operations", OperatingCashFlow},
	{"cash flow from operations", OperatingCashFlow}, {"cash flows from operations", OperatingCashFlow},
	{"cash from operating activities", OperatingCashFlow}, {"operating cash", OperatingCashFlow},
	{"cash generated by operations", OperatingCashFlow}, {"cash generated from operations", OperatingCashFlow},
	{"capital expenditure", Capex}, {"capital expenditures", Capex}, {"capex", Capex}, {"capital spending", Capex},
	{"purchases of property and equipment", Capex},
	{"free cash flow", FreeCashFlow}, {"fcf", FreeCashFlow}, {"free cash flow margin", FCFMargin}, {"fcf margin", FCFMargin},
	{"research and development", RandD}, {"r&d", RandD}, {"r & d", RandD},
	{"dividends", Dividends}, {"dividend payments", Dividends}, {"dividends paid", Dividends},
	{"cash and cash equivalents", Cash}, {"cash and equivalents", Cash}, {"cash balance", Cash},
	{"long term debt", LongTermDebt}, {"debt", LongTermDebt},
	{"shares outstanding", Shares}, {"share count", Shares}, {"outstanding shares", Shares},
	// The ratios of the analysis, as its reports and the data-only agents
	// name them ("Return on equity of 76.3%", "Cash conversion (OCF / net
	// income) of 0.86x"), and their common short forms.
	{"return on equity", ROE}, {"roe", ROE}, {"return on shareholders equity", ROE}, {"return on stockholders equity", ROE},
	{"return on assets", ROA}, {"roa", ROA}, {"return on total assets", ROA},
	{"debt to equity", DebtToEquity}, {"debt/equity", DebtToEquity}, {"d/e", DebtToEquity},
	{"liabilities to assets", Leverage}, {"liabilities to total assets", Leverage},
	{"current ratio", CurrentRatio}, {"cash conversion", CashConversion},
	{"r&d to revenue", RDIntensity}, {"r&d to sales", RDIntensity}, {"r&d intensity", RDIntensity},
	{"asset turnover", AssetTurnover},
	{"gross margin change", GrossMarginChange}, {"operating margin change", OperatingMarginChange},
	// The frameworks' scores: "Piotroski F-score of 4/9", "Altman Z score
	// of 53.14"; a Z'' names that variant.
	{"piotroski f score", PiotroskiF}, {"piotroski score", PiotroskiF}, {"f score", PiotroskiF}, {"piotroski", PiotroskiF},
	{"altman z score", AltmanZ}, {"altman z", AltmanZ}, {"altman score", AltmanZ}, {"z score", AltmanZ}, {"altman", AltmanZ},
	{"altman z'' score", AltmanZDoublePrime}, {"altman z''", AltmanZDoublePrime}, {"z'' score", AltmanZDoublePrime},
	{"altman z” score", AltmanZDoublePrime}, {"altman z”", AltmanZDoublePrime}, {"z” score", AltmanZDoublePrime},
	{"altman z\" score", AltmanZDoublePrime}, {"altman z\"", AltmanZDoublePrime},
}

// marketRe marks figures no filing states: prices, market values, multiples.
var marketRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(p/e|pe ratio|price to earnings|price/earnings|earnings multiple|multiple|multiples|market cap|market capitalization|market value|valuation|enterprise value|ev/ebit|ev/ebitda|ev/sales|p/s|price to sales|share price|stock price|stock|shares trade|trades at|trading at|priced at|changed hands|closed at|shares at|price target|target price|per share price|fcf yield|yield)\b`)
})

var (
	fyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:fiscal(?:\s+year)?\s*|fy\s*'?)(\d{4}|\d{2})\b`)
	})
	yearRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(19[89]\d|20\d{2})\b`) })
	quarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:q([1-4])|(first|second|third|fourth)[\s-]quarter|([1-4])q)\b`)
	})
	ttmRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(ttm|ltm|trailing\s+(?:twelve|12)[\s-]months?|last\s+(?:twelve|12)\s+months|trailing\s+four\s+quarters)\b`)
	})
	lastYrRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(last year|prior year|previous year|a year earlier|a year ago|year before|prior fiscal year|previous fiscal year|the year before)\b`)
	})
)

// Find reads every financial figure in text, sentence by sentence. Figures
// without a stated period get the table's latest fiscal year.
func Find(text string, t *Table) []Mention {
	var out []Mention
	for _, s := range Sentences(text) {
		out = append(out, findIn(s, t)...)
	}
	return out
}

// Sentences splits text into sentences, keeping decimals ("3.5"),
// abbreviations ("Inc.", "U.S.") and list items together.
func Sentences(text string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n' && (i+1 < len(text) && text[i+1] == '\n' || i+1 < len(text) && (text[i+1] == '-' || text[i+1] == '*')):
			emit(i + 1)
		case c == '.' || c == '!' || c == '?':
			if i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9' {
				continue // a decimal point
			}
			if c == '.' && abbrevBefore(text[:i]) {
				continue
			}
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '"' || text[i+1] == ')' {
				emit(i + 1)
			}
		}
	}
	emit(len(text))
	return out
}

func abbrevBefore(s string) bool {
	low := strings.ToLower(s)
	for _, a := range []string{"inc", "corp", "co", "ltd", "vs", "approx", "no", "u.s", "e.g", "i.e", "est", "mr", "ms", "dr"} {
		if strings.HasSuffix(low, " "+a) || low == a || strings.HasSuffix(low, "("+a) {
			return true
		}
	}
	// A single capital letter: "U.S.", initials.
	return len(s) >= 2 && s[len(s)-1] >= 'A' && s[len(s)-1] <= 'Z' && (s[len(s)-2] == '.' || s[len(s)-2] == ' ')
}

// span is a phrase found in a sentence.
type span struct {
	start, end int
	metric     Metric
	period     Period
	relative   bool
}

func findIn(sentence string, t *Table) []Mention {
	low := lowerASCII(sentence)
	metrics := findMetrics(low)
	periods := findPeriods(low, t)
	var mentions []Mention
	used := make([]bool, len(low)+1)
	add := func(start, end int, m Mention) {
		for i := start; i < end; i++ {
			if used[i] {
				return
			}
		}
		for i := start; i < end; i++ {
			used[i] = true
		}
		m.Quote, m.Text, m.Start, m.End = sentence, strings.TrimSpace(sentence[start:end]), start, end
		pre := low[max(0, start-24):start]
		m.Approx = approxRe().MatchString(pre)
		switch {
		case moreRe().MatchString(pre):
			m.Bound = 1
		case lessRe().MatchString(pre):
			m.Bound = -1
		}
		attribute(&m, sentence, low, start, end, metrics, periods, t)
		mentions = append(mentions, m)
	}
	for _, loc := range percentRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(low[loc[2]:loc[3]], "−", "-")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		unit := low[loc[4]:loc[5]]
		start := loc[0]
		// A minus sign reads as a space in low (hyphens do): "of -2.0
		// pts" is a fall, read from the sentence as written.
		if start > 0 && sentence[start-1] == '-' && (start == 1 || !isWordByte(low[start-2])) && v > 0 {
			v, start = -v, start-1
		}
		m := Mention{Value: v, Unit: Percent, Step: step(num, 1)}
		if strings.Contains(unit, "point") || unit == "pp" || strings.HasPrefix(unit, "pt") || strings.HasPrefix(unit, "b") {
			m.Points = true
			if strings.HasPrefix(unit, "b") {
				// Basis points: a hundredth of a percentage point.
				m.Value, m.Step = v/100, m.Step/100
			}
		}
		add(start, loc[1], m)
	}
	for _, loc := range moneyRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(low[loc[2]:loc[3]], ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		scale := 1.0
		if loc[4] >= 0 {
			scale = scaleOf(low[loc[4]:loc[5]])
		}
		m := Mention{Value: v * scale, Unit: USD, Step: step(num, scale)}
		if perShare(low[loc[1]:min(len(low), loc[1]+16)]) || (scale == 1 && v < 1000) {
			m.Unit = USDPerShare
		}
		add(loc[0], loc[1], m)
	}
	for _, loc := range scaledRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(low[loc[2]:loc[3]], ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		scale := scaleOf(low[loc[4]:loc[5]])
		m := Mention{Value: v * scale, Unit: USD, Step: step(num, scale)}
		if strings.HasPrefix(strings.TrimSpace(low[loc[1]:min(len(low), loc[1]+20)]), "shares") || strings.HasPrefix(strings.TrimSpace(low[loc[1]:min(len(low), loc[1]+20)]), "diluted shares") {
			m.Unit = SharesUnit
		}
		add(loc[0], loc[1], m)
	}
	for _, loc := range multRe().FindAllStringSubmatchIndex(low, -1) {
		v, err := strconv.ParseFloat(low[loc[2]:loc[3]], 64)
		if err != nil {
			continue
		}
		add(loc[0], loc[3]+1, Mention{Value: v, Unit: Multiple, Step: step(low[loc[2]:loc[3]], 1)})
	}
	findScores(low, metrics, add)
	sort.Slice(mentions, func(i, j int) bool {
		return strings.Index(sentence, mentions[i].Text) < strings.Index(sentence, mentions[j].Text)
	})
	return mentions
}

// scoreFracRe is a Piotroski score written over its nine criteria ("4/9",
// "4 out of 9"); scoreNumRe the number right after an Altman score's name
// after a linking word ("Altman Z score of 53.14", "Z” score is 5.2").
var (
	scoreFracRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b([0-9])(\s*/\s*9|\s+out\s+of\s+9|\s+of\s+9)\b`)
	})
	scoreNumRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:(?:of|was|is|at|stands at|stood at|reached|rose to|fell to|to|=|:|\()\s*){0,2}(\d+(?:\.\d+)?)\b`)
	})
)

// findScores reads the framework scores of a sentence that names a
// framework: bare numbers, which the other readers leave alone.
func findScores(low string, metrics []span, add func(start, end int, m Mention)) {
	var pio bool
	for _, sp := range metrics {
		switch sp.metric {
		case PiotroskiF:
			pio = true
		case AltmanZ, AltmanZDoublePrime:
			loc := scoreNumRe().FindStringSubmatchIndex(low[sp.end:])
			if loc == nil {
				continue
			}
			s, e := sp.end+loc[2], sp.end+loc[3]
			if next := low[e:min(len(low), e+2)]; strings.HasPrefix(strings.TrimSpace(next), "/") || strings.HasPrefix(next, "%") || strings.HasPrefix(next, "x") {
				continue
			}
			add(s, e, Mention{Value: mustFloat(low[s:e]), Unit: Score, Step: step(low[s:e], 1)})
		}
	}
	if !pio {
		return
	}
	for _, loc := range scoreFracRe().FindAllStringSubmatchIndex(low, -1) {
		if loc[1] < len(low) && (low[loc[1]] == '/' || isWordByte(low[loc[1]])) {
			continue // a date, "3/9/2025"
		}
		// A count of criteria is exact: no rounding step.
		add(loc[0], loc[1], Mention{Value: mustFloat(low[loc[2]:loc[3]]), Unit: Score})
	}
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func perShare(after string) bool {
	after = strings.TrimSpace(after)
	return strings.HasPrefix(after, "per share") || strings.HasPrefix(after, "a share") || strings.HasPrefix(after, "per diluted") ||
		strings.HasPrefix(after, "per basic") || strings.HasPrefix(after, "of eps") || strings.HasPrefix(after, "eps")
}

func scaleOf(s string) float64 {
	switch strings.ToLower(s) {
	case "trillion", "tn", "t":
		return 1e12
	case "billion", "bn", "b":
		return 1e9
	case "million", "mm", "mln", "m":
		return 1e6
	case "thousand", "k":
		return 1e3
	}
	return 1
}

// step is the value of one unit of the last digit written: "130.5" billion
// is stated to 0.1 billion.
func step(num string, scale float64) float64 {
	if i := strings.IndexByte(num, '.'); i >= 0 {
		return math.Pow(10, -float64(len(num)-i-1)) * scale
	}
	return scale
}

func findMetrics(low string) []span {
	var out []span
	for _, p := range metricPhrases {
		for off := 0; ; {
			i := strings.Index(low[off:], p.phrase)
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(p.phrase)
			off = s + 1
			if s > 0 && isWordByte(low[s-1]) || e < len(low) && isWordByte(low[e]) {
				continue
			}
			out = append(out, span{start: s, end: e, metric: p.metric})
		}
	}
	// Longest match wins among overlapping phrases.
	sort.Slice(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].end > out[j].end
	})
	var kept []span
	for _, sp := range out {
		overlap := false
		for _, k := range kept {
			if sp.start < k.end && k.start < sp.end {
				overlap = true
				break
			}
		}
		if !overlap {
			kept = append(kept, sp)
		}
	}
	return kept
}

func findPeriods(low string, t *Table) []span {
	var out []span
	var quarters []span
	for _, loc := range quarterRe().FindAllStringSubmatchIndex(low, -1) {
		q := 0
		switch {
		case loc[2] >= 0:
			q, _ = strconv.Atoi(low[loc[2]:loc[3]])
		case loc[4] >= 0:
			q = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4}[low[loc[4]:loc[5]]]
		case loc[6] >= 0:
			q, _ = strconv.Atoi(low[loc[6]:loc[7]])
		}
		quarters = append(quarters, span{start: loc[0], end: loc[1], period: Period{Q: q}})
	}
	years := map[int]bool{}
	for _, loc := range fyRe().FindAllStringSubmatchIndex(low, -1) {
		y, _ := strconv.Atoi(low[loc[2]:loc[3]])
		if y < 100 {
			y += 2000
		}
		out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: y}})
		for i := loc[0]; i < loc[1]; i++ {
			years[i] = true
		}
	}
	for _, loc := range yearRe().FindAllStringSubmatchIndex(low, -1) {
		if years[loc[0]] {
			continue
		}
		y, _ := strconv.Atoi(low[loc[2]:loc[3]])
		// A calendar year: the fiscal year of the same number, or, for a
		// fiscal year that ends early in the next calendar year (NVIDIA's
		// late January), the one that ends then (resolved when compared).
		out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: y}, relative: false, metric: "calendar"})
	}
	for _, loc := range ttmRe().FindAllStringIndex(low, -1) {
		out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: t.LatestFY, TTM: true}})
	}
	for _, loc := range lastYrRe().FindAllStringIndex(low, -1) {
		out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: t.LatestFY - 1}, relative: true})
	}
	// A quarter takes the year written next to it ("Q3 FY2026", "third
	// quarter of fiscal 2026", "Fourth-quarter 2025"), else the latest
	// fiscal year; that year is then part of the quarter, not a period of
	// its own.
	absorbed := map[int]bool{}
	for _, q := range quarters {
		fy, best, at := t.LatestFY, 1<<30, -1
		for i, y := range out {
			if y.period.TTM || y.relative {
				continue
			}
			d := dist(q, y)
			if d < 24 && d < best {
				fy, best, at = y.period.FY, d, i
			}
		}
		if at >= 0 {
			absorbed[at] = true
			// A calendar year next to a quarter names the fiscal year of
			// that quarter when the fiscal year is the calendar year.
			q.start, q.end = min(q.start, out[at].start), max(q.end, out[at].end)
		}
		q.period.FY = fy
		out = append(out, q)
	}
	kept := out[:0]
	for i, sp := range out {
		if !absorbed[i] {
			kept = append(kept, sp)
		}
	}
	return kept
}

func dist(a, b span) int {
	switch {
	case a.end <= b.start:
		return b.start - a.end
	case b.end <= a.start:
		return a.start - b.end
	}
	return 0
}

// clauseBreak reports whether the text between two positions crosses a
// clause boundary, which weighs against pairing across it.
func clauseBreak(s string) bool {
	return strings.ContainsAny(s, ";") || strings.Contains(s, ", while") || strings.Contains(s, ", whereas") ||
		strings.Contains(s, " but ") || strings.Contains(s, ", and ") || strings.Contains(s, " and ")
}

// attribute gives a mention its metric, period and direction from the
// sentence's phrases: the nearest compatible metric phrase on either side
// within the clause, the nearest period (else the latest fiscal year), and
// direction words between them.
func attribute(m *Mention, sentence, low string, start, end int, metrics, periods []span, t *Table) {
	me := span{start: start, end: end}
	if conditional(low, start, end) {
		m.Hypothetical = true
	}
	if m.Unit == Percent {
		if of := ofRe().FindStringSubmatch(low[end:min(len(low), end+48)]); of != nil && !hasMetricWithin(of[1], metrics) {
			m.Share = true
		}
	}
	// A market cue (a price, a market value, a multiple) nearer the figure
	// than any metric makes it market data.
	marketDist := 1 << 30
	for _, loc := range marketRe().FindAllStringIndex(low, -1) {
		if d := dist(me, span{start: loc[0], end: loc[1]}); d < 40 && d < marketDist {
			marketDist = d
		}
	}
	best, bestScore := span{}, 1<<30
	for _, sp := range metrics {
		if !compatible(m.Unit, sp.metric, low, start, end, sp) {
			continue
		}
		d := dist(me, sp)
		between := low[min(sp.end, end):max(sp.start, start)]
		if clauseBreak(between) {
			d += 60
		}
		if sp.start > end {
			d += 6 // a metric before its number is the commoner phrasing
		}
		if d < bestScore {
			best, bestScore = sp, d
		}
	}
	if best.metric != "" && bestScore < 120 {
		m.Metric = best.metric
		if m.Unit == Percent {
			switch u := UnitOf(m.Metric); {
			case m.Points && changeOf[m.Metric] != "":
				// "operating margin fell 2.0 points": the margin's change.
				m.Metric = changeOf[m.Metric]
			case u == Points:
				// "gross margin change of -3.9%": a change the analysis
				// states in points.
			case u != Percent:
				m.Metric = Growth(m.Metric)
			}
		}
		if m.Unit == USDPerShare && UnitOf(m.Metric) != USDPerShare {
			m.Metric = EPSDiluted
		}
	}
	// "N% of revenue": a part of a whole, never the whole's growth. With a
	// profit line before it, it is that line's margin ("operating income
	// was 60% of revenue"); otherwise a share the filings do not report
	// ("China was 13% of sales", "the top customer, 12% of revenue").
	if m.Unit == Percent && !m.Points {
		if loc := ofRe().FindStringSubmatchIndex(low[end:min(len(low), end+48)]); loc != nil {
			if whole, ok := metricIn(low[end+loc[2] : end+loc[3]]); ok {
				m.Metric = ""
				if margin := marginBefore(whole, low, start, metrics); margin != "" {
					m.Metric = margin
				} else {
					m.Share = true
				}
				best, bestScore = span{}, 1<<30
			}
		}
	}
	if best.metric != "" && segmentBefore(sentence, low, best, t) {
		m.Segment = true
	}
	if marketDist < 1<<30 && (m.Metric == "" || marketDist <= bestScore) {
		m.Market = true
	}
	// Period: nearest period phrase, preferring the same clause.
	pbest, pscore := span{}, 1<<30
	for _, sp := range periods {
		d := dist(me, sp)
		between := low[min(sp.end, end):max(sp.start, start)]
		if strings.Contains(between, ";") {
			d += 80
		}
		if d < pscore {
			pbest, pscore = sp, d
		}
	}
	m.Period = Period{FY: t.LatestFY}
	if pscore < 1<<30 {
		m.Period, m.Explicit, m.Relative = pbest.period, true, pbest.relative
		if pbest.metric == "calendar" {
			m.Relative = false
			m.Period.Q = 0
			m.Explicit = true
			m.Period.TTM = false
			m.Period.FY = pbest.period.FY
			// mark calendar years with Q = -1 so the comparison may also
			// try the fiscal year ending early in the next calendar year.
			m.Period.Q = -1
		}
	}
	// "up 74% from 2024", "grew 15% over fiscal 2024": the year after
	// "from" is the base of the change, which is for the year after it.
	if _, growth := m.Metric.Base(); growth && pscore < 1<<30 && !pbest.period.TTM && pbest.start > end {
		lead := strings.TrimSpace(low[max(0, pbest.start-16):pbest.start])
		for _, w := range []string{"from", "over", "versus", "vs", "vs.", "compared with", "against", "on"} {
			if strings.HasSuffix(lead, " "+w) || lead == w {
				m.Period.FY++
				break
			}
		}
	}
	// "to $X in fiscal 2025 from $Y": a figure given as the base of a
	// change, with no period of its own next to it, is a year earlier than
	// the period the sentence states.
	if pre := strings.TrimSpace(low[max(0, start-12):start]); strings.HasSuffix(pre, "from") && m.Explicit && !m.Relative && pbest.start < start {
		if next := nearestAfter(periods, end); next < 0 || next-end > 20 {
			if m.Period.Q == -1 {
				m.Period.FY--
			} else if !m.Period.TTM {
				m.Period.FY--
			}
		}
	}
	// "fell to 71.1% from 75.0%" with no period stated: the figure after
	// "from" is the base of the change, the year before the one the
	// sentence is about.
	if pre := strings.TrimSpace(low[max(0, start-12):start]); strings.HasSuffix(pre, "from") && !m.Explicit {
		if clause := low[max(0, start-60):start]; toFigureRe().MatchString(clause) {
			m.Period = Period{FY: t.LatestFY - 1}
			m.Explicit, m.Relative = true, true
		}
	}
	// Direction words near the figure, in its clause.
	from := max(0, min(start, best.start)-8)
	if best.metric == "" {
		from = max(0, start-40)
	}
	window := low[from:start]
	if i := strings.LastIndexAny(window, ";"); i >= 0 {
		window = window[i+1:]
	}
	after := low[end:min(len(low), end+12)]
	switch {
	case downRe().MatchString(window) || strings.HasPrefix(strings.TrimSpace(after), "lower") || strings.HasPrefix(strings.TrimSpace(after), "decline") || strings.HasPrefix(strings.TrimSpace(after), "drop"):
		m.Dir = -1
	case upRe().MatchString(window) || strings.HasPrefix(strings.TrimSpace(after), "higher") || strings.HasPrefix(strings.TrimSpace(after), "increase") || strings.HasPrefix(strings.TrimSpace(after), "growth"):
		m.Dir = 1
	}
	if m.Value < 0 {
		m.Dir, m.Value = -1, -m.Value
	}
}

// toFigureRe is "to <figure>" in the words before a "from <figure>".
var toFigureRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bto\s+(?:about\s+|roughly\s+|~)?[-$+]?\d[^;]*$`) })

// metricIn is the metric a phrase names, if any.
func metricIn(phrase string) (Metric, bool) {
	for _, sp := range findMetrics(phrase) {
		return sp.metric, true
	}
	return "", false
}

// marginOf is the margin a profit line makes over revenue.
var marginOf = map[Metric]Metric{GrossProfit: GrossMargin, OperatingIncome: OperatingMargin, NetIncome: NetMargin, FreeCashFlow: FCFMargin,
	RandD: RDIntensity}

// changeOf is the metric of a margin's change in percentage points, for
// the margins whose change the analysis computes.
var changeOf = map[Metric]Metric{GrossMargin: GrossMarginChange, OperatingMargin: OperatingMarginChange,
	GrossMarginChange: GrossMarginChange, OperatingMarginChange: OperatingMarginChange}

// marginBefore is the margin stated as "LINE ... N% of revenue": the
// nearest metric before the figure in its clause, a margin itself or a
// profit line whose margin the filings give; "" when there is none.
func marginBefore(whole Metric, low string, start int, metrics []span) Metric {
	if whole != Revenue {
		return ""
	}
	var prev span
	for _, sp := range metrics {
		if sp.end <= start && sp.start >= prev.start {
			prev = sp
		}
	}
	if prev.metric == "" || clauseBreak(low[prev.end:start]) {
		return ""
	}
	if UnitOf(prev.metric) == Percent {
		return prev.metric
	}
	return marginOf[prev.metric]
}

// totalWords may stand before a metric's name without making it a part of
// the company: "Total revenue", "Record revenue", "Q3 revenue".
var totalWords = map[string]bool{
	"total": true, "net": true, "gross": true, "annual": true, "quarterly": true, "yearly": true, "fiscal": true,
	"consolidated": true, "reported": true, "record": true, "overall": true, "company": true, "group": true,
	"its": true, "our": true, "their": true, "the": true, "this": true, "that": true, "gaap": true, "non-gaap": true,
	"full-year": true, "full": true, "year": true, "ttm": true, "trailing": true, "organic": true, "core": true,
	"strong": true, "robust": true, "solid": true, "rising": true, "falling": true, "declining": true, "growing": true,
	"higher": true, "lower": true, "recurring": true, "top-line": true, "sequential": true, "cumulative": true,
	"first": true, "second": true, "third": true, "fourth": true, "latest": true, "last": true, "prior": true,
	"bull": true, "bear": true, "moderator": true, "and": true, "or": true, "of": true, "in": true, "on": true,
}

// segmentBefore reports whether the metric's name is qualified by a part
// of the company: a capitalised word right before it that is not the
// company's own name, a period or a word for the total.
func segmentBefore(sentence, low string, metric span, t *Table) bool {
	if _, ok := map[Metric]bool{Revenue: true, GrossProfit: true, OperatingIncome: true}[metric.metric]; !ok {
		return false
	}
	// The two words before the metric's name, within its clause: "Data
	// center revenue", "YouTube ads revenue", "Services revenue".
	pre := sentence[:metric.start]
	if i := strings.LastIndexAny(pre, ",;:()[]\"“”"); i >= 0 {
		pre = pre[i+1:]
	}
	words := strings.Fields(pre)
	for n := 0; n < 2 && len(words) > 0; n++ {
		word := words[len(words)-1]
		words = words[:len(words)-1]
		word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
		lw := strings.ToLower(strings.Trim(word, ".,!?"))
		if lw == "" || totalWords[lw] || functionWords[lw] || strings.HasPrefix(lw, "fy") || strings.HasPrefix(lw, "q") && len(lw) > 1 && lw[1] >= '1' && lw[1] <= '4' || strings.ContainsAny(lw, "0123456789") {
			return false
		}
		if companyWord(lw, t) {
			return false
		}
		if word[0] >= 'A' && word[0] <= 'Z' {
			return true
		}
		// A lowercase word may be part of a capitalised part's name.
	}
	return false
}

// functionWords end the walk back from a metric's name: what stands
// before them is not part of its qualifier.
var functionWords = map[string]bool{
	"a": true, "an": true, "as": true, "at": true, "by": true, "for": true, "from": true, "with": true, "to": true,
	"was": true, "were": true, "is": true, "are": true, "has": true, "had": true, "have": true, "grew": true, "rose": true,
	"fell": true, "posted": true, "reported": true, "delivered": true, "generated": true, "said": true, "saw": true,
	"while": true, "but": true, "however": true, "meanwhile": true, "also": true, "still": true, "yet": true,
	"since": true, "because": true, "although": true, "so": true, "then": true, "now": true, "today": true,
	"notably": true, "importantly": true, "moreover": true, "furthermore": true, "additionally": true, "overall": true,
	"indeed": true, "finally": true, "further": true, "even": true, "only": true, "both": true, "all": true,
}

// companyWord reports whether a word is the company's own: its ticker or
// a word of its name.
func companyWord(lw string, t *Table) bool {
	for _, w := range strings.Fields(strings.ToLower(t.Company + " " + t.Name)) {
		if len(w) > 1 && strings.Trim(w, ".,") == lw {
			return true
		}
	}
	return false
}

// nearestAfter is where the first period phrase after pos starts, -1 if none.
func nearestAfter(periods []span, pos int) int {
	best := -1
	for _, sp := range periods {
		if sp.start >= pos && (best < 0 || sp.start < best) {
			best = sp.start
		}
	}
	return best
}

var (
	// hypotheticalRe marks a condition, a scenario or a forecast.
	hypotheticalRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(if|would|could|unless|assum\w*|scenario|target|threshold|breaks?|or below|or above|guidance|forecasts?|projected|projects|expects?|expected|outlook|next year|by 20\d\d)\b`)
	})
	// ofRe reads "72% of the evidence": the thing a percentage is a share of.
	ofRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*of\s+(?:the\s+|its\s+|their\s+)?([a-z&/ ]{3,40})`)
	})
)

// blankAsides blanks out, keeping every offset, each parenthetical aside
// "(…)" that closes before the figure at start, so that the clause of
// "would be 8/10 if cash conversion (OCF / net income) rises above 1.00x"
// reaches back past the aside to its "if". An aside after the figure still
// ends its clause.
func blankAsides(low string, start int) string {
	b := []byte(low)
	open := -1
	for i, c := range b[:start] {
		switch {
		case c == '(':
			open = i
		case c == ')' && open >= 0:
			for j := open; j <= i; j++ {
				b[j] = ' '
			}
			open = -1
		}
	}
	return string(b)
}

// conditional reports whether the figure at start:end is in a condition,
// a scenario or a forecast: a cue in its clause, or in the clause it
// continues past a parenthetical aside ("would be 8/10 if cash conversion
// (OCF / net income) rises above 1.00x"). A colon ends that longer clause
// unless it introduces the condition itself ("breaks if: ...").
func conditional(low string, start, end int) bool {
	if hypotheticalRe().MatchString(clauseAround(low, start, end)) {
		return true
	}
	ext := blankAsides(low, start)
	from := 0
	if i := strings.LastIndexAny(ext[:start], ";,()"); i >= 0 {
		from = i + 1
	}
	if i := strings.LastIndexByte(ext[from:start], ':'); i >= 0 {
		lead := " " + strings.TrimSpace(ext[from:from+i])
		if !strings.HasSuffix(lead, " if") && !strings.HasSuffix(lead, " unless") && !strings.HasSuffix(lead, " when") {
			from += i + 1
		}
	}
	to := len(low)
	if i := strings.IndexAny(low[end:], ";,()"); i >= 0 {
		to = end + i
	}
	return hypotheticalRe().MatchString(ext[from:to])
}

// clauseAround is the clause of the sentence around a figure: between the
// nearest clause breaks (";", ",", "(", ")", " but ", " while ") on either
// side.
func clauseAround(low string, start, end int) string {
	from := 0
	if i := strings.LastIndexAny(low[:start], ";,()"); i >= 0 {
		from = i + 1
	}
	to := len(low)
	if i := strings.IndexAny(low[end:], ";,()"); i >= 0 {
		to = end + i
	}
	return low[from:to]
}

func hasMetricWithin(s string, metrics []span) bool {
	for _, p := range metricPhrases {
		if strings.Contains(s, p.phrase) {
			return true
		}
	}
	return false
}

// compatible reports whether a number of unit u can measure metric.
func compatible(u Unit, metric Metric, low string, start, end int, sp span) bool {
	mu := UnitOf(metric)
	switch u {
	case Percent:
		return true // a margin, or the growth of any metric
	case USDPerShare:
		return mu == USDPerShare
	case SharesUnit:
		return mu == SharesUnit
	case USD:
		return mu == USD
	case Multiple:
		return mu == Multiple
	case Score:
		return mu == Score
	}
	return false
}

// LowerASCII lower-cases ASCII letters and turns hyphens into spaces,
// keeping every byte offset of s valid in the result.
func LowerASCII(s string) string { return lowerASCII(s) }

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '-':
			b[i] = ' '
		}
	}
	return string(b)
}

func isWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
