package factcheck

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// Mention is a financial figure found in prose: a number with its unit and
// the metric, period and direction the sentence gives it.
type Mention struct {
	Quote string  // the sentence, as written
	Text  string  // the figure, as written: "$130.5 billion", "65%"
	Value float64 // in the unit: dollars, percent, dollars a share, shares
	Unit  Unit
	Step  float64 // the value of one unit of its last stated digit
	// wordWidth marks a Step the words set, not a digit: a multiple or a
	// fraction in words ("doubled", "by a third") is held to the whole
	// width it states, where a rate in digits is held to its rounding.
	wordWidth bool
	Approx    bool // "about", "roughly", "~", "nearly"
	// pinned is the period a streak over years ends in, which the
	// attribution of the nearest period must not replace.
	pinned *Period
	// alt is another period the one stated may be (span.alt): a figure
	// right of either is not wrong.
	alt Period
	// countBack is how many years its period counts back ("a year
	// earlier", "the prior year", "two years before") when its sentence
	// states no period to count back from: Find counts from the one the
	// sentence before states.
	countBack int
	// slack widens the tolerance by the filing's figure's own
	// imprecision (Fact.Slack), set while it is compared with one.
	slack    float64
	Bound    int    // +1 "more than", -1 "less than", 0 exact
	Metric   Metric // "" when none could be read
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
	// Hi is the upper end of a range ("$90-95B", "between 12% and 15%"),
	// whose lower end is Value; 0 for a single figure.
	Hi float64
	// Neg marks an amount stated as negative: "-$1.2B", "$(0.52)", "($1.2
	// billion)", or a loss ("a net loss of $1.2 billion"). Value stays the
	// figure's size.
	Neg bool
	// Currency is the ISO code of a currency other than the US dollar the
	// figure is in ("EUR" for "€391B"): it is compared with the filer's
	// figures only when the filer reports in that currency (Table.Currency).
	Currency string
	// dollar marks an amount stated in US dollars ("$27.6 billion", "USD
	// 27.6bn", "27.6 billion dollars"), as opposed to one stated with no
	// currency ("27.6 billion"), which is read in the filer's currency;
	// usd that it says US dollars ("US$", "USD", "US dollars"), not only
	// "$", which a filer reporting in Canadian or Taiwan dollars may mean.
	dollar, usd bool
	// LossChange marks a percentage change of a loss ("the net loss
	// narrowed 20%", "the operating loss doubled"): a change of the loss's
	// size, with Dir the direction of the size (+1 widened, -1 narrowed),
	// held to the change of the negative figure the filings store. The
	// growth of the metric itself is not meaningful from a loss.
	LossChange bool
	// LossMove is the direction a loss's level is said to have moved to
	// ("the net loss narrowed to $90 million": -1; "widened to": +1), held
	// to the year before's loss.
	LossMove int
	// LevelMove is the direction a level of a line that is not a loss is
	// said to have moved to ("revenue fell to $402.8 billion": -1; "rose
	// to": +1), held to the period before: a right level with the wrong
	// direction is a wrong statement.
	LevelMove int
	// ToProfit marks a return to profit stated without a figure ("returned
	// to profitability", "back in the black", "net income turned
	// positive"): a change of the metric's sign from a loss in the period
	// before to a profit in the period named.
	ToProfit bool
	// DirOnly marks the move of a line stated with no figure ("revenue
	// declined in fiscal 2024"), Dir its direction and Streak the years it
	// is said to have moved so in a row ("for a second straight year": 2).
	DirOnly bool
	Streak  int
	// SignStreak is a result's sign stated of every year of a span, with
	// Streak the years ("has lost money in each of the last three years":
	// -1, 3; "profitable for five straight years": +1, 5).
	SignStreak int
	// Record marks a record stated of a line with no figure ("net income
	// hit a record in fiscal 2023"): no year before it higher.
	Record bool
	// History is what a return to profit says of the years before it
	// ("after two years of losses", "its first profit since 2021"), held
	// to the line's sign in each; nil when it says nothing.
	History *ProfitHistory
	// FromQuarter marks the figure a quarter's level changed from ("rose
	// from $35.1 billion to $57.0 billion in Q3"), its Period the quarter a
	// year earlier: the quarter before is as right a base.
	FromQuarter bool
	// Swing is a level stated as a swing of its sign: -1 "swung to a loss
	// of $130 million", +1 "swung to a profit of $2 billion". The period
	// before must have had the other sign.
	Swing int
	// Change marks an amount that is a change from a year earlier ("grew
	// by $6.0 billion to $66.0 billion", "a $1.2 billion increase in net
	// income"), with its direction in Dir: held to the difference, not to
	// the level.
	Change bool
	// MarginPercent marks a margin's change stated in percent ("gross
	// margin expanded 2%"): points or a relative change, which the reader
	// cannot tell apart; it is held to the change in points and accepted
	// as either.
	MarginPercent bool
	// AnnualWord marks a growth called annual ("annual revenue growth of
	// 15%") with no period stated: the latest year's growth, or a rate a
	// year over years it does not name.
	AnnualWord bool
	// Fraction marks a share written as a fraction ("a third of
	// revenue"): a round figure, whose miss says nothing of which other
	// figure it was meant for.
	Fraction bool
	// Sequential marks a growth rate from the quarter before ("rose 22%
	// sequentially", "+22% q/q"), not from a year earlier.
	Sequential bool
	// Over holds, for a growth stated over several years ("grew 42%
	// between 2022 and 2025", "doubled since fiscal 2022"), the pairs of
	// periods (from, to) it may be measured between: the one stated, and
	// where a year is ambiguous, its readings. Held to one year's growth, a
	// right figure was corrected.
	Over [][2]Period
	// Total holds, for an amount of a year's flow stated over several
	// years ("$263 billion on buybacks over fiscal 2023 through fiscal
	// 2025", "$215 billion of free cash flow over 2023-2025"), the spans
	// of years (from, to) it may be the sum over, read as Over's are:
	// held to one of its years, a right total was corrected.
	Total [][2]Period
	// Annual marks a growth stated as a rate a year over several years
	// ("a 12.5% CAGR", "compounded at 12.5% a year"): held to the compound
	// (or average) annual rate between the years of Over, unverified when
	// the sentence states none.
	Annual bool
	// NonGAAP marks a figure qualified as adjusted, non-GAAP or pro forma
	// ("adjusted EPS of $4.77"): the filings state GAAP figures only.
	NonGAAP bool
	// Other names a measure the check does not hold ("adjusted EBITDA",
	// "FFO", "net premiums earned", "net interest income") when it, not a
	// metric of the filings, is what the figure measures.
	Other string
	// Row is the Markdown table row the figure was read from, as written,
	// when it was read from one: Quote is then the sentence the check
	// wrote for it ("Revenue FY2026: $215.9B."), which the text lacks.
	Row string
	// Start and End are the byte span of Text in Quote: the words next to
	// a market figure decide which recorded figure it cites.
	Start, End int
	// claimed marks a structured claim's figure: its metric and period
	// are declared, not read from words around it.
	claimed bool
	// zero marks "$0" with no scale: no amount of any unit, held to
	// whichever line names it, a total or a figure a share.
	zero bool
	// bare marks an amount written without a currency ("24.3 billion"),
	// which may be a count of shares.
	bare bool
	// bare amounts are read as dollars unless a noun after them says what
	// they count.
	// fromLoss marks an amount made negative by the loss its metric's name
	// states ("a net loss of $1.2 billion").
	fromLoss bool
	// MoveFrom is, for a level moved by a verb of size, the period of the
	// figure the sentence says it moved from ("expanded to 32.0% in 2025
	// from 27.4% in 2023"): the move is measured from it, not from the
	// period before. Nil when the sentence names none.
	MoveFrom *Period
	// dividendRate marks a dividend a share named as "the dividend"
	// ("raised its dividend to $1.04 a share"): a rate, which may be the
	// annual rate of a quarter's dividend.
	dividendRate bool
	// timesBase is, for a multiple of a line's figure of another year
	// ("eight times fiscal 2023's"), where in the sentence that year is
	// written: the growth is over the span from it. 0 for none.
	timesBase int
}

var (
	moneyRe = sync.OnceValue(func() *regexp.Regexp {
		// The sign may follow the dollar sign: "$-1.2B", "$(0.52)".
		return regexp.MustCompile(`(?i)(?:(?:US)?\$|\bUSD\s?)\s?([-−]\s?|\()?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\))?(?:\s*(trillion|billion|million|thousand|bn|bln|bil|tn|trn|mln|mn|mil|mm|[tbmk])\b)?`)
	})
	// scaled numbers without a currency sign: "130.5 billion", "4.1bn",
	// and an accountant's negative "(0.87) billion".
	scaledRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\(\s*)?\b(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s*\))?\s*(trillion|billion|million|bn|bln|bil|tn|trn|mln|mn)\b`)
	})
	parenPercentRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(\s*(\d+(?:\.\d+)?)\s*\)\s?%`) })
	percentRe      = sync.OnceValue(func() *regexp.Regexp {
		// Thousands separators too: "1,200 basis points" is not 200.
		return regexp.MustCompile(`(?i)([-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?(%|percent\b|per cent\b|pct\b|percentage points?\b|pp\b|ppts?\b|pts?\b|points?\b|bps?\b|basis points?\b)`)
	})
	multRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s?[x×](?:\W|$)`) })
	// A market multiple written as a bare number after its name ("a P/E of
	// 30", "EV/EBITDA near 18") or as "N times earnings": market data, which
	// must be reported as such rather than skipped for want of an "x".
	multNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:p/e|p/s|p/b|p/fcf|ev/ebitda|ev/ebit|ev/sales|ev/revenue|pe ratio|price to (?:earnings|sales|book))(?:\s+(?:ratio|multiple))?` +
			`(?:\s*(?:of|is|was|at|near|around|about|roughly|above|below|under|over|stands at|stood at|sits at|:|=|~))*\s*(\d+(?:\.\d+)?)\b`)
	})
	timesRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d+(?:\.\d+)?)\s*times\s+(?:(?:trailing|forward|ttm|next year's|this year's)\s+)?(?:earnings|sales|revenue|ebitda|ebit|book|free cash flow|fcf|cash flow)\b`)
	})
	// An amount in a currency other than the US dollar, by symbol or code
	// before the number ("€391B", "NT$2.9 trillion", "EUR 4.1bn") or by
	// name or code after it ("391 billion euros", "290 billion DKK").
	// The sign may follow the marker ("€-1.2B", "€(0.52)"), and the
	// scale is read as the dollar reader reads it.
	foreignRe = sync.OnceValue(func() *regexp.Regexp {
		// No word boundary after a code: "EUR27.6bn" is written so; the
		// number that must follow keeps "euro" and "dkkx" out.
		return regexp.MustCompile(`(?i)(€|£|¥|₹|₩|\b(?:nt|c|a|hk|s|r|mx|nz)\$|\b(?:` + foreignCodes + `))\s?` +
			`([-−]\s?|\()?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\))?(?:\s*(trillion|billion|million|thousand|bn|bln|bil|tn|trn|mln|mn|mil|mm|[tbmk])\b)?`)
	})
	// foreignCodeRe is an ISO code of a currency other than the dollar,
	// as foreignRe reads one before an amount.
	foreignCodeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:` + foreignCodes + `)$`)
	})
	foreignNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?:(trillion|billion|million|thousand|bn|bln|tn|trn|mln|mn|mm)\s*)?` +
			`(` + foreignNames + `|` + foreignCodes + `)\b`)
	})
	// foreignAfterRe is a currency named right after an amount written in
	// words ("twenty-eight billion euros").
	foreignAfterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(` + foreignNames + `|` + foreignCodes + `)\b`)
	})
	// Ranges: "$90-95B", "$390B–$395B", "between $390 billion and $395
	// billion", "12-15%", "between 12% and 15%". Read on the sentence as
	// written, where a hyphen is still a hyphen.
	moneyRangeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\bbetween\s+)?(?:(?:US)?\$|\bUSD\s?)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(trillion|billion|million|thousand|bn|bln|tn|trn|mln|mn|mm|[tbmk])\b)?` +
			`\s*(-|–|—|\bto\b|\band\b)\s*(?:(?:US)?\$|USD\s?)?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(trillion|billion|million|thousand|bn|bln|tn|trn|mln|mn|mm|[tbmk])\b)?`)
	})
	// foreignRangeRe is a range in a currency other than the dollar, as
	// moneyRangeRe reads one in dollars: "€27-28 billion", "EUR 27.5-27.7bn",
	// "between NT$2.8 trillion and NT$2.9 trillion".
	foreignRangeRe = sync.OnceValue(func() *regexp.Regexp {
		const num = `(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`
		const scale = `(?:\s*(trillion|billion|million|thousand|bn|bln|tn|trn|mln|mn|mm|[tbmk])\b)?`
		const marker = `€|£|¥|₹|₩|\b(?:nt|c|a|hk|s|r|mx|nz)\$|\b(?:` + foreignCodes + `)`
		return regexp.MustCompile(`(?i)(\bbetween\s+)?(` + marker + `)\s?` + num + scale +
			`\s*(-|–|—|\bto\b|\band\b)\s*(?:(?:` + marker + `)\s?)?` + num + scale)
	})
	// dollarsAfterRe is the currency after an amount that says it is in
	// US dollars: "27.6 billion dollars", "27.6bn USD".
	dollarsAfterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:(?:us|u\.s\.)\s*)?(?:dollars?\b|usd\b)`)
	})
	percentRangeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\bbetween\s+)?(\d+(?:\.\d+)?)\s*(?:%|percent\b)?\s*(-|–|—|\bto\b|\band\b)\s*(\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b|pct\b)`)
	})
)

// foreignCodes are the ISO codes of currencies other than the dollar that
// foreignRe reads before an amount ("EUR 27.6bn", "DKK 290 billion"): those
// foreign filers report in most. Codes that are English words ("try",
// "pen") are left out.
//
// Nor are codes that are common tickers or words in filings' prose (COP,
// PHP).
const foreignCodes = `eur|gbp|jpy|twd|ntd|cad|aud|hkd|chf|cny|rmb|krw|inr|sek|nok|dkk|brl|mxn|sgd|zar|ils|clp|idr|thb|pln|nzd|huf|czk|myr`

// foreignNames are the names of currencies other than the US dollar that
// are read after an amount ("391 billion euros").
const foreignNames = `euros?|pounds sterling|yen|yuan|renminbi|won|rupees|(?:new )?taiwan dollars|nt dollars|canadian dollars|australian dollars|` +
	`hong kong dollars|swiss francs|danish kroner|danish krone|swedish kronor|norwegian kroner`

// currencyCodes names the currencies foreignRe and foreignNameRe read.
var currencyCodes = map[string]string{
	"€": "EUR", "£": "GBP", "¥": "JPY or CNY", "₹": "INR", "₩": "KRW", "nt$": "TWD", "c$": "CAD", "a$": "AUD", "hk$": "HKD",
	"s$": "SGD", "r$": "BRL", "mx$": "MXN", "nz$": "NZD", "ntd": "TWD", "rmb": "CNY",
	"euro": "EUR", "euros": "EUR", "pounds sterling": "GBP", "yen": "JPY", "yuan": "CNY", "renminbi": "CNY", "won": "KRW",
	"rupees": "INR", "taiwan dollars": "TWD", "new taiwan dollars": "TWD", "canadian dollars": "CAD", "australian dollars": "AUD",
	"hong kong dollars": "HKD", "swiss francs": "CHF", "nt dollars": "TWD", "danish kroner": "DKK", "danish krone": "DKK",
	"swedish kronor": "SEK", "norwegian kroner": "NOK",
}

func currencyCode(marker string) string {
	k := strings.ToLower(strings.TrimSpace(marker))
	if c, ok := currencyCodes[k]; ok {
		return c
	}
	return strings.ToUpper(k)
}

// accountingNegative reports whether a figure enclosed in parentheses,
// the "(" at open, is an accountant's negative ("growth was (12%)", "net
// income of ($1.2B)") rather than an aside ("gross margin (46.2%)"): the
// parentheses follow a linking word, not the name of what they qualify.
func accountingNegative(low string, open int) bool {
	lead := " " + strings.TrimSpace(low[max(0, open-16):open])
	for _, w := range []string{" was", " were", " is", " are", " of", " at", " to", ":", "=", " reached", " totaled", " totalled",
		" posted", " reported", " recorded", " showed", " stood at", " came in at", " hit", " a"} {
		if strings.HasSuffix(lead, w) {
			return true
		}
	}
	return false
}

// negativeBefore reports whether a minus sign is written right before
// byte i of sentence: "-", "−" or "–" not joining two words.
func negativeBefore(sentence string, i int) bool {
	pre := sentence[:i]
	for _, m := range []string{"-", "−", "–"} {
		if p, ok := strings.CutSuffix(pre, m); ok {
			return p == "" || !isWordByte(lowerASCII(p[len(p)-1:])[0])
		}
	}
	return false
}

var (
	negWordRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(negative|minus)\s*$`)
	})
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
		return regexp.MustCompile(`(?i)\b(rose|rise|rises|rising|risen|grew|grow|grows|growing|grown|growth|increase|increased|increases|increasing|up|jump|jumped|jumps|climb|climbed|climbs|surge|surged|soared|expanded|expand|expands|expanding|gained|gain|gains|accelerated|higher|improved|advanced|added|expansion|improvement|widened|widening|widens|strengthened|rebounded|recovered|swelled|ballooned)\b`)
	})
	downRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(fell|fall|falls|falling|fallen|declined|decline|declines|declining|decreased|decrease|decreases|down|drop|dropped|drops|shrank|shrink|shrinks|shrunk|contracted|contract|contracts|contraction|slumped|slid|lower|plunged|tumbled|eroded|compressed|compression|erosion|deterioration|reduction|lost|negative|slipped|slips|dipped|dips|eased|softened|retreated|weakened|deteriorated|worsened|narrowed|narrowing|narrows)\b`)
	})
)

// metricPhrases maps phrases (lower case, hyphens as spaces) to metrics. The
// longest phrase wins where phrases overlap ("cost of revenue" over
// "revenue").
var metricPhrases = []struct {
	phrase string
	metric Metric
	loss   bool // names the metric's negative: "net loss"
}{
	{"net loss", NetIncome, true}, {"net losses", NetIncome, true}, {"net loss attributable", NetIncome, true},
	{"a loss of", NetIncome, true}, {"swung to a loss", NetIncome, true}, {"posted a loss", NetIncome, true},
	{"reported a loss", NetIncome, true}, {"recorded a loss", NetIncome, true}, {"lost", NetIncome, true},
	{"losing", NetIncome, true}, {"loses", NetIncome, true},
	{"net of interest expense", Revenue, false}, {"revenues net of interest expense", Revenue, false},
	{"operating loss", OperatingIncome, true}, {"operating losses", OperatingIncome, true},
	{"loss from operations", OperatingIncome, true}, {"loss per share", EPSDiluted, true},
	{"net loss per share", EPSDiluted, true}, {"diluted loss per share", EPSDiluted, true},
	{"loss per diluted share", EPSDiluted, true}, {"basic loss per share", EPSBasic, true}, {"loss per basic share", EPSBasic, true},
	{"cost of revenue", CostOfRevenue, false}, {"cost of revenues", CostOfRevenue, false}, {"cost of sales", CostOfRevenue, false},
	{"cost of goods sold", CostOfRevenue, false}, {"cogs", CostOfRevenue, false}, {"costs of revenue", CostOfRevenue, false},
	{"revenue", Revenue, false}, {"revenues", Revenue, false}, {"sales", Revenue, false}, {"net sales", Revenue, false}, {"top line", Revenue, false},
	{"turnover", Revenue, false}, {"total revenue", Revenue, false}, {"net revenue", Revenue, false},
	// Analysts' short forms ("FY26 rev $215.9B", "op margin 60%").
	{"rev", Revenue, false}, {"revs", Revenue, false}, {"op income", OperatingIncome, false}, {"op inc", OperatingIncome, false},
	{"op margin", OperatingMargin, false}, {"op margins", OperatingMargin, false},
	{"gross profit", GrossProfit, false}, {"gross margin", GrossMargin, false}, {"gross margins", GrossMargin, false},
	{"operating income", OperatingIncome, false}, {"operating profit", OperatingIncome, false}, {"income from operations", OperatingIncome, false},
	{"operating margin", OperatingMargin, false}, {"operating margins", OperatingMargin, false},
	{"net income", NetIncome, false}, {"net earnings", NetIncome, false}, {"net profit", NetIncome, false}, {"bottom line", NetIncome, false},
	{"profit", NetIncome, false}, {"profits", NetIncome, false}, {"earned", NetIncome, false}, {"earning", NetIncome, false},
	{"net margin", NetMargin, false}, {"net margins", NetMargin, false}, {"net profit margin", NetMargin, false}, {"profit margin", NetMargin, false},
	{"net income margin", NetMargin, false}, {"net earnings margin", NetMargin, false}, {"gross profit margin", GrossMargin, false},
	{"operating profit margin", OperatingMargin, false}, {"operating income margin", OperatingMargin, false},
	{"earnings", NetIncome, false}, {"operating earnings", OperatingIncome, false},
	{"diluted eps", EPSDiluted, false}, {"diluted earnings per share", EPSDiluted, false}, {"eps", EPSDiluted, false},
	{"earnings per share", EPSDiluted, false}, {"per share earnings", EPSDiluted, false}, {"per diluted share", EPSDiluted, false},
	{"basic eps", EPSBasic, false}, {"basic earnings per share", EPSBasic, false}, {"per basic share", EPSBasic, false},
	{"operating cash flow", OperatingCashFlow, false}, {"cash from operations", OperatingCashFlow, false},
	{"cash flow from operations", OperatingCashFlow, false}, {"cash flows from operations", OperatingCashFlow, false},
	{"cash from operating activities", OperatingCashFlow, false}, {"operating cash", OperatingCashFlow, false},
	{"cash generated by operations", OperatingCashFlow, false}, {"cash generated from operations", OperatingCashFlow, false},
	{"capital expenditure", Capex, false}, {"capital expenditures", Capex, false}, {"capex", Capex, false}, {"capital spending", Capex, false},
	{"purchases of property and equipment", Capex, false},
	// Capex over revenue, as analysts name it.
	{"capex intensity", Metric("capex_share_of_revenue"), false}, {"capital intensity", Metric("capex_share_of_revenue"), false},
	{"free cash flow", FreeCashFlow, false}, {"fcf", FreeCashFlow, false}, {"free cash flow margin", FCFMargin, false}, {"fcf margin", FCFMargin, false},
	{"research and development", RandD, false}, {"r&d", RandD, false}, {"r & d", RandD, false},
	{"sg&a", SGA, false}, {"sg&a expense", SGA, false}, {"sg&a expenses", SGA, false}, {"sg&a spending", SGA, false},
	{"selling general and administrative", SGA, false}, {"selling, general and administrative", SGA, false},
	{"selling, general & administrative", SGA, false}, {"selling general and administrative expenses", SGA, false},
	{"selling, general and administrative expenses", SGA, false},
	{"operating expenses", OperatingExpenses, false}, {"total operating expenses", OperatingExpenses, false},
	{"opex", OperatingExpenses, false}, {"operating expense", OperatingExpenses, false},
	// The line with its noun ("R&D spending doubled"): the noun stood
	// between the name and a multiple, which was then left unread.
	{"r&d spending", RandD, false}, {"r&d spend", RandD, false}, {"r&d expense", RandD, false}, {"r&d expenses", RandD, false},
	{"r&d costs", RandD, false}, {"research and development spending", RandD, false}, {"research and development expense", RandD, false},
	{"research and development expenses", RandD, false}, {"capex spending", Capex, false}, {"capital expenditure spending", Capex, false},
	{"dividends", Dividends, false}, {"dividend payments", Dividends, false}, {"dividends paid", Dividends, false},
	{"share repurchases", Repurchases, false}, {"stock repurchases", Repurchases, false}, {"repurchases", Repurchases, false},
	{"buybacks", Repurchases, false}, {"buyback", Repurchases, false}, {"share buybacks", Repurchases, false}, {"stock buybacks", Repurchases, false},
	{"bought back", Repurchases, false}, {"buying back", Repurchases, false}, {"repurchased", Repurchases, false}, {"repurchasing", Repurchases, false},
	{"total assets", TotalAssets, false}, {"total liabilities", TotalLiabilities, false},
	{"shareholders equity", Equity, false}, {"stockholders equity", Equity, false}, {"shareholders' equity", Equity, false},
	{"stockholders' equity", Equity, false}, {"shareholders’ equity", Equity, false}, {"stockholders’ equity", Equity, false},
	{"total equity", Equity, false}, {"book equity", Equity, false}, {"equity", Equity, false}, {"common equity", Equity, false},
	{"shareholder equity", Equity, false}, {"stockholder equity", Equity, false}, {"total shareholders equity", Equity, false},
	{"total stockholders equity", Equity, false}, {"total shareholders' equity", Equity, false}, {"total stockholders' equity", Equity, false},
	// Negative equity by its name: "a stockholders' deficit of $300 million".
	{"stockholders deficit", Equity, true}, {"shareholders deficit", Equity, true}, {"stockholders' deficit", Equity, true},
	{"shareholders' deficit", Equity, true}, {"stockholders’ deficit", Equity, true}, {"shareholders’ deficit", Equity, true},
	{"total stockholders' deficit", Equity, true}, {"total shareholders' deficit", Equity, true}, {"total stockholders deficit", Equity, true},
	{"total shareholders deficit", Equity, true},
	{"pretax income", PretaxIncome, false}, {"pre tax income", PretaxIncome, false}, {"income before taxes", PretaxIncome, false},
	{"income before income taxes", PretaxIncome, false}, {"pretax earnings", PretaxIncome, false}, {"pre tax earnings", PretaxIncome, false},
	{"pretax profit", PretaxIncome, false}, {"pre tax profit", PretaxIncome, false},
	{"income tax expense", IncomeTax, false}, {"provision for income taxes", IncomeTax, false}, {"tax expense", IncomeTax, false},
	{"tax provision", IncomeTax, false}, {"effective tax rate", EffectiveTaxRate, false}, {"effective rate", EffectiveTaxRate, false},
	{"effective income tax rate", EffectiveTaxRate, false}, {"effective tax rates", EffectiveTaxRate, false},
	// A rate not named effective: held to the effective rate unless it is
	// the statutory one (checkTaxRate); one named statutory, to the rate
	// the filing reconciles from (checkStatutory).
	{"tax rate", taxRate, false}, {"income tax rate", taxRate, false}, {"tax rates", taxRate, false},
	{"statutory rate", StatutoryTaxRate, false}, {"statutory tax rate", StatutoryTaxRate, false},
	{"statutory income tax rate", StatutoryTaxRate, false}, {"federal statutory rate", StatutoryTaxRate, false},
	{"federal statutory tax rate", StatutoryTaxRate, false}, {"federal statutory income tax rate", StatutoryTaxRate, false},
	{"statutory federal rate", StatutoryTaxRate, false}, {"statutory federal tax rate", StatutoryTaxRate, false},
	{"statutory federal income tax rate", StatutoryTaxRate, false}, {"us statutory rate", StatutoryTaxRate, false},
	{"u.s. statutory rate", StatutoryTaxRate, false}, {"us federal statutory rate", StatutoryTaxRate, false},
	{"u.s. federal statutory rate", StatutoryTaxRate, false}, {"federal rate", StatutoryTaxRate, false},
	{"federal tax rate", StatutoryTaxRate, false}, {"federal corporate tax rate", StatutoryTaxRate, false},
	{"corporate tax rate", StatutoryTaxRate, false}, {"us corporate tax rate", StatutoryTaxRate, false},
	{"u.s. corporate tax rate", StatutoryTaxRate, false}, {"statutory rates", StatutoryTaxRate, false},
	// The dividends over net income (or a share's over EPS).
	{"payout ratio", PayoutRatio, false}, {"dividend payout ratio", PayoutRatio, false}, {"dividend payout", PayoutRatio, false},
	{"payout ratios", PayoutRatio, false},
	{"dividends per share", DividendsPerShare, false}, {"dividend per share", DividendsPerShare, false},
	{"dividends declared per share", DividendsPerShare, false}, {"annual dividend per share", DividendsPerShare, false},
	// Cash with securities: its own line, not the cash line.
	{"cash and marketable securities", CashAndInvestments, false}, {"cash, cash equivalents and marketable securities", CashAndInvestments, false},
	{"cash, cash equivalents, and marketable securities", CashAndInvestments, false}, {"cash and cash equivalents and marketable securities", CashAndInvestments, false},
	{"cash, equivalents and marketable securities", CashAndInvestments, false}, {"cash and equivalents and marketable securities", CashAndInvestments, false},
	{"cash and short term investments", CashAndInvestments, false}, {"cash, cash equivalents and short term investments", CashAndInvestments, false},
	{"cash, cash equivalents, and short term investments", CashAndInvestments, false}, {"cash and securities", CashAndInvestments, false},
	{"cash and cash equivalents", Cash, false}, {"cash and equivalents", Cash, false},
	// "Cash" alone, or as a pile or a position: any of several lines
	// (bareCash), a balance only when the sentence states one (cashBalance).
	{"cash", bareCash, false}, {"cash balance", bareCash, false}, {"cash on hand", bareCash, false}, {"cash pile", bareCash, false}, {"cash hoard", bareCash, false},
	{"cash reserves", bareCash, false}, {"cash position", bareCash, false}, {"cash holdings", bareCash, false},
	{"cash dividends", Dividends, false}, {"cash dividends paid", Dividends, false},
	{"long term debt", LongTermDebt, false}, {"debt", LongTermDebt, false},
	{"shares outstanding", Shares, false}, {"share count", Shares, false}, {"outstanding shares", Shares, false},
	// The weighted average diluted count, EPS's denominator: not the shares
	// outstanding at a date.
	{"diluted share count", DilutedShares, false}, {"diluted shares", DilutedShares, false}, {"diluted shares outstanding", DilutedShares, false},
	{"weighted average diluted shares", DilutedShares, false}, {"diluted weighted average shares", DilutedShares, false},
	{"weighted average diluted shares outstanding", DilutedShares, false}, {"weighted average diluted share count", DilutedShares, false},
	{"diluted weighted average share count", DilutedShares, false}, {"weighted diluted shares", DilutedShares, false},
	{"weighted diluted share count", DilutedShares, false},
	// Both counts named together ("basic and diluted shares were 14.95
	// billion and 15.00 billion"): which figure is which is not read, and
	// held to the diluted count a right basic one was corrected.
	{"basic and diluted shares", otherMetric, false}, {"basic and diluted share counts", otherMetric, false},
	{"basic and diluted weighted average shares", otherMetric, false}, {"basic and diluted share count", otherMetric, false},
	// The weighted average basic count, basic EPS's denominator ("basic
	// shares outstanding" as the EPS note states it).
	{"basic shares", BasicShares, false}, {"weighted average basic shares", BasicShares, false}, {"basic weighted average shares", BasicShares, false},
	{"basic share count", BasicShares, false}, {"basic shares outstanding", BasicShares, false}, {"weighted average basic shares outstanding", BasicShares, false},
	{"basic weighted average shares outstanding", BasicShares, false}, {"weighted basic shares", BasicShares, false},
	{"basic weighted average share count", BasicShares, false}, {"weighted average basic share count", BasicShares, false},
	// A bank's income lines.
	{"net interest income", NetInterestIncome, false}, {"nii", NetInterestIncome, false}, {"interest income", InterestIncome, false},
	{"interest and dividend income", InterestIncome, false}, {"total interest income", InterestIncome, false},
	{"total interest and dividend income", InterestIncome, false}, {"noninterest income", NoninterestIncome, false},
	{"non interest income", NoninterestIncome, false}, {"total noninterest income", NoninterestIncome, false},
	// The taxes paid in cash, and the expense split abroad and at home.
	{"cash taxes", CashTaxesPaid, false}, {"cash taxes paid", CashTaxesPaid, false}, {"taxes paid", CashTaxesPaid, false},
	{"income taxes paid", CashTaxesPaid, false}, {"cash paid for income taxes", CashTaxesPaid, false}, {"cash paid for taxes", CashTaxesPaid, false},
	{"cash tax payments", CashTaxesPaid, false}, {"income tax payments", CashTaxesPaid, false}, {"cash income taxes", CashTaxesPaid, false},
	{"cash tax", CashTaxesPaid, false}, {"cash income taxes paid", CashTaxesPaid, false}, {"income taxes paid in cash", CashTaxesPaid, false},
	{"foreign income tax expense", ForeignTax, false}, {"foreign tax expense", ForeignTax, false}, {"foreign income taxes", ForeignTax, false},
	{"foreign taxes", ForeignTax, false}, {"foreign income tax", ForeignTax, false}, {"foreign tax provision", ForeignTax, false},
	{"foreign income tax provision", ForeignTax, false}, {"provision for foreign income taxes", ForeignTax, false},
	{"domestic income tax expense", DomesticTax, false}, {"domestic tax expense", DomesticTax, false}, {"domestic income taxes", DomesticTax, false},
	{"domestic taxes", DomesticTax, false}, {"domestic income tax", DomesticTax, false}, {"domestic tax provision", DomesticTax, false},
	{"foreign pretax income", ForeignPretax, false}, {"foreign pre tax income", ForeignPretax, false}, {"foreign income before taxes", ForeignPretax, false},
	{"foreign income before income taxes", ForeignPretax, false}, {"pretax income from foreign operations", ForeignPretax, false},
	{"foreign pretax earnings", ForeignPretax, false}, {"foreign pre tax earnings", ForeignPretax, false},
	{"domestic pretax income", DomesticPretax, false}, {"domestic pre tax income", DomesticPretax, false}, {"domestic income before taxes", DomesticPretax, false},
	{"domestic income before income taxes", DomesticPretax, false}, {"pretax income from domestic operations", DomesticPretax, false},
	{"domestic pretax earnings", DomesticPretax, false}, {"domestic pre tax earnings", DomesticPretax, false},
	// The ratios of the analysis, as its reports and the data-only agents
	// name them ("Return on equity of 76.3%", "Cash conversion (OCF / net
	// income) of 0.86x"), and their common short forms.
	{"return on equity", ROE, false}, {"roe", ROE, false}, {"return on shareholders equity", ROE, false}, {"return on stockholders equity", ROE, false},
	{"return on assets", ROA, false}, {"roa", ROA, false}, {"return on total assets", ROA, false},
	{"return on average equity", ROAE, false}, {"roae", ROAE, false}, {"return on average shareholders equity", ROAE, false},
	{"return on average shareholders' equity", ROAE, false}, {"return on average stockholders equity", ROAE, false},
	{"return on average stockholders' equity", ROAE, false}, {"return on average assets", ROAA, false}, {"roaa", ROAA, false},
	{"return on average total assets", ROAA, false}, {"return on average shareholders’ equity", ROAE, false},
	{"return on average stockholders’ equity", ROAE, false}, {"return on average total equity", ROAE, false},
	{"return on common equity", ROCE, false}, {"return on common shareholders equity", ROCE, false},
	{"return on common shareholders' equity", ROCE, false}, {"return on common shareholders’ equity", ROCE, false},
	{"return on average common equity", ROACE, false}, {"roace", ROACE, false}, {"return on average common shareholders equity", ROACE, false},
	{"return on average common shareholders' equity", ROACE, false}, {"return on average common shareholders’ equity", ROACE, false},
	{"return on average common stockholders equity", ROACE, false}, {"return on average common stockholders' equity", ROACE, false},
	{"net debt", NetDebt, false}, {"net debt position", NetDebt, false},
	// Net debt's opposite; "net cash" also opens a line of the cash flow
	// statement ("net cash provided by operating activities"), named
	// below as its line or as a measure the check does not hold.
	{"net cash", NetCash, false}, {"net cash position", NetCash, false}, {"net cash balance", NetCash, false},
	{"cash net of debt", NetCash, false},
	{"net cash provided by operating activities", OperatingCashFlow, false}, {"net cash from operating activities", OperatingCashFlow, false},
	{"net cash generated by operating activities", OperatingCashFlow, false}, {"net cash generated from operating activities", OperatingCashFlow, false},
	{"net cash provided by operations", OperatingCashFlow, false}, {"net cash from operations", OperatingCashFlow, false},
	{"debt to equity", DebtToEquity, false}, {"debt/equity", DebtToEquity, false}, {"d/e", DebtToEquity, false},
	{"liabilities to assets", Leverage, false}, {"liabilities to total assets", Leverage, false},
	{"current ratio", CurrentRatio, false}, {"cash conversion", CashConversion, false},
	{"r&d to revenue", RDIntensity, false}, {"r&d to sales", RDIntensity, false}, {"r&d intensity", RDIntensity, false},
	{"asset turnover", AssetTurnover, false},
	{"gross margin change", GrossMarginChange, false}, {"operating margin change", OperatingMarginChange, false},
	// The frameworks' scores: "Piotroski F-score of 4/9", "Altman Z score
	// of 53.14"; a Z'' names that variant.
	{"piotroski f score", PiotroskiF, false}, {"piotroski score", PiotroskiF, false}, {"f score", PiotroskiF, false}, {"piotroski", PiotroskiF, false},
	{"altman z score", AltmanZ, false}, {"altman z", AltmanZ, false}, {"altman score", AltmanZ, false}, {"z score", AltmanZ, false}, {"altman", AltmanZ, false},
	{"altman z'' score", AltmanZDoublePrime, false}, {"altman z''", AltmanZDoublePrime, false}, {"z'' score", AltmanZDoublePrime, false},
	{"altman z” score", AltmanZDoublePrime, false}, {"altman z”", AltmanZDoublePrime, false}, {"z” score", AltmanZDoublePrime, false},
	{"altman z\" score", AltmanZDoublePrime, false}, {"altman z\"", AltmanZDoublePrime, false},
}

// otherMetric marks a phrase of otherPhrases: a measure the check does not
// hold, which a figure next to it measures rather than a metric further off.
const otherMetric Metric = "other"

// otherPhrases are measures a debater states that are not a line the table
// holds: non-GAAP measures, industry measures of banks, insurers and REITs,
// and balance-sheet and operating lines the check does not read. Unknown, a
// figure of them was attributed to the nearest metric the check knows ("net
// premiums earned" to net income through "earned", "adjusted EBITDA of $5B
// on revenue of $391B" to revenue) and corrected though it may be right.
var otherPhrases = []string{
	"ebitda", "adjusted ebitda", "ebitda margin", "ebitdar", "ebit", "adjusted ebit",
	"ffo", "affo", "funds from operations", "adjusted funds from operations", "core ffo", "noi", "net operating income",
	"same store noi", "same property noi", "occupancy", "occupancy rate",
	"premiums", "premiums earned", "net premiums earned", "premiums written", "net premiums written", "gross premiums written",
	"combined ratio", "loss ratio", "expense ratio", "net investment income", "investment income",
	"net interest margin", "nim", "efficiency ratio", "noninterest expense", "non interest expense", "fee income", "provision for credit losses",
	"credit loss provision", "loan loss provision", "net charge offs", "charge offs", "deposits", "total deposits", "loans",
	"total loans", "cet1", "cet1 ratio", "tier 1 capital", "book value", "tangible book value", "book value per share",
	"tangible book value per share", "dividend", "quarterly dividend", "dividend yield",
	// A dividend outside the regular one: the filings' dividends declared
	// a share may or may not count it.
	"revenue per employee", "sales per employee", "revenue per user", "average revenue per user", "arpu", "revenue per square foot",
	"sales per square foot", "revenue per store", "revenue per share", "sales per share",
	"special dividend", "special dividends", "special cash dividend", "one time dividend", "one off dividend", "stock dividend",
	"supplemental dividend", "variable dividend", "extra dividend",
	"aum", "assets under management", "backlog", "bookings", "gross bookings", "remaining performance obligations",
	"rpo", "arr", "annual recurring revenue", "annualized recurring revenue", "gmv", "gross merchandise volume", "gross merchandise value",
	"same store sales", "comparable sales", "comparable store sales", "comp sales", "comps", "net revenue retention", "churn",
	"market share", "headcount", "employees",
	// A buyback authorized is not one paid for: the filings' repurchases
	// are cash paid in the period.
	"authorized", "authorization", "authorizations", "repurchase program", "buyback program", "repurchase authorization",
	"buyback authorization", "remaining authorization",
	// Buybacks and dividends together: no line of the filings.
	"returned", "returning", "shareholder returns", "capital return", "capital returns", "capital returned",
	// Debt beyond the long-term line: the current portion, commercial
	// paper, the total; held to long-term debt, a right total was corrected.
	"total debt", "gross debt", "short term debt", "current portion of long term debt", "commercial paper", "total borrowings",
	// Taxes paid in cash are not the expense.
	"income tax", "income taxes", "interest expense",
	// Parts of the tax expense the table does not hold (federal, state,
	// current, deferred): held to the total, a right part was corrected.
	"federal income tax", "federal income taxes", "federal income tax expense", "federal tax expense", "federal taxes", "federal tax",
	"state income tax", "state income taxes", "state and local taxes", "state and local income taxes", "state taxes",
	"current tax", "current taxes", "current income tax", "current income taxes", "current tax expense", "current income tax expense",
	"deferred tax", "deferred taxes", "deferred income tax", "deferred income taxes", "deferred tax expense", "deferred tax benefit",
	"deferred income tax expense", "us income tax", "u.s. income tax", "us income taxes", "u.s. income taxes", "us taxes", "u.s. taxes",
	"us tax expense", "u.s. tax expense",
	// Rates and credits of the tax abroad or at home: no expense.
	"foreign income tax rate", "foreign income tax rates", "foreign income tax rate differential", "foreign rate differential",
	"foreign tax credit", "foreign tax credits", "foreign income tax credit", "foreign income tax credits", "domestic income tax rate",
	"domestic tax rate", "foreign taxes paid rate",
	// Rates a tax may be charged at that are neither the year's effective
	// rate nor the federal statutory one.
	"cash tax rate", "marginal tax rate", "marginal rate", "minimum tax", "minimum tax rate", "global minimum tax",
	"foreign tax rate", "foreign tax rates", "state tax rate", "state tax rates", "gilti", "tax rate on", "blended tax rate",
	"blended statutory rate", "non gaap tax rate", "adjusted tax rate", "tax rate guidance", "goodwill", "impairment", "inventory", "inventories",
	"accounts receivable", "working capital", "net cash provided", "net cash used", "net cash generated", "net cash from", "net cash flow",
	"net cash flows", "net cash inflow", "net cash inflows", "net cash outflow", "net cash outflows", "net cash proceeds", "net cash paid",
	"net cash received", "net cash interest", "cash burn", "burn rate",
	// Cash flows and uses named by "cash" and a noun: no balance.
	"cash flow", "cash flows", "cash generation", "cash generated", "cash returned", "cash return", "cash returns", "cash paid",
	"cash spent", "cash used", "cash outflow", "cash outflows", "cash inflow", "cash inflows", "cash consideration", "cash compensation",
	"cash costs", "cash cost", "cash interest", "cash expenses", "cash earnings", "cash margin", "cash conversion cycle", "cash and stock",
	"cash flow yield",
	// What cash is stated beside, not held alone: "$35.9 billion in cash
	// and $18.8 billion in current marketable securities".
	"marketable securities", "current marketable securities", "non current marketable securities", "noncurrent marketable securities",
	"long term marketable securities", "short term investments", "long term investments", "restricted cash",
	"stock based compensation", "share based compensation", "sbc",
	"depreciation", "amortization", "d&a", "other income", "pretax margin", "pre tax margin",
	"earnings call", "earnings release", "earnings date", "earning assets", "interest earning assets", "earning power", "free cash flow conversion", "fcf conversion",
	// Equity that is not the balance sheet's: a stake, an investment, a
	// raise, awards, the market's value of the shares.
	"equity stake", "equity stakes", "equity investment", "equity investments", "equity securities", "equity method",
	"equity method investments", "private equity", "equity offering", "equity raise", "equity financing", "equity issuance",
	"equity awards", "equity compensation", "equity value", "equity market", "equity markets", "home equity", "equity risk premium",
	"negative equity", "tangible equity", "tangible common equity", "return on tangible equity", "return on tangible common equity",
	"return on average tangible common equity", "rotce", "roatce", "return on tangible assets",
	// A weighted count not named basic or diluted is neither for sure,
	// and not the shares outstanding at a date.
	"weighted average shares", "weighted average shares outstanding",
}

// marketRe marks figures no filing states: prices, market values, multiples.
// "Stock" alone is no such cue: stock-based compensation, stock repurchases,
// common stock and stockholders' equity are lines of the filings, and a
// figure near them was taken for market data and never checked. The stock
// is a market figure only as the subject of a price or of its move ("the
// stock trades at", "the stock rose 65%", "stock price").
var marketRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(p/e|pe ratio|price to earnings|price/earnings|earnings multiple|multiple|multiples|market cap|market capitalization|market value|valuation|enterprise value|ev/ebit|ev/ebitda|ev/sales|p/s|price to sales|share price|stock price|shares trade|trades at|trading at|priced at|changed hands|closed at|shares at|price target|target price|per share price|fcf yield|yield|` +
		`(?:the|its|a|[a-z]+'s|[a-z]+’s)\s+stock\s+(?:trades|traded|trading|closed|closes|rose|rallied|gained|jumped|surged|soared|climbed|advanced|fell|dropped|declined|slid|sank|slumped|lost|returned|doubled|tripled|halved|(?:is|was|has|had)\s+(?:up|down|trading|traded|risen|fallen|gained|lost|returned|rallied|doubled|tripled|halved))|` +
		`stock\s+(?:performance|returns?|move|moves|quote)|stock\s+at)\b`)
})

var (
	fyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:fiscal(?:\s+year)?\s*(?:'|’)?|fy\s*(?:'|’)?)(\d{4}|\d{2})\b`)
	})
	// An explicit calendar year: "calendar 2024", "CY2024", "calendar year
	// 2024".
	calendarRe = sync.OnceValue(func() *regexp.Regexp {
		// The year before its name too: "the 2024 calendar year" was read
		// as the bare year, the fiscal one, and a right total corrected.
		return regexp.MustCompile(`(?i)\b(?:calendar(?:\s+year)?\s*'?|cy\s*'?)(\d{4}|\d{2})\b|\b(\d{4})[\s-]+calendar[\s-]+year\b`)
	})
	// A quarter named for the month it ends in: "the December quarter (of)
	// 2024", "the June 2025 quarter", "the quarter ended December 28, 2024",
	// "three months ended June 28, 2025".
	monthQuarterRe = sync.OnceValue(func() *regexp.Regexp {
		const month = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
		// "the quarter ended in October 2025", and a balance "as of June
		// 28, 2025" (the quarter ending then; a flow's is unplaced).
		return regexp.MustCompile(`\b` + month + `(?:\s+(\d{4}))?\s+quarter\b(?:\s+(?:of\s+)?(fiscal\s+|calendar\s+)?(\d{4}))?` +
			`|\b(?:(?:quarter|three\s+months)\s+end(?:ed|ing)\s+(?:on\s+|in\s+)?|as\s+of\s+)` + month + `(?:\s+\d{1,2})?,?\s+(\d{4})`)
	})
	// A half year, a year to date, or a quarter no reader could place:
	// periods the table does not hold, or that the check cannot name.
	unplacedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:first|second)\s+half\b|\bh[12]\b|\b[12]h\b|\b(?:six|nine|three)\s+months?\b|\b(?:6m|9m)\b|` +
			`\byear\s+to\s+date\b|\bytd\b|\bhalf\s+year\b|\bquarter(?:ly)?\b`)
	})
	yearRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(19[89]\d|20\d{2})\b`) })
	quarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:q([1-4])|(first|second|third|fourth)[\s-](?:fiscal\s+)?quarter|([1-4])q)\b`)
	})
	quarterYearRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:([1-4])q\s?['’]?\s?(\d{4}|\d{2})|q([1-4])\s?['’]\s?(\d{4}|\d{2}))\b`)
	})
	ttmRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(ttm|ltm|(?:trailing|last|past|latest|most\s+recent)\s+(?:twelve|12)[\s-]months?|(?:trailing|last|past|latest|most\s+recent)\s+(?:four|4)\s+quarters)\b`)
	})
	lastYrRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(last year|prior year|previous year|a year earlier|a year ago|year before|prior fiscal year|previous fiscal year|the year before)\b`)
	})
	// thisYearRe is the year the writer is in: "this year", "this fiscal
	// year", "the current year", "so far this year".
	thisYearRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:(?:so\s+far\s+)?this|the\s+current)\s+(?:fiscal\s+)?year\b`)
	})
	// yearsBackRe is a year counted back more than one: "two years
	// earlier", "three years ago", "2 years before".
	yearsBackRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(two|three|four|[2-4])\s+(?:fiscal\s+)?years\s+(?:earlier|ago|before|prior)\b`)
	})
)

// Find reads every financial figure in text, sentence by sentence. Figures
// without a stated period get the table's latest fiscal year.
func Find(text string, t *Table) []Mention {
	var out []Mention
	rows := map[string]string{}
	for _, para := range strings.Split(tableSentences(text, t, rows), "\n\n") {
		para0 := len(out)
		ss := Sentences(para)
		for i, s := range ss {
			ms := findIn(s, t)
			if row, ok := rows[s]; ok {
				for i := range ms {
					ms[i].Row = row
				}
			}
			countBackFrom(ms, out[para0:])
			for k := range ms {
				if m := &ms[k]; (m.Annual || m.AnnualWord) && len(m.Over) == 0 {
					// "From 2022 to 2025 Alphabet kept investing. Its
					// revenue compounded at 12.5% a year."
					if over := t.spanBefore(ss[max(0, i-2):i]); len(over) > 0 {
						m.Over, m.Annual, m.AnnualWord = over, true, false
					}
				}
			}
			out = append(out, ms...)
		}
	}
	return out
}

// countBackFrom gives a figure whose year counts back with nothing in its
// sentence to count from ("Revenue was $391.0 billion in fiscal 2024. A
// year earlier, it was $383.3 billion.") the period of the last figure
// of the paragraph before it whose period was stated, counted back. Read
// as counted back from the latest fiscal year, a right figure of a year
// earlier than the one the text was about was corrected. With no such
// figure before it, it is counted from the latest or, its line's only
// figure, from the year after it, the one the latest filing is in.
func countBackFrom(ms, before []Mention) {
	var from *Mention
	for k := len(before) - 1; k >= 0; k-- {
		if b := &before[k]; b.Explicit && !b.Relative && !b.Period.TTM && b.Period.Q >= -1 && len(b.Over) == 0 && len(b.Total) == 0 {
			from = b
			break
		}
	}
	for k := range ms {
		m := &ms[k]
		if m.countBack == 0 {
			continue
		}
		if from == nil {
			// Nothing to count from: the year before the latest, or,
			// as "last year" alone is the latest, the latest, for a
			// figure its line has no other of in the sentence.
			alone := true
			for j := range ms {
				alone = alone && (j == k || ms[j].Metric != m.Metric)
			}
			if alone && m.Period.Q == 0 && !m.Period.TTM && m.alt == (Period{}) {
				m.alt = Period{FY: m.Period.FY + 1}
			}
			continue
		}
		m.Period = from.Period
		m.Period.FY -= m.countBack
		m.alt = Period{}
		if from.alt.Q > 0 {
			m.alt = from.alt
			m.alt.FY -= m.countBack
		}
	}
}

// spanBefore is the span of years the nearest of the sentences before a
// figure names as one ("From 2022 to 2025 ...", "Over the past three
// years ..."): the years a rate a year stated without its own is over.
func (t *Table) spanBefore(prev []string) [][2]Period {
	for i := len(prev) - 1; i >= 0; i-- {
		low := lowerASCII(prev[i])
		if over := t.yearsOver(prev[i], low, len(low), len(low)); len(over) > 0 {
			return over
		}
	}
	return nil
}

// yearsNamed is the span of the fiscal years a sentence names apart from
// a span ("from $257.6 billion in 2021 to $402.8 billion in 2025": 2021 to
// 2025), or, for years listed ("in 2024 and 2025"), the years of growth
// they name (2023 to 2025): what a rate a year in it is over. None unless
// it names two years or more.
func (t *Table) yearsNamed(low string, periods []span) [][2]Period {
	var years []span
	for _, sp := range periods {
		if !sp.relative && !sp.period.TTM && sp.period.Q == 0 && sp.period.FY > 0 {
			years = append(years, sp)
		}
	}
	if len(years) < 2 {
		return nil
	}
	sort.Slice(years, func(i, j int) bool { return years[i].start < years[j].start })
	first, last := years[0], years[len(years)-1]
	if first.period.FY >= last.period.FY {
		return nil
	}
	listed := true
	for k := 1; k < len(years); k++ {
		gap := strings.TrimSpace(low[years[k-1].end:years[k].start])
		listed = listed && (listGap(gap) || gap == "and in" || gap == ", and in")
	}
	readings := func(sp span) []int {
		out := []int{sp.period.FY}
		if sp.metric == "calendar" {
			for _, p := range t.candidates(Mention{Period: Period{FY: sp.period.FY, Q: -1}, Explicit: true}) {
				if p.FY != sp.period.FY {
					out = append(out, p.FY)
				}
			}
		}
		return out
	}
	var out [][2]Period
	for _, a := range readings(first) {
		for _, b := range readings(last) {
			if listed {
				a--
			}
			if a < b {
				out = append(out, [2]Period{{FY: a}, {FY: b}})
			}
			if listed {
				a++
			}
		}
	}
	return out
}

// yearsOfAmountsAfter is the span of the years of the amounts a line
// moved "from" and "to" after a figure in its clause ("..., from $27.0
// billion in fiscal 2023 to $215.9 billion in fiscal 2026"): the years
// the figure's change is over. Nil unless both amounts and two years
// follow it.
func (t *Table) yearsOfAmountsAfter(low string, end int, periods []span) [][2]Period {
	after := low[end:]
	if k := strings.IndexAny(after, ";"); k >= 0 {
		after = after[:k]
	}
	var from, to bool
	for _, loc := range fromToAmountRe().FindAllStringIndex(after, -1) {
		switch {
		case strings.HasPrefix(after[loc[0]:], "from"):
			from = true
		case from:
			to = true
		}
	}
	if !to {
		return nil
	}
	var years []span
	for _, sp := range periods {
		if sp.start >= end && sp.end <= end+len(after) {
			years = append(years, sp)
		}
	}
	return t.yearsNamed(low, years)
}

// tableSentences rewrites each Markdown table of text as one sentence per
// figure, naming the figure by its row's first cell and its column's
// header ("| Revenue | $215.9B |" under "| Metric | FY2026 |" is "Revenue
// FY2026: $215.9B."), and a change column ("YoY", "Growth") by the first
// column that names a period. Read as prose, a table is one run-on
// sentence whose figures all took the period nearest them, and a right
// table's figures of every column but one were corrected.
// Each sentence written for a figure of a row is mapped in rows to the row
// as written.
func tableSentences(text string, t *Table, rows map[string]string) string {
	if !strings.Contains(text, "|") {
		return text
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && tableRow(lines[j]) {
			j++
		}
		if j-i < 2 {
			b.WriteString(lines[i])
			if i+1 < len(lines) {
				b.WriteByte('\n')
			}
			i++
			continue
		}
		// A caption right before the table may give its cells' unit
		// ("Figures in $ billions:").
		caption := ""
		for k := i - 1; k >= 0 && k >= i-2; k-- {
			if l := strings.TrimSpace(lines[k]); l != "" {
				if len(l) <= 100 {
					caption = l
				}
				break
			}
		}
		b.WriteString(tableText(lines[i:j], t, rows, cellUnit(caption), caption))
		if j < len(lines) {
			b.WriteByte('\n')
		}
		i = j
	}
	return b.String()
}

// tableRow reports whether a line is a row of a Markdown table.
func tableRow(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "|") && strings.Count(l, "|") >= 3
}

func cells(row string) []string {
	l := strings.TrimSpace(row)
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	out := strings.Split(l, "|")
	for i := range out {
		out[i] = strings.TrimSpace(strings.Trim(strings.TrimSpace(out[i]), "*_"))
	}
	return out
}

var (
	separatorCellRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^:?-{2,}:?$`) })
	changeHeaderRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(yoy|y/y|growth|change|chg|increase|vs\.? prior|year over year)\b|%\s*(chg|change)|^δ|^Δ`)
	})
)

// unitNoteRe is a unit stated for a table's numbers in its caption, a row's
// label or a column's header: "($B)", "(in millions)", "($ in billions)",
// "USD bn", "in $ billions", "(%)", "($)".
var unitNoteRe = sync.OnceValue(func() *regexp.Regexp {
	const scale = `(bn|bln|billions?|b|mn|mln|millions?|mm|m|tn|trillions?|thousands?|k)`
	// A currency may stand where the dollar does: "(€B)", "(EUR bn)",
	// "in NT$ billions" (see noteCurrency).
	const cur = `(?:(?:us|nt|hk|c|a)?\$|usd|€|£|¥|(?:` + foreignCodes + `)\b)`
	return regexp.MustCompile(`(?i)\(\s*(?:in\s+)?` + cur + `?\s*(?:in\s+)?` + scale + `\s*\)|\bin\s+` + cur + `?\s*` + scale + `\b|` +
		`(?:^|\s)(?:(?:us|nt|hk|c|a)?\$|€|£|¥)\s*` + scale + `\b|\b(?:usd|` + foreignCodes + `)\s*` + scale + `\b|(\(\s*%\s*\))|(\(\s*(?:(?:us|nt)?\$|usd|€|£|¥|eur|twd|dkk)\s*\))`)
})

// noteCurrency is the currency a table's note states for its amounts:
// "USD" for dollars ("($B)", "USD bn"), the ISO code of another currency
// ("(€B)" "EUR", "in NT$ billions" "TWD"), "" when it names none ("(in
// billions)"), whose amounts are in the filer's currency.
func noteCurrency(note string) string {
	low := strings.ToLower(note)
	if loc := foreignMarkerRe().FindStringSubmatchIndex(low); loc != nil {
		return currencyCode(low[loc[2]:loc[3]])
	}
	if strings.Contains(low, "$") || usdWordRe().MatchString(low) {
		return "USD"
	}
	return ""
}

var usdWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\busd\b`) })

// foreignMarkerRe is a currency other than the dollar named in a note, as
// foreignRe reads one before an amount.
var foreignMarkerRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(€|£|¥|₹|₩|\b(?:nt|c|a|hk|s|r|mx|nz)\$|\b(?:` + foreignCodes + `)\b)`)
})

// cellUnit is the unit a table's note states: a scale word ("billion"),
// "%" or "$"; "" when none.
func cellUnit(note string) string {
	if note == "" || !strings.ContainsAny(note, "$%(€£¥") && !strings.Contains(strings.ToLower(note), "usd") && !strings.Contains(strings.ToLower(note), " in ") &&
		noteCurrency(note) == "" {
		return ""
	}
	loc := unitNoteRe().FindStringSubmatchIndex(note)
	if loc == nil {
		return ""
	}
	switch {
	case loc[10] >= 0:
		return "%"
	case loc[12] >= 0:
		return "$"
	}
	for g := 2; g <= 8; g += 2 {
		if loc[g] >= 0 {
			w := strings.ToLower(note[loc[g]:loc[g+1]])
			switch {
			case strings.HasPrefix(w, "t") && w != "thousand" && w != "thousands":
				return "trillion"
			case strings.HasPrefix(w, "b"):
				return "billion"
			case strings.HasPrefix(w, "m"):
				return "million"
			default:
				return "thousand"
			}
		}
	}
	return ""
}

// bareCellRe is a cell that is a bare number: "416.2", "(1.2)", "-0.5",
// "1,234".
var bareCellRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([-−]?)(\()?(\d[\d,]*(?:\.\d+)?)(\))?$`) })

// withUnit writes a bare number cell with the unit its table's notes state
// ("416.2" in a "Revenue ($B)" row is "$416.2 billion"), an amount after
// cur, the sign of its currency ("$", "€", "NT$", "DKK "); other cells as
// they are. Unread, a table of bare numbers under "($B)" was not checked.
func withUnit(c, unit, cur string) string {
	loc := bareCellRe().FindStringSubmatch(strings.TrimSpace(c))
	if loc == nil || unit == "" || (loc[2] == "") != (loc[4] == "") {
		return c
	}
	num := loc[3]
	neg := loc[1] != "" || loc[2] != ""
	switch unit {
	case "%":
		if neg {
			return "-" + num + "%"
		}
		return num + "%"
	case "$":
		if neg {
			return cur + "(" + num + ")"
		}
		return cur + num
	}
	if neg {
		return cur + "(" + num + ") " + unit
	}
	return cur + num + " " + unit
}

// tableText is a table's rows as sentences: see tableSentences. unit is
// the unit the table's caption states for its numbers ("" for none).
func tableText(rows []string, t *Table, written map[string]string, unit, caption string) string {
	var header []string
	data := rows
	if len(rows) >= 2 {
		sep := true
		for _, c := range cells(rows[1]) {
			if c != "" && !separatorCellRe().MatchString(strings.ReplaceAll(c, " ", "")) {
				sep = false
			}
		}
		if sep {
			header, data = cells(rows[0]), rows[2:]
		}
	}
	// The corner cell may state the unit of the whole table ("($ in
	// billions)"), as a caption does.
	corner := ""
	if len(header) > 0 {
		corner = header[0]
		if u := cellUnit(header[0]); u != "" {
			unit = u
		}
	}
	// The first column whose header names a period: the period of a change
	// column ("YoY") that names none.
	// A change is to the later period: the latest of the columns, whichever
	// way they run ("FY2026 | FY2025 | YoY", "FY2024 | FY2025 | YoY"; the
	// first was taken, and a right change of an oldest-first table was
	// held to the year before).
	firstPeriod := ""
	var latest Period
	for _, h := range header {
		ps := findPeriods(lowerASCII(h), t)
		if len(ps) == 0 {
			continue
		}
		p := ps[0].period
		if firstPeriod == "" || !ps[0].relative && (p.FY > latest.FY || p.FY == latest.FY && p.Q > latest.Q) {
			firstPeriod, latest = h, p
		}
	}
	var b strings.Builder
	for _, row := range data {
		cs := cells(row)
		if len(cs) == 0 {
			continue
		}
		label := cs[0]
		wrote := false
		for j := 1; j < len(cs); j++ {
			c := cs[j]
			if !strings.ContainsAny(c, "0123456789") {
				continue
			}
			h := ""
			if j < len(header) {
				h = header[j]
			}
			// The unit of a bare number: its row's label's, else its
			// column's, else the caption's.
			u := cellUnit(label)
			if u == "" {
				u = cellUnit(h)
			}
			if u == "" {
				u = unit
			}
			// A year is no amount; nor is a bare number in a change column
			// ("YoY") an amount of the row's scale.
			if yearRe().MatchString(c) && len(c) == 4 || u != "%" && changeHeaderRe().MatchString(h) {
				u = ""
			}
			// The currency likewise: its row's, its column's, the
			// caption's, else the filer's.
			cur := cmp.Or(noteCurrency(label), noteCurrency(h), noteCurrency(corner), noteCurrency(caption), t.Currency, "USD")
			c = withUnit(c, u, analysis.CurrencyPrefix(cur))
			s := strings.TrimSpace(label + " " + h)
			if firstPeriod != "" && h != firstPeriod && len(findPeriods(lowerASCII(h), t)) == 0 && changeHeaderRe().MatchString(h) {
				s += " in " + firstPeriod
			}
			// "| Q3 2025 | 102.3 | 16% |" under "| Quarter | Revenue ($bn)
			// | YoY |": a change column with no line of its own is the
			// change of the line of the column before it.
			if j >= 2 && j-1 < len(header) && changeHeaderRe().MatchString(h) && len(findMetrics(lowerASCII(h))) == 0 &&
				len(findPeriods(lowerASCII(h), t)) == 0 && len(findMetrics(lowerASCII(label))) == 0 && len(findMetrics(lowerASCII(header[j-1]))) > 0 {
				s = strings.TrimSpace(label + " " + header[j-1] + " " + h)
			}
			b.WriteString(s + ": " + c + ".\n\n")
			written[s+": "+c+"."] = strings.TrimSpace(row)
			wrote = true
		}
		if !wrote {
			b.WriteString(strings.Join(cs, ", ") + ".\n\n")
		}
	}
	return b.String()
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
			if c == '.' && scaleAbbrevBefore(text[:i]) && i+2 < len(text) && text[i+1] == ' ' && text[i+2] >= 'a' && text[i+2] <= 'z' {
				continue // "$9.8 bil. in fiscal 2025": the scale's abbreviation, the sentence goes on
			}
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '"' || text[i+1] == ')' {
				emit(i + 1)
			}
		}
	}
	emit(len(text))
	return out
}

// scaleAbbrevBefore reports whether s ends with a scale written short
// after a number: "9.8 bil", "120 mil", "1.2bn".
func scaleAbbrevBefore(s string) bool {
	low := strings.ToLower(s)
	for _, a := range []string{"bil", "mil", "bn", "mn", "bln", "mln"} {
		if rest, ok := strings.CutSuffix(low, a); ok {
			rest = strings.TrimRight(rest, " ")
			return rest != "" && rest[len(rest)-1] >= '0' && rest[len(rest)-1] <= '9'
		}
	}
	return false
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
	loss       bool // a metric phrase naming a loss
	// bare marks a quarter written without its year ("fourth-quarter
	// revenue ... in fiscal 2024"), and month the month a quarter named by
	// month ends in: attribute gives it the year the sentence states.
	bare  bool
	month int
	// back is how many years a relative year counts back ("two years
	// earlier"): 0 for one.
	back int
	// asOf marks a date a balance is stated at ("as of June 28, 2025"):
	// the quarter ending then for a balance, no period of a flow's.
	asOf bool
	// name is the phrase of an otherMetric span.
	name string
	// alt is the other period a quarter with a bare year may name ("Q4
	// 2023" of a filer whose year ends in September: its fiscal Q4 2023
	// or the calendar quarter to December 2023, its Q1 FY2024); zero when
	// the two readings coincide or the year says which it is.
	alt Period
}

func findIn(sentence string, t *Table) []Mention {
	// The figures are read with a decimal comma as a point ("$9,8
	// billion", "2,5%"); the quote and the figures' text stay as written.
	// Of the same length, the two strings share every offset.
	written := sentence
	if strings.IndexByte(sentence, ',') >= 0 && decimalCommaRe().MatchString(sentence) {
		sentence = decimalCommaRe().ReplaceAllString(sentence, "$1.$2$3")
	}
	low := lowerASCII(sentence)
	metrics := shorthandMetrics(sentence, findMetrics(low))
	periods := findPeriods(blankSequential(low), t)
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
		m.Quote, m.Text, m.Start, m.End = written, strings.TrimSpace(written[start:end]), start, end
		pre := low[max(0, start-24):start]
		m.Approx = approxRe().MatchString(pre)
		switch {
		case moreRe().MatchString(pre):
			m.Bound = 1
		case lessRe().MatchString(pre):
			m.Bound = -1
		}
		// "negative 0.3%", "minus $10.9 million": a sign written as a word.
		if m.Hi == 0 && !m.Neg && m.Value > 0 && negWordRe().MatchString(pre) {
			m.Value = -m.Value
		}
		want, dir := m.Metric, m.Dir
		attribute(&m, sentence, low, start, end, metrics, periods, t)
		if m.timesBase > 0 {
			timesSpan(&m, periods, t)
		}
		if m.ToProfit || m.DirOnly || m.Record || m.SignStreak != 0 {
			// The line and whose it is were read with the phrase; the
			// rest of the attribution (period, condition) stands.
			m.Metric, m.Other, m.Share, m.Market, m.Change, m.Points = want, "", false, false, false, false
			m.LossChange, m.Annual, m.AnnualWord, m.Over, m.Sequential, m.Swing, m.LossMove, m.LevelMove = false, false, false, nil, false, 0, 0, 0
		}
		if m.DirOnly {
			m.Dir, m.Neg, m.Value = dir, false, 0
		}
		if m.pinned != nil {
			m.Period, m.Explicit, m.Relative = *m.pinned, true, false
		}
		if m.bare && m.Unit == USD {
			// "2.35 billion active devices": a count of something, not
			// an amount of the nearest metric.
			if noun := countNoun(low[end:min(len(low), end+40)]); noun != "" {
				m.Metric, m.Other, m.Change = "", noun, false
			}
		}
		mentions = append(mentions, m)
	}
	// Amounts in another currency first, so that the dollar readers do not
	// take "NT$391 billion" or "391 billion euros" for dollars.
	// Their ranges first: one figure, held to both ends, as a dollar range.
	for _, loc := range foreignRangeRe().FindAllStringSubmatchIndex(sentence, -1) {
		m, ok := rangeAmount(low, loc, 3)
		if !ok {
			continue
		}
		m.Currency = currencyCode(low[loc[4]:loc[5]])
		add(loc[0], loc[1], m)
	}
	// Each is read as a dollar amount is (scale, sign, a share's amount),
	// with its currency, which decides whether it is held to the filer's
	// figures (Table.otherCurrency).
	for _, re := range []*regexp.Regexp{foreignRe(), foreignNameRe()} {
		for _, loc := range re.FindAllStringSubmatchIndex(low, -1) {
			var marker, num, scaleWord, sign string
			start, end := loc[0], loc[1]
			closed := false
			if re == foreignNameRe() {
				marker, num = low[loc[6]:loc[7]], low[loc[2]:loc[3]]
				if loc[4] >= 0 {
					scaleWord = low[loc[4]:loc[5]]
				}
			} else {
				marker, num, sign, closed = low[loc[2]:loc[3]], low[loc[6]:loc[7]], sentence[loc[0]:loc[6]], loc[8] >= 0
				if loc[10] >= 0 {
					scaleWord = low[loc[10]:loc[11]]
				}
				if closed && !strings.HasSuffix(sign, "(") && scaleWord == "" {
					end = loc[8] // the text's closing parenthesis, not the figure's
				}
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
			if err != nil {
				continue
			}
			if scaleWord == "" && yearRe().MatchString(num) && len(num) == 4 && foreignCodeRe().MatchString(marker) {
				continue // "EUR 2024 revenue": a year after a code, no amount
			}
			scale := 1.0
			if scaleWord != "" {
				scale = scaleOf(scaleWord)
			}
			m := Mention{Value: v * scale, Unit: USD, Step: step(strings.ReplaceAll(num, ",", ""), scale), Currency: currencyCode(marker)}
			switch {
			case strings.HasSuffix(sign, "(") && closed:
				m.Neg = true // "€(0.52)"
			case strings.ContainsAny(sign, "-−"):
				m.Neg = true // "€-1.2B"
			case negativeBefore(sentence, start):
				m.Neg = true // "-€1.2B"
				start -= len(sentence[:start]) - len(strings.TrimRight(sentence[:start], "-−–"))
			case start > 0 && low[start-1] == '(' && end < len(low) && low[end] == ')' && accountingNegative(low, start-1):
				m.Neg = true // "(€1.2B)"
				start, end = start-1, end+1
			}
			switch {
			case perShare(low[loc[1]:min(len(low), loc[1]+16)]):
				m.Unit = USDPerShare
			case scale == 1 && v == 0:
				m.zero = true
			case scale == 1 && v < 1000 && re == foreignRe():
				m.Unit = USDPerShare
			}
			add(start, end, m)
		}
	}
	// Ranges next: one figure, held to both ends.
	for _, loc := range moneyRangeRe().FindAllStringSubmatchIndex(sentence, -1) {
		m, ok := rangeAmount(low, loc, 2)
		if !ok {
			continue
		}
		m.dollar, m.usd = true, strings.Contains(low[loc[0]:loc[4]], "us")
		add(loc[0], loc[1], m)
	}
	for _, loc := range percentRangeRe().FindAllStringSubmatchIndex(sentence, -1) {
		if loc[0] > 0 && (isWordByte(low[loc[0]-1]) || low[loc[0]-1] == '.' || low[loc[0]-1] == '$') {
			continue // "Q3-15%", "3.5-4%" read from its middle, "$5-6%"
		}
		if !rangeJoin(low, loc, loc[2] >= 0, low[loc[6]:loc[7]]) {
			continue
		}
		lo, hi := low[loc[4]:loc[5]], low[loc[8]:loc[9]]
		vLo, vHi := mustFloat(lo), mustFloat(hi)
		if vHi <= vLo {
			continue
		}
		add(loc[0], loc[1], Mention{Value: vLo, Hi: vHi, Unit: Percent, Step: max(step(lo, 1), step(hi, 1))})
	}
	// "(8.2)%": an accountant's negative with its sign outside the
	// parentheses, which the percentage reader below does not see.
	if strings.Contains(low, ")%") || strings.Contains(low, ") %") {
		for _, loc := range parenPercentRe().FindAllStringSubmatchIndex(low, -1) {
			num := low[loc[2]:loc[3]]
			add(loc[0], loc[1], Mention{Value: -mustFloat(num), Unit: Percent, Step: step(num, 1)})
		}
	}
	for _, loc := range percentRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(strings.ReplaceAll(low[loc[2]:loc[3]], "−", "-"), ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		unit := low[loc[4]:loc[5]]
		start, end := loc[0], loc[1]
		// A minus sign reads as a space in low (hyphens do): "of -2.0
		// pts" is a fall, read from the sentence as written.
		if start > 0 && sentence[start-1] == '-' && (start == 1 || !isWordByte(low[start-2])) && v > 0 {
			v, start = -v, start-1
		}
		// "(12%)" after a linking word is an accountant's negative.
		if v > 0 && start > 0 && low[start-1] == '(' && end < len(low) && low[end] == ')' && accountingNegative(low, start-1) {
			v, start, end = -v, start-1, end+1
		}
		m := Mention{Value: v, Unit: Percent, Step: step(num, 1)}
		if strings.Contains(unit, "point") || strings.HasPrefix(unit, "pp") || strings.HasPrefix(unit, "pt") || strings.HasPrefix(unit, "b") {
			m.Points = true
			if strings.HasPrefix(unit, "b") {
				// Basis points: a hundredth of a percentage point.
				m.Value, m.Step = v/100, bpsStep(v, m.Step)/100
			}
		}
		add(start, end, m)
	}
	for _, loc := range moneyRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(low[loc[4]:loc[5]], ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		scale := 1.0
		if loc[8] >= 0 {
			scale = scaleOf(low[loc[8]:loc[9]])
		}
		start, end := loc[0], loc[1]
		if loc[6] >= 0 && !strings.HasSuffix(sentence[loc[0]:loc[4]], "(") && loc[8] < 0 {
			// A closing parenthesis not opened after the dollar sign is
			// the text's ("($0.62)", "(up from $6.08)"): not the figure's,
			// and an accountant's negative opened before the sign.
			end = loc[6]
		}
		m := Mention{Value: v * scale, Unit: USD, Step: step(num, scale), dollar: true, usd: strings.Contains(low[loc[0]:loc[4]], "us")}
		// The sign as written: low has turned hyphens into spaces.
		switch sign := sentence[loc[0]:loc[4]]; {
		case strings.HasSuffix(sign, "(") && loc[6] >= 0:
			m.Neg = true // "$(0.52)", "$(1.2) billion"
		case strings.ContainsAny(sign, "-−"):
			m.Neg = true // "$-1.2B", "$ −0.52"
		case negativeBefore(sentence, start):
			m.Neg = true // "-$1.2B"
			start -= len(sentence[:start]) - len(strings.TrimRight(sentence[:start], "-−–"))
		case start > 0 && low[start-1] == '(' && end < len(low) && low[end] == ')' && accountingNegative(low, start-1):
			m.Neg = true // "($1.2B)"
			start, end = start-1, end+1
		}
		switch {
		case perShare(low[loc[1]:min(len(low), loc[1]+16)]):
			m.Unit = USDPerShare
		case scale == 1 && v == 0:
			m.zero = true
		case scale == 1 && v < 1000:
			m.Unit = USDPerShare
		}
		add(start, end, m)
	}
	// "27 cents a share", "a loss of 27 cents per share": a per-share
	// amount in cents, unread until now.
	if strings.Contains(low, "cent") || strings.Contains(low, "¢") {
		for _, loc := range centsRe().FindAllStringSubmatchIndex(low, -1) {
			num := low[loc[2]:loc[3]]
			m := Mention{Value: mustFloat(num) / 100, Unit: USDPerShare, Step: step(num, 0.01)}
			start := loc[0]
			if negativeBefore(sentence, start) {
				m.Neg = true
				start -= len(sentence[:start]) - len(strings.TrimRight(sentence[:start], "-−–"))
			}
			add(start, loc[1], m)
		}
	}
	for _, loc := range scaledRe().FindAllStringSubmatchIndex(low, -1) {
		num := strings.ReplaceAll(low[loc[4]:loc[5]], ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		scale := scaleOf(low[loc[8]:loc[9]])
		m := Mention{Value: v * scale, Unit: USD, Step: step(num, scale), bare: true}
		// "27.6 billion dollars", "27.6 billion USD": dollars, stated.
		if d := dollarsAfterRe().FindString(low[loc[1]:min(len(low), loc[1]+16)]); d != "" {
			m.dollar, m.usd = true, strings.Contains(d, "us") || strings.Contains(d, "u.s.")
		}
		if open, closed := loc[2] >= 0, loc[6] >= 0; open != closed || open && !accountingNegative(low, loc[2]) {
			// Half a pair, or an aside ("revenue (130.5 billion)"): the
			// number alone, as before.
			loc = []int{loc[4], loc[1], -1, -1, loc[4], loc[5], -1, -1, loc[8], loc[9]}
			if closed {
				continue // "(fiscal 2025: 0.87) billion" is no amount read here
			}
		} else if open {
			m.Neg = true // "was (0.87) billion", "came in at (120) million"
		}
		if strings.HasPrefix(strings.TrimSpace(low[loc[1]:min(len(low), loc[1]+20)]), "shares") || strings.HasPrefix(strings.TrimSpace(low[loc[1]:min(len(low), loc[1]+20)]), "diluted shares") {
			m.Unit = SharesUnit
		}
		start := loc[0]
		if m.Unit == USD && negativeBefore(sentence, start) {
			m.Neg = true
			start -= len(sentence[:start]) - len(strings.TrimRight(sentence[:start], "-−–"))
		}
		add(start, loc[1], m)
	}
	for _, loc := range multRe().FindAllStringSubmatchIndex(low, -1) {
		v, err := strconv.ParseFloat(low[loc[2]:loc[3]], 64)
		if err != nil {
			continue
		}
		if growthVerbRe().MatchString(low[max(0, loc[0]-24):loc[0]]) && v > 1 {
			// "revenue grew 2.1x": a ratio of the year's figure to the
			// year before's, a growth of 110%.
			add(loc[0], loc[3]+1, Mention{Value: 100 * (v - 1), Unit: Percent, Step: 100 * step(low[loc[2]:loc[3]], 1), Dir: 1})
			continue
		}
		add(loc[0], loc[3]+1, Mention{Value: v, Unit: Multiple, Step: step(low[loc[2]:loc[3]], 1)})
	}
	for _, re := range []*regexp.Regexp{multNameRe(), timesRe()} {
		for _, loc := range re.FindAllStringSubmatchIndex(low, -1) {
			s, e := loc[2], loc[3]
			if next := low[e:min(len(low), e+2)]; strings.HasPrefix(next, "%") || strings.HasPrefix(next, "/") || strings.HasPrefix(next, ".") && len(next) > 1 && next[1] >= '0' && next[1] <= '9' {
				continue
			}
			if re == timesRe() {
				e = loc[1]
			}
			add(s, e, Mention{Value: mustFloat(low[loc[2]:loc[3]]), Unit: Multiple, Step: step(low[loc[2]:loc[3]], 1), Market: true})
		}
	}
	// "a current ratio of 1.2 times": a multiple without its "x".
	for _, loc := range timesGenRe().FindAllStringSubmatchIndex(low, -1) {
		if l := timesPeriodRe().FindStringIndex(low[loc[0]:]); l != nil && l[0] == 0 {
			continue // "3.7 times its 2021 level": a multiple of another year's figure, read with the words
		}
		v := mustFloat(low[loc[2]:loc[3]])
		if growthVerbRe().MatchString(low[max(0, loc[0]-24):loc[0]]) && v > 1 {
			// "R&D grew 1.6 times": a growth, as "grew 1.6x" is; read as a
			// ratio the check does not hold, it was never checked.
			add(loc[0], loc[1], Mention{Value: 100 * (v - 1), Unit: Percent, Step: 100 * step(low[loc[2]:loc[3]], 1), Dir: 1})
			continue
		}
		add(loc[0], loc[1], Mention{Value: v, Unit: Multiple, Step: step(low[loc[2]:loc[3]], 1)})
	}
	findWordNumbers(low, metrics, add)
	findFractionsOf(sentence, low, t, add)
	findReturnsToProfit(sentence, low, metrics, t, add)
	findDirections(sentence, low, metrics, periods, add)
	findStreaks(low, metrics, periods, t, add)
	findSignStreaks(sentence, low, t, add)
	findPresenceStreaks(low, t, add)
	findStreakNouns(low, metrics, t, add)
	findRecords(sentence, low, metrics, periods, add)
	findBareRatios(low, metrics, add)
	findBarePercents(sentence, low, metrics, add)
	findScores(low, metrics, add)
	sort.SliceStable(mentions, func(i, j int) bool { return mentions[i].Start < mentions[j].Start })
	pairLists(sentence, low, mentions, metrics, periods)
	levelsFrom(low, mentions)
	comparedLevels(low, mentions)
	moveBases(low, mentions)
	shareBases(low, mentions)
	perShareChanges(low, mentions)
	fromToRange(low, mentions, periods)
	movesFromTo(low, mentions)
	inheritMetric(low, mentions)
	fromToOneLine(low, mentions)
	grewToLevel(low, mentions)
	growthBetweenYears(mentions)
	appositeAmounts(low, mentions)
	parentheticalChanges(low, mentions)
	lastYearAlone(low, mentions, periods, t)
	lastYearThenYearBefore(low, mentions, periods, t)
	chainedCountBack(low, mentions, periods)
	yearsAgoAlone(low, mentions, periods, t)
	growthOfQuarter(low, mentions, periods)
	return mentions
}

// growthOfQuarter gives a growth rate that follows a quarter's amount of
// its line, with no period stated between them ("October-quarter 2025
// revenue of $57.0 billion rose 62% year over year"), that quarter: it
// took the year the quarter was joined to, and a right quarter's growth
// was corrected as the year's.
func growthOfQuarter(low string, mentions []Mention, periods []span) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if prev.Period.Q <= 0 || prev.Period.TTM || m.Period.Q > 0 || m.Period.TTM || m.Metric != Growth(prev.Metric) || prev.End > m.Start ||
			len(m.Over) > 0 || m.Sequential || strings.ContainsAny(low[prev.End:m.Start], ";.") {
			continue
		}
		stated := false
		for _, sp := range periods {
			stated = stated || sp.start >= prev.Start && sp.start < m.End
		}
		if !stated {
			m.Period, m.Explicit = prev.Period, prev.Explicit
		}
	}
}

// lastYearAlone reads "last year" standing alone as the period of a
// sentence's only figure of its line ("Alphabet's revenue last year was
// $402.8 billion") as the latest fiscal year, the last one completed: read
// as the year before it, as "last year" is beside a figure of the latest
// ("EPS of $10.81 vs. $8.04 last year"), a right figure was corrected.
func lastYearAlone(low string, mentions []Mention, periods []span, t *Table) {
	if t == nil || strings.Count(low, "last year") != 1 || len(lastYrRe().FindAllStringIndex(low, -1)) != 1 {
		return
	}
	for _, sp := range periods {
		if !sp.relative || !strings.HasPrefix(low[sp.start:], "last year") {
			return // a year stated, or another relative one: "last year" counts back from it
		}
	}
	for i := range mentions {
		m := &mentions[i]
		if !m.Relative || m.Period != (Period{FY: t.LatestFY - 1}) {
			continue
		}
		alone := true
		for j := range mentions {
			alone = alone && (j == i || mentions[j].Metric != m.Metric)
		}
		if alone {
			m.Period.FY = t.LatestFY
		}
	}
}

// countBackRe is a year counted back from the one the sentence stated
// before it: "the year before", "a year earlier", "the prior year".
var countBackRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:the\s+)?(?:year\s+before|a\s+year\s+earlier|prior\s+(?:fiscal\s+)?year|previous\s+(?:fiscal\s+)?year)$`)
})

// lastYearThenYearBefore reads "last year" that opens a sentence's
// periods, followed only by years counted back from it ("Last year's EPS
// of $10.81 was up 34% from $8.04 the year before"), as the latest fiscal
// year, as lastYearAlone reads it alone: nothing stated before it counts
// back. The figure nearest each year counted back keeps the year before
// the latest; the others take the latest. Read as the year before the latest, like
// the phrase after it, the right figure of the latest was corrected.
func lastYearThenYearBefore(low string, mentions []Mention, periods []span, t *Table) {
	if t == nil || len(periods) < 2 || strings.Count(low, "last year") != 1 {
		return
	}
	first := -1
	for i, sp := range periods {
		if !sp.relative {
			return
		}
		phrase := low[sp.start:sp.end]
		switch {
		case strings.HasPrefix(phrase, "last year"):
			first = i
		case first < 0 || !countBackRe().MatchString(phrase):
			return // a year counted back before "last year" is stated
		}
	}
	if first < 0 {
		return
	}
	for _, m := range mentions {
		if !m.Relative && m.Start < periods[first].start {
			return // "EPS was $10.81, compared with $8.04 last year": it counts back from that figure's year
		}
	}
	// Each year counted back is its nearest figure's ("from $60.9 billion
	// the year before"); every other figure of the year before the latest
	// is "last year"'s, however far from it ("Last year NVIDIA's free cash
	// flow was $96.7 billion, up from ...": the figure stands nearer the
	// year counted back than "last year").
	counted := map[int]bool{}
	for k, sp := range periods {
		if k == first {
			continue
		}
		best, bd := -1, 1<<30
		for i, m := range mentions {
			if d := dist(span{start: m.Start, end: m.End}, sp); m.Relative && d < bd {
				best, bd = i, d
			}
		}
		counted[best] = true
	}
	for i := range mentions {
		m := &mentions[i]
		if !m.Relative || m.Period != (Period{FY: t.LatestFY - 1}) || counted[i] {
			continue
		}
		m.Period.FY = t.LatestFY
	}
}

// nearestPeriod is the index of the period span nearest the figure m.
func nearestPeriod(m Mention, periods []span) int {
	at := span{start: m.Start, end: m.End}
	nearest, best := -1, 1<<30
	for k, sp := range periods {
		if d := dist(at, sp); d < best {
			nearest, best = k, d
		}
	}
	return nearest
}

// chainedCountBack reads a year counted back ("the year before") right
// after another relative year as counted back from that one: "EPS was
// $10.81, compared with $8.04 last year and $5.80 the year before" puts
// $5.80 two years before the latest. Each relative year was counted from
// the latest alone, and the right figure of the year before last was
// corrected.
func chainedCountBack(low string, mentions []Mention, periods []span) {
	for k := 1; k < len(periods); k++ {
		sp, prev := periods[k], periods[k-1]
		if !sp.relative || !prev.relative || !countBackRe().MatchString(low[sp.start:sp.end]) {
			continue
		}
		var base *Period
		for _, m := range mentions {
			if m.Relative && nearestPeriod(m, periods) == k-1 {
				p := m.Period
				base = &p
				break
			}
		}
		if base == nil || base.TTM || base.Q < 0 {
			continue
		}
		for i := range mentions {
			if m := &mentions[i]; m.Relative && nearestPeriod(*m, periods) == k {
				m.Period = Period{FY: base.FY - 1, Q: base.Q}
			}
		}
	}
}

// yearsAgoAlone reads a year counted back from now ("two years ago", "a
// year ago"), the only period of a sentence and of its line's only figure,
// as counted from the year after the latest fiscal year, the one the
// latest filing is filed in, as lastYearAlone reads "last year" ("two
// years ago" is the year before the latest), or from the latest year
// itself: a figure right of either is not wrong. Counted from the latest
// year alone, a right figure of the first reading was corrected.
func yearsAgoAlone(low string, mentions []Mention, periods []span, t *Table) {
	if t == nil || len(periods) != 1 || !periods[0].relative || !strings.HasSuffix(low[periods[0].start:periods[0].end], " ago") {
		return
	}
	back := max(1, periods[0].back)
	for i := range mentions {
		m := &mentions[i]
		if !m.Relative || m.Period != (Period{FY: t.LatestFY - back}) {
			continue
		}
		alone := true
		for j := range mentions {
			alone = alone && (j == i || mentions[j].Metric != m.Metric)
		}
		if alone {
			m.alt = m.Period
			m.Period.FY++
		}
	}
}

// parentheticalChangeRe is what sets a change in parentheses right after
// an amount: "$416.2B (+6%", "$7.46 (up 23%".
var parentheticalChangeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\(\s*(?:up\s+|down\s+)?$`)
})

// parentheticalChanges gives a change in parentheses right after an
// amount ("revenue $416.2B (+6%), diluted EPS $7.46 (+23%)", as notes
// and tables of figures write them) the growth of that amount's line in
// its period: read by the nearest name, the revenue's growth was taken
// for the EPS's named after it, and a right figure was corrected.
func parentheticalChanges(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if m.Unit != Percent || prev.End > m.Start || !parentheticalChangeRe().MatchString(low[prev.End:m.Start]) {
			continue
		}
		if u := UnitOf(prev.Metric); u != USD && u != USDPerShare || alternate[prev.Metric] || prev.Segment || prev.NonGAAP || prev.Change {
			continue
		}
		// Only a change: "(46.9% gross margin)" names its own line.
		if _, growth := m.Metric.Base(); m.Metric != "" && !growth {
			continue
		}
		m.Metric, m.Period, m.Explicit = Growth(prev.Metric), prev.Period, prev.Explicit
	}
}

// appositeRe is the whole of a share and the comma, parenthesis or dash
// that sets an amount beside it: "a quarter of revenue, $109.2 billion,".
var appositeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*of\s+[^,;:()$%]{1,48}?(?:,|\(|—|–| or)\s*(?:about\s+|roughly\s+|some\s+|nearly\s+|or\s+)?$`)
})

// appositeAmounts gives an amount set beside a share ("About a quarter of
// revenue, $109.2 billion, came from Services", "capex was 23% of
// revenue ($91.4 billion)") the part the share is of, not the whole named
// nearer it: a part's amount, held to the whole, was corrected.
func appositeAmounts(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if prev.Unit != Percent || m.Unit != USD || prev.End > m.Start || !appositeRe().MatchString(low[prev.End:m.Start]) {
			continue
		}
		part, _, share := prev.Metric.shareParts()
		switch {
		case share:
			m.Metric = part
		case lineOf(prev.Metric) != "":
			m.Metric = lineOf(prev.Metric)
		case prev.Share || prev.Segment:
			m.Segment = true
		}
	}
}

// lineOf is the line a margin is the share of revenue of: operating
// income for the operating margin.
func lineOf(margin Metric) Metric {
	for line, m := range marginOf {
		if m == margin {
			return line
		}
	}
	return ""
}

// fromToRange gives "from <A> to <B>" the ends of a range of years the
// sentence states ("Over FY2022-FY2024 revenue grew from $55.0 billion to
// $66.0 billion"): A is the first year's, B the last's.
func fromToRange(low string, mentions []Mention, periods []span) {
	var years []span
	for _, sp := range periods {
		if !sp.relative && !sp.period.TTM && sp.period.Q == 0 {
			years = append(years, sp)
		}
	}
	var first, last span
	found := false
	for i := 0; i+1 < len(years) && !found; i++ {
		a, b := years[i], years[i+1]
		if a.end > b.start || a.period.FY >= b.period.FY {
			continue
		}
		switch strings.TrimSpace(low[a.end:b.start]) {
		case "", "–", "—", "to", "through", "thru", "and":
			first, last, found = a, b, true
		}
	}
	if !found {
		// "Since FY2023, diluted EPS has risen from $0.17 to $4.90": the
		// figure changed from is the year since's, the other the latest
		// (or the one stated next to it); read alone, the first was held
		// to the year before the latest and a right one corrected.
		for _, sp := range years {
			if strings.HasSuffix(strings.TrimSpace(low[max(0, sp.start-8):sp.start]), "since") {
				first, found = sp, true
				break
			}
		}
		if !found {
			return
		}
		for k := 0; k+1 < len(mentions); k++ {
			a, b := &mentions[k], &mentions[k+1]
			if a.End > b.Start || strings.TrimSpace(low[a.End:b.Start]) != "to" || !strings.HasSuffix(strings.TrimSpace(low[max(0, a.Start-12):a.Start]), "from") {
				continue
			}
			p := first.period
			if first.metric == "calendar" {
				p.Q = -1
			}
			a.Period, a.Explicit, a.Relative = p, true, false
		}
		return
	}
	for k := 0; k+1 < len(mentions); k++ {
		a, b := &mentions[k], &mentions[k+1]
		if a.End > b.Start || strings.TrimSpace(low[a.End:b.Start]) != "to" || !strings.HasSuffix(strings.TrimSpace(low[max(0, a.Start-12):a.Start]), "from") {
			continue
		}
		for _, x := range []struct {
			m  *Mention
			sp span
		}{{a, first}, {b, last}} {
			p := x.sp.period
			if x.sp.metric == "calendar" {
				p.Q = -1
			}
			x.m.Period, x.m.Explicit, x.m.Relative = p, true, false
		}
	}
}

// inheritMetric gives a figure no metric could be read for the metric of
// the figure before it, when both are in one unit and nothing names
// another measure between them: "Revenue of $215.9B in fiscal 2026
// compares with $130.5B in fiscal 2025 and $60.9B in fiscal 2024".
func inheritMetric(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if m.Metric != "" || m.Other != "" || m.Market || m.Share || m.Hypothetical || m.Currency != prev.Currency ||
			prev.Metric == "" || prev.Unit != m.Unit || prev.End > m.Start || prev.Points != m.Points {
			continue
		}
		between := low[prev.End:m.Start]
		if len(between) > 60 || strings.ContainsAny(between, ";:") || len(findMetrics(between)) > 0 {
			continue
		}
		m.Metric, m.Segment, m.NonGAAP = prev.Metric, prev.Segment, prev.NonGAAP
		if prev.fromLoss {
			m.Neg, m.fromLoss = true, true
		}
	}
}

// growthBetweenYears lets a growth rate that took one of two consecutive
// years its sentence states its line's amount in be the other's too: "net
// income ($112.0 billion) exceeded its fiscal 2024 figure ($93.7 billion)
// by 19.5%" is fiscal 2025's growth, though fiscal 2024 is named nearer;
// "in fiscal 2024 net income was $93.7 billion, down 3.4%, and in fiscal
// 2025 ..." is fiscal 2024's, though fiscal 2025 is nearer. Held to the
// nearer year alone, each was corrected.
func growthBetweenYears(mentions []Mention) {
	for i := range mentions {
		m := &mentions[i]
		base, growth := m.Metric.Base()
		if !growth || !m.Explicit || m.Relative || m.Period.TTM || m.Period.Q < -1 || m.alt != (Period{}) {
			continue
		}
		for _, o := range mentions {
			if d := o.Period.FY - m.Period.FY; o.Metric == base && o.Explicit && !o.Relative && !o.Period.TTM && (d == 1 || d == -1) && o.Period.Q == m.Period.Q {
				m.alt = o.Period
				break
			}
		}
	}
}

// grewToGapRe is what stands between a growth rate and the level its line
// grew to: " to ", " last year to ", " in fiscal 2025 to about ".
var grewToGapRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:last\s+year|this\s+year|(?:in|during|for)\s+[a-z0-9' ]{1,24}?)\s*,?\s*)?to\s+(?:about\s+|roughly\s+|nearly\s+|around\s+|some\s+|almost\s+|over\s+)?$`)
})

// grewToLevel gives the amount a line grew to ("revenue grew 6% last year
// to $416 billion, with net income up 19% to $112 billion") the line whose
// growth is stated before it: by the nearest name, the first amount took
// the net income named after it, and a right revenue was corrected.
func grewToLevel(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		base, growth := prev.Metric.Base()
		if !growth || m.Metric == base || prev.End > m.Start || m.Market || prev.Points || UnitOf(base) != m.Unit {
			continue
		}
		if between := low[prev.End:m.Start]; !grewToGapRe().MatchString(between) || len(findMetrics(between)) > 0 {
			continue
		}
		m.Metric, m.Segment, m.NonGAAP = base, prev.Segment, prev.NonGAAP
	}
}

// fromToGapRe is what stands between the amount a line moved from and the
// one it moved to: " in 2024 to ", " to about ".
var fromToGapRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*,?\s*(?:(?:in|during|for|at\s+the\s+end\s+of)\s+[a-z0-9' ]{1,24}?\s*,?\s*)?to\s+(?:about\s+|roughly\s+|nearly\s+|around\s+|some\s+|almost\s+|over\s+)?$`)
})

// fromToOneLine gives the amount a line moved to the line of the amount
// it moved from: "capex rose from $52.5 billion in 2024 to $91.4 billion
// in 2025, cutting free cash flow growth" states capex twice. Read by the
// nearest name, the second took the line named after it, and a right
// figure was corrected as another line's.
func fromToOneLine(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if prev.Metric == "" || m.Metric == prev.Metric || prev.Unit != m.Unit || prev.End > m.Start || m.Market || prev.Market ||
			m.Currency != prev.Currency || !strings.HasSuffix(strings.TrimSpace(low[max(0, prev.Start-12):prev.Start]), "from") {
			continue
		}
		if between := low[prev.End:m.Start]; !fromToGapRe().MatchString(between) || len(findMetrics(between)) > 0 {
			continue
		}
		m.Metric, m.Segment, m.NonGAAP = prev.Metric, prev.Segment, prev.NonGAAP
	}
}

// shareBases gives the figure a share or a margin moved from ("R&D rose
// to 8.3% of sales in fiscal 2025 from 8.0%") that share's metric: read
// alone, it took the growth of the whole the share is of ("sales"), and a
// right base was corrected as another metric's.
func shareBases(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if prev.Unit != Percent || m.Unit != Percent || prev.Points || m.Points || m.Hypothetical || m.Market || prev.End > m.Start {
			continue
		}
		if _, growth := prev.Metric.Base(); growth || prev.Metric == "" || UnitOf(prev.Metric) != Percent {
			continue
		}
		if _, growth := m.Metric.Base(); !growth && m.Metric != "" {
			continue
		}
		if between := low[prev.End:m.Start]; len(between) > 60 || strings.ContainsAny(between, ";") || !fromBefore(low, m.Start) {
			continue
		}
		m.Metric, m.Over, m.Annual, m.Sequential, m.AnnualWord, m.Share = prev.Metric, nil, false, false, false, false
	}
}

// levelFromRe is the move from one level to the next written between
// them: "$1.1 billion in Q3 2025, up from $1.4 billion a year earlier".
var levelFromRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[^;$%]{0,40}?[,(—–]\s*(up|down|higher|lower|rising|falling|increasing|decreasing|growing|declining)\s+from\s+(?:about\s+|roughly\s+|approximately\s+|~)?$`)
})

// levelsFrom reads a level moved from another level of the same line
// written after it ("net income was $1.1 billion in Q3 2025, up from $1.4
// billion a year earlier"): the first level's move from the second's
// period, which the filings settle. Both levels were verified however the
// move was stated, so "up" between a fall's two right figures passed.
func levelsFrom(low string, mentions []Mention) {
	for k := 0; k+1 < len(mentions); k++ {
		m, b := &mentions[k], mentions[k+1]
		if m.LevelMove != 0 || m.Change || m.Neg || b.Neg || m.Metric == "" || b.Metric != m.Metric || b.Unit != m.Unit ||
			!levelMetric(m.Metric) || UnitOf(m.Metric) != m.Unit || m.End > b.Start || b.Period == m.Period || b.Hi != 0 || m.Hi != 0 {
			continue
		}
		loc := levelFromRe().FindStringSubmatchIndex(low[m.End:b.Start])
		if loc == nil {
			continue
		}
		p := b.Period
		m.MoveFrom = &p
		m.LevelMove = 1
		if downRe().MatchString(low[m.End+loc[2] : m.End+loc[3]]) {
			m.LevelMove = -1
		}
	}
}

// verbFromRe is a verb of a level's move and "from" right before the
// level it moved from: "fell from", "rose sharply from".
var verbFromRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b([a-z]+)\s+(?:[a-z]+ly\s+)?from\s+(?:about\s+|roughly\s+|approximately\s+|~)?$`)
})

// movesFromTo reads a move stated from one level to another of the same
// line ("diluted EPS fell from $6.08 to $7.46 in fiscal 2025", "net
// income rose from $97.0 billion in fiscal 2023 to $93.7 billion in
// fiscal 2024"): the level moved to is held to the move from the period
// of the level moved from, which the filings settle. Each level was
// verified however the verb said they moved.
func movesFromTo(low string, mentions []Mention) {
	for k := 0; k+1 < len(mentions); k++ {
		a, b := mentions[k], &mentions[k+1]
		if b.LevelMove != 0 || a.Neg || b.Neg || a.Change || b.Change || a.Hi != 0 || b.Hi != 0 || b.Metric == "" || a.Metric != b.Metric ||
			a.Unit != b.Unit || !levelMetric(b.Metric) || UnitOf(b.Metric) != b.Unit || a.End > b.Start || a.Period == b.Period {
			continue
		}
		between := strings.TrimRight(low[a.End:b.Start], " ~")
		for _, w := range []string{"about", "roughly", "approximately"} {
			between = strings.TrimRight(strings.TrimSuffix(between, w), " ")
		}
		if !strings.HasSuffix(between, " to") || !moveGapRe().MatchString(strings.TrimSuffix(between, "to")) {
			continue
		}
		loc := verbFromRe().FindStringSubmatchIndex(low[max(0, a.Start-40):a.Start])
		if loc == nil {
			continue
		}
		w := low[max(0, a.Start-40)+loc[2] : max(0, a.Start-40)+loc[3]]
		d := sizeVerbs[w]
		if d == 0 {
			d = actVerbs[w]
		}
		if d == 0 {
			continue
		}
		p := a.Period
		b.LevelMove, b.MoveFrom = d, &p
	}
}

// comparedRe is two levels of a line compared between them: "was
// narrower than the", "higher than", "below".
var comparedLevelRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(narrower|smaller|lower|less|wider|larger|bigger|deeper|greater|higher|more)\s+than\s+(?:the\s+|its\s+|a\s+)?(?:prior\s+year's\s+|previous\s+year's\s+|year\s+earlier\s+)?(?:about\s+|roughly\s+|~)?$`)
})

// comparedLevels reads two levels of one line compared ("the net loss of
// $1.2 billion in fiscal 2025 was narrower than the $0.8 billion loss of
// fiscal 2024", "revenue of $9.8 billion was higher than the $10.5
// billion of fiscal 2024"): the first is held to the move from the
// second's period, a loss's as a loss's size. Both levels were verified
// however they were compared.
func comparedLevels(low string, mentions []Mention) {
	for k := 0; k+1 < len(mentions); k++ {
		a, b := &mentions[k], mentions[k+1]
		if a.LevelMove != 0 || a.LossMove != 0 || a.Change || b.Change || a.Metric == "" || b.Metric != a.Metric || b.Unit != a.Unit ||
			!levelMetric(a.Metric) || UnitOf(a.Metric) != a.Unit || a.End > b.Start || a.Period == b.Period || a.Hi != 0 || b.Hi != 0 || a.Neg != b.Neg {
			continue
		}
		between := low[a.End:b.Start]
		if len(between) > 80 || strings.ContainsAny(between, ";") {
			continue
		}
		loc := comparedLevelRe().FindStringSubmatchIndex(between)
		if loc == nil {
			continue
		}
		d := 1
		switch between[loc[2]:loc[3]] {
		case "narrower", "smaller", "lower", "less":
			d = -1
		}
		if a.fromLoss && b.fromLoss {
			// A loss's size: "narrower", "smaller" say it fell.
			if !slices.Contains(priorPeriods(a.Period), b.Period) {
				continue
			}
			a.LossMove = d
			continue
		}
		if a.Neg {
			continue
		}
		p := b.Period
		a.LevelMove, a.MoveFrom = d, &p
	}
}

// perShareOf is the per-share figure a line's word stands for when its
// amount is written a share ("earned $7.46 per share", "dividends of $1.02
// per share"), as attribute reads it.
var perShareOf = map[Metric]Metric{NetIncome: EPSDiluted, Dividends: DividendsPerShare}

// perShareChanges gives the change written after a per-share figure of a
// line ("earned $7.46 per share in fiscal 2025, up 23% from $6.08") the
// per-share figure's growth: the line's word before them both ("earned",
// "dividends") took the change as the total's growth, and a right EPS
// growth was corrected as net income's.
func perShareChanges(low string, mentions []Mention) {
	for k := 1; k < len(mentions); k++ {
		m, prev := &mentions[k], mentions[k-1]
		if prev.Unit != USDPerShare || m.Unit != Percent || m.Points || m.Share || m.Hypothetical || m.Market || prev.End > m.Start {
			continue
		}
		base, growth := m.Metric.Base()
		if !growth || perShareOf[base] == "" || perShareOf[base] != prev.Metric {
			continue
		}
		if between := low[prev.End:m.Start]; len(between) > 60 || strings.ContainsAny(between, ";:") || len(findMetrics(between)) > 0 {
			continue
		}
		m.Metric = Growth(prev.Metric)
	}
}

// listGap reports whether the words between two items join them in a list:
// ",", "and", ", and", "&".
func listGap(s string) bool {
	switch strings.TrimSpace(s) {
	case ",", "and", ", and", "&", ", &", "vs", "vs.", "versus":
		return true
	}
	return false
}

// comparedRe is the words between two lines compared ("operating income
// grew faster than revenue", "net income outgrew revenue"), whose figures
// follow as a pair ("8.0% vs 6.4%").
var comparedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[a-z]+\s+){0,3}(?:than|vs\.?|versus|compared\s+with|against|outgrew|outpaced|outran|outstripped|lagged|trailed)(?:\s+(?:its|the|that\s+of))?\s*$`)
})

// pairGap is the words between two figures set against each other:
// "32% against 15%", "19.5% compared with 6.4%".
func pairGap(s string) bool {
	switch strings.TrimSpace(s) {
	case "against", "compared with", "compared to", "as against":
		return true
	}
	return false
}

// listSepRe separates the items of a list.
var listSepRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,|\band\b|&`) })

// elidedMarginsRe is a list of margins named once: "gross, operating and
// net margins".
var elidedMarginsRe = sync.OnceValue(func() *regexp.Regexp {
	const m = `(?:gross|operating|net|fcf|free cash flow)`
	return regexp.MustCompile(`\b(` + m + `(?:\s*,\s*` + m + `)*\s*,?\s*(?:and|&)\s+` + m + `)\s+(?:profit\s+)?margins?\b`)
})

// pairLists gives the figures of a list the metrics of the list that names
// them, in order: "Revenue and net income were $215.9 billion and $120.1
// billion", "gross, operating and net margins were 71.1%, 60.4% and 55.6%".
// Left to the nearest metric, every figure of such a list but the last
// was held to the wrong metric and a right list corrected.
func pairLists(sentence, low string, mentions []Mention, metrics, periods []span) {
	for i := 0; i < len(mentions); {
		j := i + 1
		for j < len(mentions) && mentions[j-1].End <= mentions[j].Start && listGap(low[mentions[j-1].End:mentions[j].Start]) {
			j++
		}
		if j == i+1 && j < len(mentions) && mentions[i].End <= mentions[j].Start && pairGap(low[mentions[i].End:mentions[j].Start]) {
			// "grew faster than revenue: 32% against 15%": two figures
			// set against each other are a pair of the two lines
			// compared before them; by nearness both were the second
			// line's. Their periods stay as read: "6.4% in fiscal 2025
			// against 2.0% in fiscal 2024" is no list of years.
			pairList(sentence, low, mentions[i:j+1], metrics)
			i = j + 1
			continue
		}
		if j-i >= 2 {
			pairList(sentence, low, mentions[i:j], metrics)
			pairPeriods(low, mentions[i:j], periods)
		}
		i = j
	}
}

// moveBases gives a level moved by a verb of size the period of the figure
// it moved from, when one of the same line with a period stated follows it
// after "from" in its clause: the move of "expanded to 32.0% in 2025 from
// 27.4% in 2023" is from 2023, and held to the year before it a right
// sentence was corrected.
func moveBases(low string, mentions []Mention) {
	for i := range mentions {
		m := &mentions[i]
		if m.LevelMove == 0 {
			continue
		}
		for _, b := range mentions[i+1:] {
			// In its clause, near it: a run-on text read to its end for
			// each moved level took time quadratic in it.
			if b.Start-m.End > 160 || strings.ContainsAny(low[m.End:b.Start], ";") {
				break
			}
			if b.Metric == m.Metric && b.Explicit && fromBefore(low, b.Start) && b.Period != m.Period {
				p := b.Period
				m.MoveFrom = &p
				break
			}
		}
	}
}

// timesSpan gives a multiple of a line's figure of another year its span:
// from the year after "times" to the period the sentence states apart from
// it (the latest year if none), each year as candidates reads it.
func timesSpan(m *Mention, periods []span, t *Table) {
	var base, own *span
	for i := range periods {
		sp := &periods[i]
		switch {
		case sp.start == m.timesBase:
			base = sp
		case sp.relative || sp.period.TTM || sp.period.Q > 0:
		case own == nil || dist(*sp, span{start: m.Start, end: m.End}) < dist(*own, span{start: m.Start, end: m.End}):
			own = sp
		}
	}
	if base == nil {
		return
	}
	years := func(sp *span) []Period {
		if sp == nil {
			return []Period{{FY: t.LatestFY}}
		}
		p := sp.period
		if sp.metric == "calendar" {
			p.Q = -1
		}
		return t.candidates(Mention{Period: p, Explicit: true})
	}
	m.Over = nil
	for _, a := range years(base) {
		for _, b := range years(own) {
			if a.FY < b.FY {
				m.Over = append(m.Over, [2]Period{a, b})
			}
		}
	}
	if len(m.Over) > 0 {
		m.Period, m.Explicit = m.Over[0][1], true
	}
}

// periodsBefore is the list of periods right before a list of figures
// ("in fiscal 2023, 2024 and 2025 was $383.3B, $391.0B and $416.2B"),
// in order; nil when the periods before are not one list, or are apart
// from the figures (another figure or a ";" between).
func periodsBefore(low string, run []Mention, periods []span) []span {
	first := run[0].Start
	var before []span
	for _, sp := range periods {
		if sp.end <= first {
			before = append(before, sp)
		}
	}
	if len(before) == 0 {
		return nil
	}
	// In the order written; periods read by different readers may overlap
	// ("2000 fiscal00"), and the words between two that do are none.
	sort.SliceStable(before, func(i, j int) bool { return before[i].start < before[j].start })
	last := before[len(before)-1]
	if gap := low[last.end:first]; len(gap) > 40 || strings.ContainsAny(gap, ";") || figureRe().MatchString(gap) {
		return nil
	}
	list := []span{last}
	for k := len(before) - 2; k >= 0 && before[k].end <= before[k+1].start && listGap(low[before[k].end:before[k+1].start]); k-- {
		list = append([]span{before[k]}, list...)
	}
	for _, sp := range list {
		if sp.relative || sp.period.TTM {
			return nil
		}
	}
	// "fiscal 2023, 2024 and 2025": the word fiscal is said once for all.
	if list[0].metric != "calendar" && list[0].period.Q == 0 {
		for k := range list {
			if list[k].metric == "calendar" {
				list[k].metric = ""
			}
		}
	}
	return list
}

// pairPeriods gives the figures of a list the periods of the list of
// periods right after it, in order: "$215.9 billion and $130.5 billion in
// fiscal 2026 and fiscal 2025"; or, with none after, of the list right
// before it: "in fiscal 2023, 2024 and 2025 was $383.3B, $391.0B and
// $416.2B" (each figure took the period nearest it, and the first two
// were corrected as the right figures of the wrong years).
func pairPeriods(low string, run []Mention, periods []span) {
	end := run[len(run)-1].End
	if next := nearestAfter(periods, end); next < 0 {
		if list := periodsBefore(low, run, periods); len(list) == len(run) {
			for k, sp := range list {
				p := sp.period
				if sp.metric == "calendar" {
					p.Q = -1
				}
				run[k].Period, run[k].Explicit, run[k].Relative = p, true, false
			}
			return
		}
	}
	var list []span
	for _, sp := range periods {
		if sp.start < end || sp.relative || sp.period.TTM {
			continue
		}
		if len(list) == 0 {
			switch strings.TrimSpace(low[end:sp.start]) {
			case "in", "for", "during", "in the", "for the", ",", ", respectively, in", "respectively in", "respectively, in":
				list = append(list, sp)
			}
			if len(list) == 0 {
				return
			}
			continue
		}
		if listGap(low[list[len(list)-1].end:sp.start]) {
			list = append(list, sp)
		}
	}
	if len(list) != len(run) {
		return
	}
	for k, sp := range list {
		p := sp.period
		if sp.metric == "calendar" {
			p.Q = -1
		}
		run[k].Period, run[k].Explicit, run[k].Relative = p, true, false
	}
}

// pairList pairs one run of listed figures with the list of metrics right
// before it, when the two are as long.
func pairList(sentence, low string, run []Mention, metrics []span) {
	first := run[0].Start
	var names []span
	for _, sp := range metrics {
		if sp.end <= first {
			names = append(names, sp)
		}
	}
	var list []span
	if len(names) > 0 {
		last := names[len(names)-1]
		gap := low[last.end:first]
		if len(gap) > 48 || strings.ContainsAny(gap, ";") || figureRe().MatchString(gap) {
			return
		}
		list = []span{last}
		for k := len(names) - 2; k >= 0 && listGap(low[names[k].end:names[k+1].start]); k-- {
			list = append([]span{names[k]}, list...)
		}
		if k := len(names) - 2; len(run) == 2 && len(list) == 1 && k >= 0 && comparedRe().MatchString(low[names[k].end:names[k+1].start]) {
			list = append([]span{names[k]}, list...)
		}
	}
	if len(list) < len(run) {
		// "gross, operating and net margins": one name for the list.
		for _, loc := range elidedMarginsRe().FindAllStringSubmatchIndex(low[:first], -1) {
			if gap := low[loc[1]:first]; len(gap) > 48 || strings.ContainsAny(gap, ";") || figureRe().MatchString(gap) {
				continue
			}
			list = nil
			for _, w := range listSepRe().Split(low[loc[2]:loc[3]], -1) {
				m := map[string]Metric{"gross": GrossMargin, "operating": OperatingMargin, "net": NetMargin, "fcf": FCFMargin,
					"free cash flow": FCFMargin}[strings.TrimSpace(w)]
				if m != "" {
					list = append(list, span{start: loc[0], end: loc[1], metric: m})
				}
			}
		}
	}
	if len(list) != len(run) {
		return
	}
	paired := make([]Metric, len(run))
	for k, sp := range list {
		m, metric := run[k], sp.metric
		switch u := UnitOf(metric); {
		case metric == otherMetric:
		case m.Unit == Percent && !m.Points && u != Percent && u != Points:
			metric = Growth(metric)
		case m.Unit == Percent && m.Points:
			if c := changeOf[metric]; c != "" {
				metric = c
			}
		case m.Unit != u:
			return // not a list of these metrics' figures
		}
		paired[k] = metric
	}
	for k, sp := range list {
		m := &run[k]
		switch {
		case paired[k] == otherMetric:
			m.Metric, m.Other = "", sentence[sp.start:sp.end]
		case m.Market || m.Share || m.Hypothetical:
		default:
			m.Metric, m.Other, m.Segment = paired[k], "", false
			if sp.loss && (m.Unit == USD || m.Unit == USDPerShare) {
				m.Neg = true
			}
		}
	}
}

// scoreFracRe is a Piotroski score written over its nine criteria ("4/9",
// "4 out of 9"); scoreNumRe the number right after an Altman score's name
// after a linking word ("Altman Z score of 53.14", "Z” score is 5.2").
var (
	scoreFracRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b([0-9])(\s*/\s*9|\s+out\s+of\s+9|\s+of\s+9)\b`)
	})
	scoreNumRe = sync.OnceValue(func() *regexp.Regexp {
		// "debt-to-equity ratio fell to 1.70": the word "ratio" after the
		// name and a verb of size before "to" too.
		return regexp.MustCompile(`^\s*(?:ratio\s+)?(?:(?:of|was|is|at|stands at|stood at|reached|(?:rose|fell|declined|dropped|increased|decreased|climbed|slipped|improved|eased|rebounded) to|to|=|:|\()\s*){0,2}(\d+(?:\.\d+)?)\b`)
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
			// "Piotroski F-score of 8", "F-score improved to 7": a count
			// of criteria with no "/9", exact. One over nine ("8/9", "8
			// out of 9") is read below.
			loc := scoreNumRe().FindStringSubmatchIndex(low[sp.end:])
			if loc == nil {
				continue
			}
			s, e := sp.end+loc[2], sp.end+loc[3]
			v := mustFloat(low[s:e])
			rest := strings.TrimSpace(low[e:])
			if v != math.Trunc(v) || v > 9 || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "%") || strings.HasPrefix(rest, "x") ||
				strings.HasPrefix(rest, "out of") || strings.HasPrefix(rest, "of 9") || strings.HasPrefix(rest, "-") {
				continue
			}
			add(s, e, Mention{Value: v, Unit: Score})
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

// changeVerbRe is a verb of change right before a figure: "rose 0.5% to
// 46.2%" is a change and a level, not a range.
var changeVerbRe = sync.OnceValue(func() *regexp.Regexp {
	// "declined by about 123 million": "by" and a word of approximation
	// together too.
	return regexp.MustCompile(`(?i)\b(rose|risen|grew|grown|fell|fallen|declined|increased|decreased|jumped|climbed|dropped|expanded|contracted|improved|slipped|widened|narrowed|deteriorated|worsened|moved|went|up|down|gained|lost)\s+(?:by\s+)?(?:about\s+|roughly\s+|nearly\s+|around\s+|approximately\s+|some\s+|almost\s+)?$`)
})

// rangeJoin reports whether the two numbers of a range match (loc, with
// between saying "between" led it and sep the word or dash between the
// numbers) are one range: "and" only after "between", and "to" not after
// "from" or a verb of change ("rose from $380B to $391B", "gross margin
// rose 0.5% to 46.2%" state two figures).
func rangeJoin(low string, loc []int, between bool, sep string) bool {
	switch strings.TrimSpace(sep) {
	case "and":
		return between
	case "to":
		pre := low[max(0, loc[0]-24):loc[0]]
		return between || !strings.Contains(pre, "from") && !changeVerbRe().MatchString(pre)
	case "":
		// A hyphen reads as a space in low.
		return true
	}
	return true
}

// rangeAmount reads the range of amounts matched at loc ("$90-95B",
// "between €27.5 billion and €27.7 billion") as one figure held to both
// ends: submatch 1 is a leading "between", g the low number, g+1 its scale
// word, g+2 the word or dash between the two, g+3 the high number and g+4
// its scale. ok is false when the two are not one range of one quantity
// ("$5 to 2025", "$1B-$2", "rose from $380B to $391B").
func rangeAmount(low string, loc []int, g int) (m Mention, ok bool) {
	group := func(i int) (string, bool) {
		if loc[2*i] < 0 {
			return "", false
		}
		return low[loc[2*i]:loc[2*i+1]], true
	}
	sep, _ := group(g + 2)
	if !rangeJoin(low, loc, loc[2] >= 0, sep) {
		return Mention{}, false
	}
	lo, _ := group(g)
	hi, _ := group(g + 3)
	lo, hi = strings.ReplaceAll(lo, ",", ""), strings.ReplaceAll(hi, ",", "")
	loScale, hasLo := group(g + 1)
	hiScale, hasHi := group(g + 4)
	sLo, sHi := 1.0, 1.0
	if hasHi {
		sHi = scaleOf(hiScale)
	}
	if hasLo {
		sLo = scaleOf(loScale)
	} else {
		sLo = sHi // "$90-95B": the scale written once, at the end
	}
	if !hasHi {
		sHi = sLo
	}
	vLo, vHi := mustFloat(lo)*sLo, mustFloat(hi)*sHi
	if vLo <= 0 || vHi <= vLo || vHi > 10*vLo {
		return Mention{}, false
	}
	m = Mention{Value: vLo, Hi: vHi, Unit: USD, Step: max(step(lo, sLo), step(hi, sHi))}
	if perShare(low[loc[1]:min(len(low), loc[1]+16)]) || (sHi == 1 && vHi < 1000) {
		m.Unit = USDPerShare
	}
	return m, true
}

// findBarePercents reads a percentage written without its sign right after
// the name of a metric stated in percent ("gross margin was 71.1 in fiscal
// 2026", "ROE of 12.2"), which no other reader takes for a figure: unread,
// a wrong margin passed unseen.
func findBarePercents(sentence, low string, metrics []span, add func(start, end int, m Mention)) {
	for _, sp := range metrics {
		if sp.metric == otherMetric || UnitOf(sp.metric) != Percent {
			continue
		}
		if _, growth := sp.metric.Base(); growth {
			continue
		}
		loc := scoreNumRe().FindStringSubmatchIndex(low[sp.end:])
		if loc == nil {
			continue
		}
		s, e := sp.end+loc[2], sp.end+loc[3]
		next := strings.TrimSpace(low[e:min(len(low), e+12)])
		if next != "" && (isWordByte(next[0]) && !strings.HasPrefix(next, "in ") && !strings.HasPrefix(next, "for ") && !strings.HasPrefix(next, "at ") &&
			!strings.HasPrefix(next, "and ") && !strings.HasPrefix(next, "on ") && !strings.HasPrefix(next, "vs") && !strings.HasPrefix(next, "versus ") ||
			strings.HasPrefix(next, "/") || strings.HasPrefix(next, "%") || strings.HasPrefix(next, "$") || strings.HasPrefix(next, "×")) ||
			yearRe().MatchString(low[s:e]) {
			continue // "margin of 40 basis points", "ROE of 12x", "margin in 2024"
		}
		v := mustFloat(low[s:e])
		if s > 0 && strings.ContainsAny(sentence[s-1:s], "-−") {
			v, s = -v, s-1
		}
		add(s, e, Mention{Value: v, Unit: Percent, Step: step(low[s:e], 1)})
	}
}

// timesGenRe is a multiple written out: "1.2 times".
var timesGenRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+(?:\.\d+)?)\s*times\b`) })

// findBareRatios reads the number right after the name of a ratio the
// analysis states as a multiple ("current ratio of 1.2", "debt to equity
// stood at 1.5"), which no other reader takes for a figure: unread, a wrong
// ratio would pass unseen.
func findBareRatios(low string, metrics []span, add func(start, end int, m Mention)) {
	for _, sp := range metrics {
		if UnitOf(sp.metric) != Multiple {
			continue
		}
		loc := scoreNumRe().FindStringSubmatchIndex(low[sp.end:])
		if loc == nil {
			continue
		}
		s, e := sp.end+loc[2], sp.end+loc[3]
		next := strings.TrimSpace(low[e:min(len(low), e+8)])
		if strings.HasPrefix(next, "%") || strings.HasPrefix(next, "/") || strings.HasPrefix(next, "x") || strings.HasPrefix(next, "×") ||
			strings.HasPrefix(next, "times") || strings.HasPrefix(next, "percent") || yearRe().MatchString(low[s:e]) {
			continue
		}
		add(s, e, Mention{Value: mustFloat(low[s:e]), Unit: Multiple, Step: step(low[s:e], 1)})
	}
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func perShare(after string) bool {
	after = strings.TrimSpace(after)
	return strings.HasPrefix(after, "per share") || strings.HasPrefix(after, "a share") || strings.HasPrefix(after, "per diluted") ||
		strings.HasPrefix(after, "/share") || strings.HasPrefix(after, "/sh") || strings.HasPrefix(after, "per class") ||
		strings.HasPrefix(after, "per basic") || strings.HasPrefix(after, "of eps") || strings.HasPrefix(after, "eps")
}

func scaleOf(s string) float64 {
	switch strings.ToLower(s) {
	case "trillion", "tn", "trn", "t":
		return 1e12
	case "billion", "bn", "bln", "bil", "b":
		return 1e9
	case "million", "mm", "mln", "mn", "mil", "m":
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
			out = append(out, span{start: s, end: e, metric: p.metric, loss: p.loss})
		}
	}
	for _, p := range otherPhrases {
		for off := 0; ; {
			i := strings.Index(low[off:], p)
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(p)
			off = s + 1
			if s > 0 && isWordByte(low[s-1]) || e < len(low) && isWordByte(low[e]) {
				continue
			}
			out = append(out, span{start: s, end: e, metric: otherMetric, name: p})
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

// shorthandRe is a line's capitalised initials right before a figure of
// its unit, as compact notes write them: "GM 71.1%", "OM: 60%", "NI
// $132.2B".
var shorthandRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:(GM|OM)\s*[:=]?\s*(?:of\s+)?[-+~]?\d[\d.]*\s?%|(NI)\s*[:=]?\s*(?:of\s+)?[-+~]?\$\s?\d)`)
})

// shorthandMetrics adds to metrics, spans of findMetrics, the lines named
// by their initials right before a figure. Read anywhere, the initials are
// ambiguous (GM is also a company); right before a figure they are the
// line, which was otherwise unread and its figure, right or wrong,
// unverified.
func shorthandMetrics(sentence string, metrics []span) []span {
	if !strings.ContainsAny(sentence, "GON") {
		return metrics
	}
	for _, loc := range shorthandRe().FindAllStringSubmatchIndex(sentence, -1) {
		at := loc[2:4]
		if at[0] < 0 {
			at = loc[4:6]
		}
		m := map[string]Metric{"GM": GrossMargin, "OM": OperatingMargin, "NI": NetIncome}[sentence[at[0]:at[1]]]
		sp := span{start: at[0], end: at[1], metric: m}
		i := 0
		for i < len(metrics) && metrics[i].start < sp.start {
			i++
		}
		if i > 0 && metrics[i-1].end > sp.start || i < len(metrics) && metrics[i].start < sp.end {
			continue
		}
		metrics = slices.Insert(metrics, i, sp)
	}
	return metrics
}

func findPeriods(low string, t *Table) []span {
	var out []span
	var quarters []span
	years := map[int]bool{}
	claim := func(start, end int) {
		for i := start; i < end; i++ {
			years[i] = true
		}
	}
	// A quarter written with its year in one token: "3Q26", "1Q 2025",
	// "Q3'25", "Q3-25" (a hyphen reads as a space in low). Unread, "3Q26
	// revenue" took the latest fiscal year and a right quarterly figure
	// was corrected as another period's.
	var qy [][]int
	if strings.Contains(low, "q") {
		qy = quarterYearRe().FindAllStringSubmatchIndex(low, -1)
	}
	for _, loc := range qy {
		if next := low[loc[1]:min(len(low), loc[1]+2)]; strings.HasPrefix(next, "%") || strings.HasPrefix(next, ".") && len(next) > 1 && next[1] >= '0' && next[1] <= '9' {
			continue
		}
		var q, y int
		for g := 2; g+3 < len(loc); g += 4 {
			if loc[g] >= 0 {
				q, _ = strconv.Atoi(low[loc[g]:loc[g+1]])
				y, _ = strconv.Atoi(low[loc[g+2]:loc[g+3]])
			}
		}
		if y < 100 {
			y += 2000
		}
		sp := span{start: loc[0], end: loc[1], period: Period{FY: y, Q: q}}
		if !fiscalQuarter(low, sp) {
			// The year in the token is bare, as in "Q4 2023".
			sp.period, sp.alt = t.quarterOfBareYear(sp.period, span{period: Period{FY: y}, metric: "calendar"})
		}
		out = append(out, sp)
		claim(loc[0], loc[1])
	}
	for _, loc := range quarterRe().FindAllStringSubmatchIndex(low, -1) {
		if years[loc[0]] {
			continue
		}
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
	for _, loc := range monthQuarterRe().FindAllStringSubmatchIndex(low, -1) {
		month, year, fiscal := "", 0, false
		switch {
		case loc[2] >= 0:
			month = low[loc[2]:loc[3]]
			if loc[4] >= 0 {
				year, _ = strconv.Atoi(low[loc[4]:loc[5]])
			} else if loc[8] >= 0 {
				year, _ = strconv.Atoi(low[loc[8]:loc[9]])
				fiscal = loc[6] >= 0 && strings.HasPrefix(low[loc[6]:loc[7]], "fiscal")
			}
		default:
			month = low[loc[10]:loc[11]]
			year, _ = strconv.Atoi(low[loc[12]:loc[13]])
		}
		p, ok := t.monthQuarter(monthNumber(month), year, fiscal)
		if !ok {
			p = Period{Q: -3}
		}
		sp := span{start: loc[0], end: loc[1], period: p, asOf: strings.HasPrefix(low[loc[0]:], "as of")}
		if year == 0 {
			sp.bare, sp.month = true, monthNumber(month)
		}
		out = append(out, sp)
		claim(loc[0], loc[1])
	}
	for _, loc := range calendarRe().FindAllStringSubmatchIndex(low, -1) {
		if years[loc[0]] {
			continue
		}
		g := 2
		if loc[2] < 0 {
			g = 4 // "the 2024 calendar year"
		}
		y, _ := strconv.Atoi(low[loc[g]:loc[g+1]])
		if y < 100 {
			y += 2000
		}
		out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: y, Q: -2}})
		claim(loc[0], loc[1])
	}
	for _, loc := range quarterRe().FindAllStringIndex(low, -1) {
		if !years[loc[0]] {
			claim(loc[0], loc[1])
		}
	}
	// "the fiscal year ended September 28, 2024" is the fiscal year that
	// ended then; "the twelve months ended December 27, 2025", ending with
	// the latest quarter, the trailing twelve months. Any other end is a
	// twelve months the table does not hold.
	var ended [][]int
	if strings.Contains(low, "end") {
		ended = yearEndedRe().FindAllStringSubmatchIndex(low, -1)
	}
	for _, loc := range ended {
		if years[loc[0]] {
			continue
		}
		y, _ := strconv.Atoi(low[loc[6]:loc[7]])
		p := Period{Q: -3}
		if q, ok := t.monthQuarter(monthNumber(low[loc[4]:loc[5]]), y, false); ok {
			latest, okLatest := t.latestQuarter()
			switch {
			case q.Q == 4:
				p = Period{FY: q.FY}
			case loc[2] >= 0 && okLatest && q == latest:
				p = Period{FY: t.LatestFY, TTM: true}
			}
		}
		out = append(out, span{start: loc[0], end: loc[1], period: p})
		claim(loc[0], loc[1])
	}
	// "the nine months ended September 30, 2025": a year to date the
	// table does not hold, whose year is not a fiscal year's.
	for _, loc := range findAllIf(low, "months", monthsEndedRe()) {
		if !years[loc[0]] {
			out = append(out, span{start: loc[0], end: loc[1], period: Period{Q: -3}})
			claim(loc[0], loc[1])
		}
	}
	// "last quarter", "the most recent quarter": the latest quarter the
	// filings report.
	for _, loc := range findAllIf(low, "quarter", latestQuarterRe()) {
		if p, ok := t.latestQuarter(); ok && !years[loc[0]] {
			out = append(out, span{start: loc[0], end: loc[1], period: p})
			claim(loc[0], loc[1])
		}
	}
	// "the prior quarter": the quarter before the one the sentence states
	// (resolved in attribute), else before the latest.
	for _, loc := range findAllIf(low, "quarter", priorQuarterSpanRe()) {
		p, ok := t.latestQuarter()
		if !ok || years[loc[0]] {
			continue
		}
		out = append(out, span{start: loc[0], end: loc[1], period: previousQuarter(p), relative: true, metric: "prior quarter"})
		claim(loc[0], loc[1])
	}
	// Unplaced spans take a year written next to them, as quarters do.
	for _, loc := range unplacedRe().FindAllStringIndex(low, -1) {
		if years[loc[0]] || years[loc[1]-1] {
			continue
		}
		if loc[0] > 0 && (low[loc[0]-1] == '.' || low[loc[0]-1] == ',' || low[loc[0]-1] >= '0' && low[loc[0]-1] <= '9') {
			continue // "$1.9m": a figure, not nine months
		}
		if fractionOfLine(low, loc[0], loc[1]) {
			continue // "a quarter of revenue": a share, not a period
		}
		quarters = append(quarters, span{start: loc[0], end: loc[1], period: Period{Q: -3}})
	}
	for _, loc := range fyRe().FindAllStringSubmatchIndex(low, -1) {
		if years[loc[0]] {
			continue
		}
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
	// "this year", "the current fiscal year": the latest fiscal year, or,
	// when the latest filing is a 10-Q of the next one, that year so far
	// (its first quarter, when that is all it has reported; else a year to
	// date the table does not hold). Read as the latest year alone, a right
	// figure of the year in progress was corrected.
	if strings.Contains(low, "year") {
		for _, loc := range thisYearRe().FindAllStringIndex(low, -1) {
			if years[loc[0]] {
				continue
			}
			sp := span{start: loc[0], end: loc[1], period: Period{FY: t.LatestFY}}
			if q, ok := t.latestQuarter(); ok && q.FY > t.LatestFY {
				sp.alt = Period{FY: q.FY, Q: 1}
				if q.Q > 1 {
					sp.alt = Period{Q: -3}
				}
			}
			out = append(out, sp)
			claim(loc[0], loc[1])
		}
	}
	// "two years earlier": unread, the figure took the year the sentence
	// stated and a right figure of two years before was corrected.
	if strings.Contains(low, "years") {
		for _, loc := range yearsBackRe().FindAllStringSubmatchIndex(low, -1) {
			n := map[string]int{"two": 2, "three": 3, "four": 4}[low[loc[2]:loc[3]]]
			if n == 0 {
				n = int(mustFloat(low[loc[2]:loc[3]]))
			}
			out = append(out, span{start: loc[0], end: loc[1], period: Period{FY: t.LatestFY - n}, relative: true, back: n})
		}
	}
	// A quarter takes the year written next to it ("Q3 FY2026", "third
	// quarter of fiscal 2026", "Fourth-quarter 2025"), else the latest
	// fiscal year; that year is then part of the quarter, not a period of
	// its own.
	absorbed := map[int]bool{}
	for _, q := range quarters {
		fy, best, at := t.LatestFY, 1<<30, -1
		for i, y := range out {
			if y.period.TTM || y.relative || y.period.Q > 0 || y.period.Q == -3 || !yearOfQuarter(low, q, y) {
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
		if at >= 0 && q.period.Q > 0 && !fiscalQuarter(low, q) {
			q.period, q.alt = t.quarterOfBareYear(q.period, out[at])
		}
		q.bare = at < 0 && q.period.Q > 0
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

// figureRe finds a figure in the text between two phrases.
var figureRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\s?\d|\d\s?%|\d\s*(?:trillion|billion|million|bn|tn)\b`)
})

// quarterOfYear joins a quarter written without its year and the year the
// sentence states, when the figure at start took one of them: "Fourth-
// quarter revenue was $95B in fiscal 2024" (the year nearest the figure,
// the quarter before it with no other figure between) and "in fiscal
// 2024, with fourth-quarter revenue of $95B" (the quarter nearest, the
// year in its sentence) are Q4 FY2024.
func (t *Table) quarterOfYear(low string, start int, chosen span, periods []span) span {
	isYear := func(sp span) bool {
		return !sp.period.TTM && !sp.relative && !sp.bare && (sp.period.Q == 0 || sp.period.Q == -2)
	}
	join := func(q, y span) span {
		p := Period{FY: y.period.FY, Q: q.period.Q}
		if q.month > 0 {
			var ok bool
			if p, ok = t.monthQuarter(q.month, y.period.FY, y.metric != "calendar" && y.period.Q != -2); !ok {
				return chosen
			}
		}
		joined := span{start: min(q.start, y.start), end: max(q.end, y.end), period: p}
		if q.month == 0 && !fiscalQuarter(low, q) {
			joined.period, joined.alt = t.quarterOfBareYear(p, y)
		}
		return joined
	}
	switch {
	case isYear(chosen):
		for _, q := range periods {
			if q.bare && q.end <= start && !strings.Contains(low[q.end:start], ";") && !figureRe().MatchString(low[q.end:start]) {
				return join(q, chosen)
			}
		}
	case chosen.bare:
		best, bd := span{}, 1<<30
		for _, y := range periods {
			if !isYear(y) || strings.Contains(textBetween(low, y, chosen), ";") {
				continue
			}
			if d := dist(y, chosen); d < bd {
				best, bd = y, d
			}
		}
		if bd < 1<<30 {
			return join(chosen, best)
		}
	}
	return chosen
}

// quarterOfBareYear is the period of fiscal quarter q.Q of the year y
// written with it, and the other period it may name. A year named fiscal
// ("Q4 FY2023", "fiscal 2023's fourth quarter") makes it the fiscal
// quarter; a year named calendar ("Q4 of calendar 2023") the filer's
// quarter that ends with that calendar quarter (Apple's Q1 FY2024), or an
// unplaced one (Q -3) when none does. A bare year ("Q4 2023") may be
// either, for a filer whose fiscal year is not the calendar year: the
// fiscal reading first, the calendar one as alt, a figure right in either
// not wrong.
func (t *Table) quarterOfBareYear(q Period, y span) (Period, Period) {
	switch {
	case y.period.Q == -2:
		if c, ok := t.calendarQuarter(q.Q, y.period.FY); ok {
			return c, Period{}
		}
		return Period{Q: -3}, Period{}
	case y.metric == "calendar":
		if c, ok := t.calendarQuarter(q.Q, y.period.FY); ok && c != q {
			return q, c
		}
	}
	return q, Period{}
}

// fiscalQuarter reports whether quarter q is named fiscal ("fiscal third
// quarter 2026", "the second fiscal quarter of 2025", "fiscal Q1 2026"):
// its year is then the fiscal year, whatever is written with it.
func fiscalQuarter(low string, q span) bool {
	return strings.Contains(low[max(0, q.start-8):q.end], "fiscal")
}

// calendarQuarter is the filer's fiscal quarter that ends with calendar
// quarter q of year y: the one ending in that quarter's last month or, for
// a year ending in January, a month later, as such a year is taken for
// the calendar year it nearly is (candidates).
func (t *Table) calendarQuarter(q, y int) (Period, bool) {
	if p, ok := t.monthQuarter(3*q, y, false); ok {
		return p, true
	}
	if t.FYEndMonth != 1 || t.FYEndDay >= 1 && t.FYEndDay <= 7 {
		return Period{}, false
	}
	m := 3*q + 1
	if m > 12 {
		m, y = m-12, y+1
	}
	return t.monthQuarter(m, y, false)
}

// monthNumber is the number of a month's name or abbreviation.
func monthNumber(name string) int {
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(name, m) {
			return i + 1
		}
	}
	return 0
}

// monthQuarter is the fiscal quarter that ends in month m of calendar year
// y ("the December quarter of 2024" is Apple's Q1 FY2025), or, with fiscal
// set, of fiscal year y ("the December quarter of fiscal 2025"); with no
// year, the latest such quarter the table holds. False for a month in
// which none of the filer's quarters ends.
func (t *Table) monthQuarter(m, y int, fiscal bool) (Period, bool) {
	e := t.FYEndMonth
	if e < 1 || e > 12 {
		e = 12
	}
	// A year ending in the first week of a month (the Saturday nearest 31
	// December, ending on 3 January) has its quarters end in the months of
	// a year ending the month before: "the December quarter" is its Q4.
	shifted := t.FYEndDay >= 1 && t.FYEndDay <= 7
	if shifted {
		e = (e+10)%12 + 1
		if d := ((m-e)%12 + 12) % 12; d%3 == 1 && y > 0 {
			// "the quarter ended January 3, 2026": the quarter of December
			// 2025, ended a few days into the next month.
			if m--; m == 0 {
				m, y = 12, y-1
			}
		}
	}
	d := ((m-e)%12 + 12) % 12
	if m == 0 || d%3 != 0 {
		return Period{}, false
	}
	q := d / 3
	if q == 0 {
		q = 4
	}
	at := func(y int) Period {
		cy := y
		if m > e {
			cy = y + 1 // the fiscal year ends in the next calendar year
		}
		if shifted && e == 12 {
			cy++ // it ends, in fact, early in the next calendar year
		}
		if t.FYNamedForStart {
			cy--
		}
		return Period{FY: cy, Q: q}
	}
	switch {
	case fiscal:
		return Period{FY: y, Q: q}, true
	case y > 0:
		return at(y), true
	}
	for cy := t.LatestFY + 1; cy >= t.LatestFY-3; cy-- {
		p := at(cy)
		for _, f := range t.Facts {
			if f.Period == p {
				return p, true
			}
		}
	}
	return Period{}, false
}

// yearOfQuarter reports whether year y is written as the year of quarter
// q: right after it ("Q3 FY2026", "third quarter of fiscal 2026", "fourth
// quarter, 2025") or right before it ("FY2026 Q3", "2025's fourth
// quarter"), not across a clause ("in fiscal 2024, with fourth-quarter
// revenue of $95B" states a year and, apart, a quarter).
func yearOfQuarter(low string, q, y span) bool {
	if y.start >= q.end {
		switch strings.TrimSpace(low[q.end:y.start]) {
		case "", "of", "in", "for", ",", "of the", "in the":
			return true
		}
		return false
	}
	if y.end <= q.start {
		switch strings.TrimSpace(low[y.end:q.start]) {
		case "", "'s", "’s":
			return true
		}
		return false
	}
	return true
}

// window is the part of low within about n bytes of the figure at
// start:end, cut at spaces so that no word is cut in two.
func window(low string, start, end, n int) (int, int) {
	lo, hi := 0, len(low)
	if start > n {
		lo = start - n
		if i := strings.IndexByte(low[lo:start], ' '); i >= 0 {
			lo += i
		}
	}
	if end+n < len(low) {
		hi = end + n
		if i := strings.LastIndexByte(low[end:hi], ' '); i >= 0 {
			hi = end + i
		}
	}
	return lo, hi
}

// textBetween is the text between two spans, "" when they overlap.
func textBetween(low string, a, b span) string {
	from, to := min(a.end, b.end), max(a.start, b.start)
	if from >= to {
		return ""
	}
	return low[from:to]
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
	// The condition and market cues are read near the figure: over a whole
	// run-on sentence (a table's rows, a list without stops) reading them
	// for every figure took seconds.
	lo, hi := window(low, start, end, 240)
	if conditional(low[lo:hi], start-lo, end-lo) {
		m.Hypothetical = true
	}
	if m.Unit == Percent {
		// "the 65.4% of fiscal 2025" names the figure's period, not a
		// whole it is a share of.
		if of := ofRe().FindStringSubmatch(low[end:min(len(low), end+48)]); of != nil && !hasMetricWithin(of[1], metrics) && !ofPeriod(of[1]) {
			m.Share = true
		}
	}
	// A market cue (a price, a market value, a multiple) nearer the figure
	// than any metric makes it market data.
	marketDist := 1 << 30
	mlo, mhi := window(low, start, end, 80)
	for _, loc := range marketRe().FindAllStringIndex(low[mlo:mhi], -1) {
		if d := dist(me, span{start: mlo + loc[0], end: mlo + loc[1]}); d < 40 && d < marketDist {
			marketDist = d
		}
	}
	best, bestScore := span{}, 1<<30
	for _, sp := range metrics {
		if dist(me, sp) >= 120 {
			continue // never chosen (see below); and reading the words between is costly
		}
		// "Shares outstanding were 24.3 billion": an amount without a
		// currency may count shares.
		if !compatible(m.Unit, sp.metric, low, start, end, sp) && !(m.bare && m.Unit == USD && UnitOf(sp.metric) == SharesUnit) &&
			!(m.zero && compatible(USDPerShare, sp.metric, low, start, end, sp)) {
			continue
		}
		d := dist(me, sp)
		between := textBetween(low, sp, me)
		if clauseBreak(between) {
			d += 60
		}
		switch {
		case sp.start > end && m.Unit == Percent && UnitOf(sp.metric) == Percent && strings.TrimSpace(low[end:sp.start]) == "":
			// "a 49% net margin": the rate names its line right after
			// it, as an adjective; "of revenue" before it is another.
			d = -1
		case sp.start > end:
			d += 6 // a metric before its number is the commoner phrasing
		}
		if d < bestScore {
			best, bestScore = sp, d
		}
	}
	if best.metric == otherMetric && bestScore < 120 && m.Unit == USDPerShare && (best.name == "dividend" || best.name == "annual dividend") {
		// "raised its dividend to $1.02 a share": the dividend a share,
		// as "dividends of $1.02 per share" is; a quarter's stated for a
		// year is told apart when it is checked (quarterlyDividend).
		m.Metric, m.dividendRate = DividendsPerShare, true
		best.metric = DividendsPerShare
	} else if best.metric == otherMetric && bestScore < 120 {
		m.Other = sentence[best.start:best.end]
	} else if best.metric != "" && bestScore < 120 {
		m.Metric = best.metric
		if m.bare && UnitOf(m.Metric) == SharesUnit {
			m.Unit = SharesUnit
		}
		if m.zero && UnitOf(m.Metric) == USDPerShare {
			m.Unit = USDPerShare
		}
		if m.Unit == Percent {
			switch u := UnitOf(m.Metric); {
			case m.Points && changeOf[m.Metric] != "":
				// "operating margin fell 2.0 points": the margin's change.
				m.Metric = changeOf[m.Metric]
			case u == Points:
				// "gross margin change of -3.9%": a change the analysis
				// states in points.
			case u == Multiple && !changeVerbRe().MatchString(low[max(0, start-24):start]) && !changeNounRe().MatchString(low[end:]):
				// "cash conversion was 99.5%": the ratio in percent, not
				// its growth, which nothing states.
				m.Unit, m.Value, m.Step = Multiple, m.Value/100, m.Step/100
			case u != Percent:
				m.Metric = Growth(m.Metric)
			}
		}
		switch {
		case m.Unit == USDPerShare && m.Metric == Dividends:
			// "dividends of $0.98 per share": the dividend a share, not
			// the total paid.
			m.Metric = DividendsPerShare
		case m.Unit == USDPerShare && UnitOf(m.Metric) != USDPerShare:
			m.Metric = EPSDiluted
			if after := strings.TrimSpace(low[end:min(len(low), end+24)]); strings.HasPrefix(after, "per basic") || strings.HasPrefix(after, "a basic") {
				// "earned $7.49 per basic share": basic EPS, not diluted.
				m.Metric = EPSBasic
			}
		}
	}
	// "N% of revenue": a part of a whole, never the whole's growth. With a
	// profit line before it, it is that line's margin ("operating income
	// was 60% of revenue"); otherwise a share the filings do not report
	// ("China was 13% of sales", "the top customer, 12% of revenue").
	// Any other line of the filings before it, or named after the whole
	// ("spent half of its operating cash flow on capex"), is a share of
	// the whole the filings give ("capex was 23% of revenue"); a whole
	// named for a part ("of Data Center revenue") is a share they do not.
	if m.Unit == Percent && !m.Points {
		if loc := ofRe().FindStringSubmatchIndex(low[end:min(len(low), end+48)]); loc != nil {
			w, total := wholeAfter(sentence, low, end, t)
			whole, ok := w.metric, total
			if !ok {
				whole, ok = metricIn(low[end+loc[2] : end+loc[3]])
			}
			if ok {
				m.Metric = ""
				switch {
				case !total:
					m.Share = true
				default:
					if part, ok := partAfterWhole(low, w.end, metrics); ok {
						m.Metric, m.Neg = shareMetric(part.metric, whole), m.Neg || part.loss
					} else if part, ok := partBefore(low, start, metrics); ok && !segmentBefore(sentence, low, part, t) && !segmentAfter(sentence, part, t) {
						m.Metric = marginBefore(whole, low, start, metrics)
						if m.Metric == "" {
							m.Metric = shareMetric(part.metric, whole)
						}
						if part.loss && m.Metric != "" {
							m.Neg = true // "the net loss was 16% of revenue": a negative margin
						}
					}
					m.Share = m.Metric == ""
				}
				best, bestScore = span{}, 1<<30
			}
		}
	}
	// "rose $6.0 billion", "up $1.2 billion", "a $1.2 billion increase in",
	// "an increase of $1.38": an amount of change, not a level.
	if (m.Unit == USD || m.Unit == USDPerShare || m.Unit == SharesUnit) && m.Metric != "" && UnitOf(m.Metric) == m.Unit && m.Hi == 0 &&
		!(best.loss && lossVerb(low[best.start:best.end])) { // "lost $1.2 billion" is the loss itself
		pre := low[max(0, start-24):start]
		if changeVerbRe().MatchString(pre) || changeNounRe().MatchString(low[end:]) {
			m.Change = true
			if loc := changeNounRe().FindStringSubmatch(low[end:]); loc != nil {
				m.Dir = 1
				if downRe().MatchString(loc[1]) || strings.HasPrefix(loc[1], "reduction") {
					m.Dir = -1
				}
			}
		} else if loc := changeOfRe().FindStringSubmatch(low[max(0, start-40):start]); loc != nil {
			m.Change, m.Dir = true, 1
			if downRe().MatchString(loc[1]) || strings.HasPrefix(loc[1], "reduction") {
				m.Dir = -1
			}
		}
	}
	// "$263 billion on buybacks over fiscal 2023 through fiscal 2025": a
	// flow's amount over a span of years is its total over them.
	// Not a level the line moved from or to ("over 2022-2024 revenue grew
	// from $55.0 billion to $66.0 billion"): a total is stated with no
	// word of a move in its clause.
	if m.Unit == USD && UnitOf(m.Metric) == USD && !isInstant(m.Metric) && !alternate[m.Metric] && !m.Change && m.Hi == 0 {
		clause := clauseAround(low, start, end)
		if _, growth := m.Metric.Base(); !growth && !upRe().MatchString(clause) && !downRe().MatchString(clause) &&
			!multipleWordRe().MatchString(clause) && !fromToAmountRe().MatchString(clause) {
			// "in total over 2023-2025" is no comparison ("the most in
			// over three years"), as yearsOver reads "in" before a span.
			m.Total = t.yearsOver(sentence, strings.ReplaceAll(low, "in total ", "         "), start, end)
		}
	}
	// "an 8% margin on $66B of revenue": the margin of the profit line
	// before it.
	if m.Unit == Percent && !m.Points && bareMarginRe().MatchString(low[end:]) {
		var line span
		for _, sp := range metrics {
			if sp.end <= start && marginOf[sp.metric] != "" && !strings.Contains(low[sp.end:start], ";") {
				line = sp
			}
		}
		if line.metric != "" {
			m.Metric, m.Segment = marginOf[line.metric], false
		}
	}
	// "gross margin expanded 2%": a verb of change right before the
	// figure makes it the margin's change, not its level.
	if c := changeOf[m.Metric]; c != "" && m.Metric != c && m.Unit == Percent && !m.Points && best.end <= start &&
		changeVerbRe().MatchString(low[max(0, start-24):start]) && !clauseBreak(low[best.end:start]) {
		m.Metric, m.MarginPercent = c, true
	}
	if _, growth := m.Metric.Base(); growth && m.Unit == Percent && !m.Points {
		m.Over = t.yearsOver(sentence, low, start, end)
		m.Annual = annualRate(low, start, end)
		if m.Annual && len(m.Over) == 0 {
			// "from $257.6 billion in 2021 to $402.8 billion in 2025,
			// about 12% a year": the years the sentence names.
			m.Over = t.yearsNamed(low, periods)
		}
		if m.Annual && len(m.Over) == 0 && annualWordRe().MatchString(low[max(0, start-48):start]) {
			// "an annual growth rate of 65%" with no years: a growth
			// called annual (AnnualWord, below), which may be the
			// latest year's.
			m.Annual = false
		}
	}
	if _, growth := m.Metric.Base(); growth && m.Unit == Percent && !m.Points && !m.Annual && len(m.Over) == 0 {
		// "grown more than eightfold in three years, from $27.0 billion
		// in fiscal 2023 to $215.9 billion in fiscal 2026": a growth
		// with the amounts it is the change of after it, each with its
		// year, is over the years they name, not one year's growth (a
		// right multiple over three years was corrected as fiscal
		// 2023's growth alone).
		m.Over = t.yearsOfAmountsAfter(low, end, periods)
	}
	if _, growth := m.Metric.Base(); growth && m.Unit == Percent && !m.Points && sequential(low, start, end) {
		m.Sequential = true
	}
	if m.Metric != "" && nonGAAP(low, start, end, best) {
		m.NonGAAP = true
	}
	if best.metric != "" && (segmentBefore(sentence, low, best, t) || segmentAfter(sentence, best, t)) {
		m.Segment = true
	}
	// "Other Bets lost $1.4 billion", "Google Cloud swung to an operating
	// profit of $6.1 billion": the subject of the verb names whose figure
	// it is, a part's unless it is the company.
	if best.loss && lossVerb(low[best.start:best.end]) && segmentBefore(sentence, low, span{start: best.start, end: best.end, metric: Revenue}, t) ||
		best.metric != "" && best.metric != otherMetric && segmentSubject(sentence, low, best, t) {
		m.Segment = true
	}
	// "R&D as a percentage of revenue was 8.6%": a part of revenue, as in
	// "N% of revenue", never revenue's growth.
	if m.Unit == Percent && !m.Points {
		// Near the figure: read back to the start of a run-on text for
		// each of its figures, it took time quadratic in the text.
		clause := low[max(0, start-240):start]
		if i := strings.LastIndexAny(clause, ";"); i >= 0 {
			clause = clause[i+1:]
		}
		if loc := asShareRe().FindStringIndex(clause); loc != nil {
			off := start - len(clause)
			var part span
			for _, sp := range metrics {
				if sp.end <= off+loc[0] && sp.metric != otherMetric {
					part = sp
				}
			}
			m.Metric, m.Segment = "", false
			switch {
			case marginOf[part.metric] != "":
				m.Metric = marginOf[part.metric]
			case UnitOf(part.metric) == Percent && part.metric != "":
				m.Metric = part.metric
			case shareMetric(part.metric, Revenue) != "" && !segmentBefore(sentence, low, part, t):
				m.Metric = shareMetric(part.metric, Revenue) // "capex as a percentage of revenue"
			default:
				m.Share = true // a segment, a measure the table does not hold
			}
		}
	}
	// "with Services up 14%": the figure of a part named right before its
	// verb, not of the metric the sentence named earlier.
	if m.Metric != "" && !m.Segment && best.end <= start {
		if loc := partVerbRe().FindStringSubmatchIndex(sentence[max(best.end, start-40):start]); loc != nil {
			base := max(best.end, start-40)
			word := sentence[base+loc[2] : base+loc[3]]
			lw := strings.ToLower(word)
			if len(findMetrics(lowerASCII(word))) == 0 && !companyWord(lw, t) && !periodWord(lw) && !totalWords[lw] &&
				!strings.HasPrefix(lw, "fy") && !(lw[0] == 'q' && len(lw) > 1 && lw[1] >= '1' && lw[1] <= '4') {
				m.Segment = true
			}
		}
	}
	if marketDist < 1<<30 && (m.Metric == "" || marketDist <= bestScore) {
		m.Market = true
	}
	// Period: nearest period phrase, preferring the same clause.
	pbest, pscore := span{}, 1<<30
	for _, sp := range periods {
		if sp.start < end && start < sp.end {
			continue // a period read inside the figure itself ("9m" of "$1.9M")
		}
		if dist(me, sp) > 600 {
			continue // another part of a run-on text
		}
		if strings.HasSuffix(strings.TrimSpace(low[max(0, sp.start-8):sp.start]), "since") {
			continue // "its fastest since 2021": a comparison, not the figure's year
		}
		d := dist(me, sp)
		between := textBetween(low, sp, me)
		if strings.Contains(between, ";") {
			d += 80
		}
		// "from $383B in fiscal 2023 to $391B in fiscal 2024": a period
		// across a "to" or "from" is the other figure's.
		if w := " " + strings.TrimSpace(between) + " "; strings.Contains(w, " to ") || strings.Contains(w, " from ") || strings.Contains(w, " versus ") || strings.Contains(w, " vs ") {
			d += 10
		}
		// "than 2023's $60 billion": a year in the possessive is the
		// figure's right after it, no other's.
		if after := low[sp.end:]; (strings.HasPrefix(after, "'s") || strings.HasPrefix(after, "’s")) && (sp.end+12 < start || start < sp.start) &&
			figureRe().MatchString(after[:min(len(after), 16)]) {
			continue
		}
		// "to $57.0B from $35.1B a year earlier": a relative period after
		// another figure is that figure's.
		if sp.relative && sp.start > end && figureRe().MatchString(between) {
			continue
		}
		// "revenue was $9.8B (FY24: $10.5B)": a period that opens an
		// aside holding its own figure labels that figure, not the one
		// before the aside.
		if sp.start > end && labelsAside(low, end, sp) {
			continue
		}
		if sp.start > end && opensNextClause(low, between, sp, start, periods) {
			continue
		}
		// "revenue of $416.2 billion was more than the $391.0 billion of
		// fiscal 2024": a period after the figure compared with is that
		// figure's.
		if sp.start > end {
			if i := strings.Index(between, " than "); i >= 0 && figureRe().MatchString(between[i:]) {
				continue
			}
		}
		if d < pscore {
			pbest, pscore = sp, d
		}
	}
	if pscore < 1<<30 {
		pbest = t.quarterOfYear(low, start, pbest, periods)
	}
	if b, _ := m.Metric.Base(); pscore < 1<<30 && pbest.asOf && !isInstant(b) {
		// "as of June 28, 2025" of a flow: a year to date, most likely,
		// not the quarter ending then.
		pbest.period = Period{Q: -3}
	}
	m.Period = Period{FY: t.LatestFY}
	if pscore < 1<<30 {
		m.Period, m.Explicit, m.Relative = pbest.period, true, pbest.relative
		m.alt = pbest.alt
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
	// "last year", "a year earlier": the year before the period the
	// sentence states, not before the latest fiscal year ("Q3 FY2026 gross
	// margin of 73.4%, up from 74.6% a year earlier" is Q3 FY2025's).
	if pscore < 1<<30 && pbest.relative {
		phrase := low[pbest.start:pbest.end]
		if _, ok := anchorPeriod(periods, pbest); !ok && pbest.metric != "prior quarter" &&
			(countBackRe().MatchString(phrase) || pbest.back > 0 && !strings.HasSuffix(phrase, " ago")) {
			m.countBack = max(1, pbest.back)
		}
		if a, ok := anchorPeriod(periods, pbest); ok {
			m.Period = a.period
			switch {
			case pbest.metric == "prior quarter" && a.period.Q > 0:
				m.Period = previousQuarter(a.period)
			case pbest.metric == "prior quarter":
				m.Period = pbest.period
			case a.metric == "calendar":
				m.Period.FY -= max(1, pbest.back)
				m.Period.Q = -1
			default:
				m.Period.FY -= max(1, pbest.back)
				if a.alt.Q > 0 {
					m.alt = a.alt
					m.alt.FY -= max(1, pbest.back)
				}
			}
		}
	}
	// "grew 16% a year in fiscal 2025", "an annual rate of 12.5% in
	// fiscal 2025": a rate a year in the one year the sentence names is
	// that year's growth, held to it; left as a rate over years it does
	// not name, a wrong one was unverified. A year the rate runs to or
	// through ("a year through 2025") ends a span it does not state.
	if m.Annual && len(m.Over) == 0 && pscore < 1<<30 && !pbest.relative && !pbest.period.TTM && pbest.period.Q <= 0 && pbest.period.Q != -3 {
		lead := strings.Fields(strings.TrimSuffix(strings.TrimSpace(low[max(0, pbest.start-16):pbest.start]), " the"))
		years := 0
		for _, sp := range periods {
			if !sp.relative && sp.period.Q <= 0 {
				years++
			}
		}
		if n := len(lead); years == 1 && n > 0 && (lead[n-1] == "in" || lead[n-1] == "during" || lead[n-1] == "for") {
			m.Annual = false
		}
	}
	// "up 74% from 2024", "grew 15% over fiscal 2024": the year after
	// "from" is the base of the change, which is for the year after it.
	if _, growth := m.Metric.Base(); growth && pscore < 1<<30 && !pbest.period.TTM && pbest.start > end {
		lead := strings.TrimSpace(low[max(0, pbest.start-16):pbest.start])
		for _, w := range []string{"from", "over", "versus", "vs", "vs.", "compared with", "against", "on", "than", "above", "below", "ahead of", "behind"} {
			if strings.HasSuffix(lead, " "+w) || lead == w {
				m.Period.FY++
				break
			}
		}
	}
	// "to $X in fiscal 2025 from $Y": a figure given as the base of a
	// change, with no period of its own next to it, is a year earlier than
	// the period the sentence states.
	if fromBefore(low, start) && m.Explicit && !m.Relative && pbest.start < start {
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
	if fromBefore(low, start) && !m.Explicit {
		// Also "up 65% from $130.5B" (a change before it) and "from 114%
		// to 65%" (the figure it changed to right after it).
		clause := low[max(0, start-60):start]
		if i := strings.LastIndexByte(clause, ';'); i >= 0 {
			clause = clause[i+1:]
		}
		if toFigureRe().MatchString(clause) || changeBeforeRe().MatchString(clause) || toAfterRe().MatchString(low[end:]) {
			m.Period = Period{FY: t.LatestFY - 1}
			m.Explicit, m.Relative = true, true
		}
	}
	// "rose from $130.5B to $215.9B in fiscal 2026": the period after the
	// figure changed to is that figure's; the one changed from is a year
	// earlier.
	if fromBefore(low, start) && m.Explicit && !m.Relative && pbest.start > end &&
		toAfterRe().MatchString(low[end:]) && !m.Period.TTM {
		m.Period.FY--
		m.FromQuarter = m.Period.Q > 0
	}
	// "rose to $402.8B from $350.0B in 2025": the figure changed from,
	// named after the one changed to, is a year earlier too; it was held to
	// 2025 and corrected as the right figure of the wrong period.
	if fromBefore(low, start) && m.Explicit && !m.Relative && pbest.start > end && !m.Period.TTM &&
		toFigureBeforeRe().MatchString(low[max(0, start-56):start]) {
		m.Period.FY--
		m.FromQuarter = m.Period.Q > 0
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
	// Both directions in the window ("lost momentum, rising only 2%"):
	// the word nearer the figure states its direction.
	if d, u := lastMatch(downRe(), window), lastMatch(upRe(), window); d >= 0 && u > d {
		window = window[d+1:]
	}
	switch {
	case downRe().MatchString(window) || strings.HasPrefix(strings.TrimSpace(after), "lower") || strings.HasPrefix(strings.TrimSpace(after), "decline") || strings.HasPrefix(strings.TrimSpace(after), "drop"):
		m.Dir = -1
	case upRe().MatchString(window) || strings.HasPrefix(strings.TrimSpace(after), "higher") || strings.HasPrefix(strings.TrimSpace(after), "increase") || strings.HasPrefix(strings.TrimSpace(after), "growth"):
		m.Dir = 1
	}
	// "Revenue ↓2.8%", "▲15%": an arrow right before the figure.
	switch lead := strings.TrimRight(low[max(0, start-4):start], " "); {
	case strings.HasSuffix(lead, "↓") || strings.HasSuffix(lead, "▼"):
		m.Dir = -1
	case strings.HasSuffix(lead, "↑") || strings.HasSuffix(lead, "▲"):
		m.Dir = 1
	}
	// "revenue growth fell to 65%", "growth slowed from 114% to 65%": the
	// verb moves the rate, which the figure states as a level; it says
	// nothing of whether the metric rose or fell.
	if _, growth := m.Metric.Base(); growth && m.Dir != 0 && best.end <= start && !m.Points {
		lead := strings.TrimSpace(low[max(0, start-8):start])
		if (strings.HasSuffix(lead, " to") || strings.HasSuffix(lead, " from") || lead == "to" || lead == "from") &&
			rateWordRe().MatchString(low[best.end:start]) {
			m.Dir = 0
		}
	}
	// "the net loss improved by $20 million", "the operating loss
	// worsened 30%": a word of quality, not of size, which for a loss
	// says the opposite of its size's move. From here on a loss's Dir is
	// the direction of its size.
	if best.loss && m.Dir != 0 && !lossVerb(low[best.start:best.end]) {
		if k := max(lastMatch(downRe(), window), lastMatch(upRe(), window)); k >= 0 && qualityRe().MatchString(window[k:]) {
			m.Dir = -m.Dir
		}
	}
	if m.Value < 0 {
		m.Dir, m.Value, m.Neg = -1, -m.Value, true
	}
	// "the net loss narrowed to $90 million", "widened to": the way the
	// loss's level moved, which the year before's loss settles.
	if best.loss && !lossVerb(low[best.start:best.end]) && (m.Unit == USD || m.Unit == USDPerShare) && !m.Change && m.Dir != 0 && best.end <= start &&
		toBeforeRe().MatchString(low[max(0, start-24):start]) {
		m.LossMove = m.Dir
	}
	// "revenue fell to $402.8 billion", "net income rose to $60.0
	// billion": the verb right before "to" moves the level of a line
	// that is not a loss, which the period before settles. Only a verb of
	// size: "improved to", "narrowed to" say how it is judged, and "up
	// 15% to" states its move in the percentage, checked on its own.
	if !best.loss && !m.Neg && !m.Change && m.Dir != 0 && best.end <= start && m.Metric != "" && levelMetric(m.Metric) {
		if loc := toBeforeRe().FindStringIndex(low[max(0, start-24):start]); loc != nil {
			verb := strings.Fields(low[max(0, start-24)+loc[0] : start])[0]
			if d := sizeVerbs[verb]; d == m.Dir {
				m.LevelMove = d
			}
		}
	}
	// "dividends per share were cut in fiscal 2025 to $1.02", "Apple
	// raised its dividend to $1.02 a share", "R&D was lowered to": a verb
	// of size apart from "to" by the period, or a verb of an act on the
	// line before it. Unread, a right level moved the wrong way passed.
	if m.LevelMove == 0 && !best.loss && !m.Neg && !m.Change && best.end <= start && m.Metric != "" && levelMetric(m.Metric) {
		m.LevelMove = moveVerbBefore(low, best, start)
	}
	// "trimmed its net loss to $1.2 billion", "the net loss was cut in
	// fiscal 2025 to": the loss's size moved, as "narrowed to" says.
	if m.LossMove == 0 && best.loss && !lossVerb(low[best.start:best.end]) && (m.Unit == USD || m.Unit == USDPerShare) && !m.Change && best.end <= start {
		m.LossMove = moveVerbBefore(low, best, start)
	}
	// "swung to a net loss of $130 million", "turned to a profit of $2
	// billion": the sign changed from the period before.
	if (m.Unit == USD || m.Unit == USDPerShare) && !m.Change && best.metric != "" && best.end <= start && lossMetrics[m.Metric] {
		lead := low[max(0, min(best.start, start-40)):start]
		if loc := swingRe().FindStringSubmatchIndex(lead); loc != nil && !figureRe().MatchString(lead[loc[1]:]) && !strings.ContainsAny(lead[loc[1]:], ";") {
			m.Swing = 1
			if w := lead[loc[2]:loc[3]]; strings.HasPrefix(w, "loss") || w == "red" {
				m.Swing = -1
			}
		}
	}
	// "the net loss widened by $20 million": a loss that grows is the
	// metric (net income) falling.
	if best.loss && m.Change {
		m.Dir = -m.Dir
	}
	// "a net loss of $1.2 billion", "loss per share of $0.52": the
	// amount of a loss is the metric's negative. A percentage change of a
	// loss ("the net loss narrowed 20%") is not the metric's growth.
	// "negative free cash flow of $3.0 billion": the amount of a negative
	// line is its negative.
	if m.Metric != "" && (m.Unit == USD || m.Unit == USDPerShare) && best.end <= start && !best.loss &&
		start-best.end <= 16 && strings.HasSuffix(strings.TrimRight(low[max(0, best.start-12):best.start], " "), "negative") {
		m.Neg = true
	}
	if _, growth := m.Metric.Base(); growth && !m.Explicit && !m.Annual && m.Unit == Percent && !m.Points && !m.Sequential &&
		annualWordRe().MatchString(low[max(0, start-48):start]) {
		m.AnnualWord = true
	}
	if best.loss && m.Metric != "" {
		switch m.Unit {
		case USD, USDPerShare:
			m.Neg, m.fromLoss = true, true
		case Percent:
			if _, growth := m.Metric.Base(); growth {
				m.LossChange = true
			}
		}
	}
}

// decimalCommaRe is a decimal comma as Europeans write it, before a scale
// or a percent sign: "9,8 billion", "2,5%", "1,2 bn", "(0,2) bn". A comma before three
// digits groups thousands and is left alone; one before one or two digits
// groups none.
var decimalCommaRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\d),(\d{1,2})(\)?\s?(?:%|(?i:percent|trillion|billion|million|thousand|bn|bln|mn|mln|mrd|tn)\b|[BMK]\b))`)
})

// opensNextClause reports whether the period sp, after a figure, opens
// the next clause with a figure of its own, the figure having a period of
// its own before it: "Q3 FY2026 net income was $31.9 billion and its Q2
// FY2026 net income $26.4 billion". Nearer, the second period took the
// first figure, and a right figure was corrected.
func opensNextClause(low, between string, sp span, start int, periods []span) bool {
	w := " " + strings.TrimSpace(between) + " "
	if !strings.Contains(w, " and ") && !strings.Contains(w, " while ") && !strings.Contains(w, " whereas ") && !strings.Contains(w, " but ") &&
		!strings.HasPrefix(strings.TrimSpace(between), ",") {
		return false
	}
	after := low[sp.end:min(len(low), sp.end+80)]
	if i := strings.IndexAny(after, ";."); i >= 0 && !(i+1 < len(after) && after[i] == '.' && after[i+1] >= '0' && after[i+1] <= '9') {
		after = after[:i]
	}
	if !figureRe().MatchString(after) {
		return false
	}
	for _, p := range periods {
		if p.end <= start && !p.relative && !strings.ContainsAny(low[p.end:start], ";") && !figureRe().MatchString(low[p.end:start]) {
			return true
		}
	}
	return false
}

// labelsAside reports whether the period sp, after a figure ending at
// end, opens a parenthetical aside that holds a figure of its own after
// it: "(FY24: $10.5B)", "(fiscal 2024: 46.2%)".
func labelsAside(low string, end int, sp span) bool {
	open := strings.LastIndexByte(low[end:sp.start], '(')
	if open < 0 || strings.TrimSpace(low[end+open+1:sp.start]) != "" {
		return false
	}
	rest := low[sp.end:]
	if i := strings.IndexByte(rest, ')'); i >= 0 {
		rest = rest[:i]
	} else {
		return false
	}
	return figureRe().MatchString(rest)
}

// sizeVerbs are the verbs that move a level up or down ("rose to", "fell
// to"), without the words of quality ("improved", "narrowed") that say the
// opposite of a loss's size.
var sizeVerbs = map[string]int{
	"rose": 1, "grew": 1, "increased": 1, "climbed": 1, "jumped": 1, "surged": 1, "soared": 1, "expanded": 1, "gained": 1,
	"advanced": 1, "rebounded": 1, "recovered": 1, "swelled": 1, "ballooned": 1, "risen": 1, "grown": 1, "rising": 1, "growing": 1,
	"fell": -1, "declined": -1, "decreased": -1, "dropped": -1, "shrank": -1, "shrunk": -1, "contracted": -1, "slumped": -1,
	"slid": -1, "plunged": -1, "tumbled": -1, "eroded": -1, "compressed": -1, "slipped": -1, "dipped": -1, "eased": -1,
	"softened": -1, "retreated": -1, "fallen": -1, "falling": -1, "declining": -1,
}

// actVerbs are the verbs of an act on a line that move its level ("cut
// the dividend to", "raised its dividend to", "R&D was lowered to"), with
// the verbs of size: a word of quality ("improved") is not one.
var actVerbs = map[string]int{
	"cut": -1, "cuts": -1, "reduced": -1, "reduces": -1, "lowered": -1, "lowers": -1, "slashed": -1, "slashes": -1,
	"trimmed": -1, "trims": -1, "halved": -1, "halves": -1, "decreased": -1, "decreases": -1,
	"raised": 1, "raises": 1, "lifted": 1, "lifts": 1, "boosted": 1, "boosts": 1, "hiked": 1, "hikes": 1,
	"increased": 1, "increases": 1, "upped": 1, "doubled": 1, "doubles": 1,
}

// moveGapRe is what may stand between a verb of a level's move and "to":
// a period ("in fiscal 2025", "during the year", "for Q3 FY2025") and
// adverbs, no figure and no other clause.
var moveGapRe = sync.OnceValue(func() *regexp.Regexp {
	const w = `(?:in|during|for|over|the|fiscal|full|year|quarter|calendar|fy|fy\d{2,4}|q[1-4]|h[12]|(?:19|20)\d\d|'\d\d|first|second|third|fourth|` +
		`again|further|sharply|slightly|modestly|significantly|substantially|steadily|materially|by|board|company|management|it|all|way)`
	return regexp.MustCompile(`^(?:\s+` + w + `)*\s+$`)
})

// toLeadRe is "to" right before a figure: "to $1.02", "to about 46%".
var toLeadRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bto\s+(?:about\s+|roughly\s+|approximately\s+|nearly\s+|~)?$`)
})

// moveAuxWords may stand between a line and the verb of its move:
// "dividends per share were cut", "R&D has been raised".
var moveAuxWords = map[string]bool{"was": true, "were": true, "is": true, "are": true, "has": true, "have": true, "had": true,
	"been": true, "be": true, "being": true, "got": true, "also": true, "again": true, "further": true, "then": true, "all": true}

// actGapRe is what may stand between a verb of an act and the line it
// acts on: "cut its dividend", "raised the quarterly dividend".
var actGapRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s+(?:(?:its|the|their|our|a|an)\s+)?(?:(?:annual|regular|common|total|company's)\s+)?$`)
})

// moveVerbBefore is the direction a verb states of the level whose figure
// starts at start after "to", the line named by metric before it: the
// verb after the line with only a period between it and "to" ("were cut
// in fiscal 2025 to"), or a verb of an act right before the line with
// nothing but "to" after it ("cut its dividend to"). 0 when none.
func moveVerbBefore(low string, metric span, start int) int {
	to := toLeadRe().FindStringIndex(low[max(0, start-24):start])
	if to == nil {
		return 0
	}
	toAt := max(0, start-24) + to[0]
	if toAt < metric.end {
		return 0
	}
	// A verb after the line: the last word of size or act before "to",
	// with only a period between them.
	words := low[metric.end:toAt]
	for i := len(words); i > 0; {
		j := strings.LastIndexByte(words[:i], ' ')
		w := strings.Trim(words[j+1:i], ",")
		d := sizeVerbs[w]
		if d == 0 {
			d = actVerbs[w]
		}
		if d != 0 {
			// Only auxiliaries and adverbs between the line and its verb:
			// "revenue estimates were cut to" moves the estimates.
			for _, g := range strings.Fields(words[:j+1]) {
				if !moveAuxWords[g] && !strings.HasSuffix(g, "ly") {
					return 0
				}
			}
			if moveGapRe().MatchString(words[i:]) {
				return d
			}
			return 0
		}
		if j < 0 {
			break
		}
		i = j
	}
	// A verb of an act before the line, the line right before "to".
	if strings.TrimSpace(words) != "" {
		return 0
	}
	head := low[max(0, metric.start-40):metric.start]
	for w, d := range actVerbs {
		if k := strings.LastIndex(head, w); k >= 0 && (k == 0 || !isWordByte(head[k-1])) && actGapRe().MatchString(head[k+len(w):]) {
			return d
		}
	}
	return 0
}

// levelMetric reports whether m is a level whose move a verb can state: an
// amount, a per-share figure, a share count or a margin; not a growth
// rate, a share of a whole or a ratio of the analysis.
func levelMetric(m Metric) bool {
	switch UnitOf(m) {
	case USD, USDPerShare, SharesUnit:
		return true
	}
	switch m {
	case GrossMargin, OperatingMargin, NetMargin, FCFMargin, EffectiveTaxRate:
		// A rate of the year, whose level the year before's settles
		// ("the effective tax rate rose to 15.6% from 24.1%").
		return true
	}
	return false
}

// fromBaseRe is the base of a change named before its figure: "from",
// "from a profit of", "from earnings of", "from a net loss of".
var fromBaseRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bfrom\s+(?:an?\s+)?(?:(?:net|operating|diluted|basic)\s+)?(?:profit|loss|income|earnings|eps|earnings per share|loss per share)\s+(?:of\s+)?(?:about\s+|roughly\s+|approximately\s+|~)?$`)
})

// fromBefore reports whether the figure at start is the base a change is
// measured from: "from $60 million", "from a profit of $500 million".
func fromBefore(low string, start int) bool {
	if strings.HasSuffix(strings.TrimSpace(low[max(0, start-12):start]), "from") {
		return true
	}
	return fromBaseRe().MatchString(low[max(0, start-40):start])
}

// lossMetrics are the metrics a loss is stated of: the negative of each
// is a loss ("net loss", "operating loss", "loss per share").
var lossMetrics = map[Metric]bool{NetIncome: true, OperatingIncome: true, EPSDiluted: true, EPSBasic: true}

var (
	// qualityRe is a word of change that says better or worse, not more
	// or less: of a loss, "improved" is its narrowing.
	qualityRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(improved|improvement|improving|improves|improve|recovered|rebounded|strengthened|worsened|deteriorated|deterioration|weakened)\b`)
	})
	// toBeforeRe is a verb of change and "to" right before a figure: "the
	// net loss narrowed to $90 million".
	toBeforeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b[a-z]+\s+to\s+(?:about\s+|roughly\s+|approximately\s+|nearly\s+|~)?$`)
	})
	// swingRe is a swing of the sign of a result: "swung to a net loss",
	// "turned to a profit", "flipped into the red", "swung back to
	// profitability".
	swingRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:swung|swings?|swinging|flipped|flips?|flipping|turned|turns?|turning)\s+(?:back\s+)?(?:in)?to\s+(?:an?\s+|the\s+)?(?:(?:net|operating|gaap|quarterly|annual|full year)\s+)*(loss|losses|profit|profits|profitability|black|red|net income|operating income)\b`)
	})
)

var (
	// adjustedBeforeRe is a qualifier of a metric's name that makes it a
	// non-GAAP measure: "adjusted diluted EPS", "non-GAAP gross margin",
	// "organic revenue growth".
	adjustedBeforeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(adjusted|non gaap|pro forma|proforma|normalized|normalised|underlying|core|organic|comparable|cash)\s+(?:(?:diluted|basic|net|operating|gross|gaap|total)\s+)?$`)
	})
	// adjustedAfterRe says the same after the figure, in its clause: "$4.77
	// on an adjusted basis", "up 12% organically", "excluding items".
	adjustedAfterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(adjusted|non gaap|pro forma|excluding|ex items|organically|organic|constant currency|fx neutral)\b`)
	})
)

// nonGAAP reports whether the figure at start:end, of the metric named at
// best, is qualified as a non-GAAP measure: before the metric's name, between
// it and the figure ("EPS (non-GAAP) of $4.77"), or after the figure in its
// clause. Held to the GAAP figure, a right adjusted figure was corrected.
func nonGAAP(low string, start, end int, best span) bool {
	if best.end == 0 {
		return false
	}
	// "Split-adjusted" is the footing the check holds a figure a share
	// on, not an adjusted measure (same length, so the offsets hold).
	low = strings.ReplaceAll(low, "split adjusted", "split restated")
	if adjustedBeforeRe().MatchString(low[max(0, best.start-32):best.start]) {
		return true
	}
	if best.end <= start && adjustedAfterRe().MatchString(low[best.end:start]) {
		return true
	}
	// The clause after the figure, near it: unbounded, a run-on text was
	// read to its end for each of its figures.
	to := min(len(low), end+240)
	if i := strings.IndexAny(low[end:to], ";,("); i >= 0 {
		to = end + i
	}
	if adjustedAfterRe().MatchString(low[end:to]) {
		return true
	}
	// "(non-GAAP)" right after the figure.
	return strings.HasPrefix(strings.TrimSpace(low[end:]), "(non gaap") || strings.HasPrefix(strings.TrimSpace(low[end:]), "(adjusted")
}

var (
	// sequentialRe names a change from the quarter before: "rose 22%
	// sequentially", "+22% q/q", "quarter-over-quarter growth".
	sequentialRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:sequential(?:ly)?|quarter over quarter|q/q|qoq)\b|` +
			`^\s*(?:from|over|versus|vs\.?|compared (?:with|to)|on) (?:the |a )?(?:prior|previous|preceding|last) quarter\b`)
	})
	// priorQuarterRe is the quarter a change right before it is measured
	// from: "22% from the prior quarter".
	priorQuarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d\s?(?:%|percent)\s*((?:from|over|versus|vs\.?|compared (?:with|to)|on) (?:the |a )?(?:prior|previous|preceding|last) quarter)\b`)
	})
	fromPriorQuarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:from|over|versus|vs\.?|compared (?:with|to))\s[^;%]{0,40}\b(?:prior|previous|preceding|last|sequential) quarter\b`)
	})
	seqWordRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:sequential(?:ly)?|quarter over quarter|q/q|qoq)\b`)
	})
	priorQuarterSpanRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:prior|previous|preceding|sequential) quarter\b|\ba quarter (?:earlier|before|ago)\b`)
	})
	monthsEndedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:six|nine|6|9)\s+months\s+end(?:ed|ing)\s+(?:on\s+)?` +
			`(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?:\s+\d{1,2})?,?\s+\d{4}\b`)
	})
	// yearEndedRe is a year named by the day it ended: "the fiscal year
	// ended September 28, 2024", "the twelve months ended December 27,
	// 2025", "the 52 weeks ended January 3, 2026".
	yearEndedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:(twelve|12)\s+months|(?:fiscal\s+)?year|(?:52|53|fifty\s+two|fifty\s+three)\s+weeks)\s+end(?:ed|ing)\s+(?:on\s+)?` +
			`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?(?:\s+\d{1,2})?,?\s+(\d{4})\b`)
	})
	latestQuarterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:last|latest|most recent|most recently reported|just reported) quarter\b`)
	})
)

// findAllIf is re's matches in low, skipping the regular expression when
// low lacks a word every match contains: most sentences name no quarter.
func findAllIf(low, word string, re *regexp.Regexp) [][]int {
	if !strings.Contains(low, word) {
		return nil
	}
	return re.FindAllStringIndex(low, -1)
}

// blankSequential blanks, keeping offsets, the words of a sequential change
// ("quarter over quarter", "from the prior quarter" after a percentage),
// which name no period of the figure: read as one, "22% quarter over
// quarter in Q3" was a quarter the check could not place.
func blankSequential(low string) string {
	b := []byte(low)
	blank := func(s, e int) {
		for i := s; i < e; i++ {
			b[i] = ' '
		}
	}
	if strings.Contains(low, "quarter") {
		for _, loc := range priorQuarterRe().FindAllStringSubmatchIndex(low, -1) {
			blank(loc[2], loc[3])
		}
	}
	for _, loc := range findAllIf(low, "q", seqWordRe()) {
		blank(loc[0], loc[1])
	}
	return string(b)
}

// sequential reports whether the percentage at start:end is a change from
// the quarter before: a sequential cue right after it, or right before it
// with no other figure between ("sequential growth of 22%").
func sequential(low string, start, end int) bool {
	after := low[end:min(len(low), end+40)]
	if i := strings.IndexAny(after, ";,0123456789"); i >= 0 {
		after = after[:i]
	}
	if sequentialRe().MatchString(after) {
		return true
	}
	// "up 22% from $46.7 billion in the prior quarter".
	rest := low[end:min(len(low), end+240)]
	if i := strings.IndexAny(rest, ";,"); i >= 0 {
		rest = rest[:i]
	}
	if fromPriorQuarterRe().MatchString(rest) {
		return true
	}
	before := low[max(0, start-40):start]
	if i := strings.LastIndexAny(before, ";,0123456789"); i >= 0 {
		before = before[i+1:]
	}
	return seqWordRe().MatchString(before)
}

var (
	// changeBeforeRe is a change stated right before a "from <figure>":
	// "up 65% from", "a 12% increase from".
	changeBeforeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d\s?(?:%|percent)[^;\d]{0,24}$`)
	})
	// toAfterRe is "to <figure>" right after a "from <figure>".
	// toFigureBeforeRe is the figure changed to, right before "from" and
	// the figure changed from: "to $402.8 billion from ".
	toFigureBeforeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bto\s+(?:about\s+|roughly\s+|~|a\s+record\s+)?[-$(]?\d[\d.,]*\s*(?:trillion|billion|million|thousand|bn|mn|[tbmk])?\)?\s+from\s+(?:about\s+|roughly\s+|~)?$`)
	})
	toAfterRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*to\s+(?:about\s+|roughly\s+|~)?[-$+(]?\d`)
	})
)

// anchorPeriod is the period a relative one ("last year", "a year
// earlier") counts back from: the nearest stated period of the sentence,
// before it if any. False when the sentence states none.
func anchorPeriod(periods []span, rel span) (span, bool) {
	best, bd := span{}, 1<<30
	for _, sp := range periods {
		if sp.relative || sp.period.TTM || sp.period.Q < 0 || sp.start == rel.start {
			continue
		}
		d := dist(sp, rel)
		if sp.start > rel.start {
			d += 1000 // prefer the period the sentence stated first
		}
		if d < bd {
			best, bd = sp, d
		}
	}
	return best, bd < 1<<30
}

var (
	// changeNounRe is a noun of change right after an amount: "a $1.2
	// billion increase in net income".
	changeNounRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(increase|decrease|rise|gain|decline|drop|jump|improvement|reduction|fall)\b`)
	})
	// fromToAmountRe is an amount a line moved from or to: "from $55.0
	// billion", "to $130.5 billion".
	fromToAmountRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:from|to)\s+(?:about\s+|roughly\s+|nearly\s+|around\s+|some\s+|almost\s+)?` +
			`(?:-?\$|\d[\d.,]*\s*(?:trillion|billion|million|bn|mn|b|m)\b)`)
	})
	// changeOfRe is a noun of change before its amount: "an increase of
	// $1.38", "a decline of about $2 billion".
	changeOfRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:an?\s+)(increase|decrease|rise|gain|decline|drop|jump|improvement|reduction|fall)\s+of\s+` +
			`(?:about\s+|roughly\s+|nearly\s+|around\s+|approximately\s+|some\s+|almost\s+|more\s+than\s+)?[-$]*$`)
	})
	bareMarginRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*margins?\b`) })
	centsRe      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(\d+(?:\.\d+)?)\s?(?:cents?\b|¢)`)
	})
)

var (
	// asShareRe is "as a percentage of revenue" and its kin.
	asShareRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bas an? (?:percentage|percent|share|%|proportion|fraction|portion) of (?:total |net )?(?:revenue|revenues|sales|net sales)\b`)
	})
	// partVerbRe is a capitalised name right before a verb of change and
	// the figure: "with Services up 14%", "while Cloud grew 31%".
	partVerbRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:,|\bwith|\bwhile|\band|\bas|\bwhere)\s+([A-Z][A-Za-z&'-]*)\s+(?:was\s+|were\s+)?(?:up|down|rose|grew|fell|increased|declined|jumped|climbed|gained|dropped|surged|slipped)\s+(?:by\s+|about\s+|roughly\s+|nearly\s+)?$`)
	})
)

// lastMatch is where re's last match in s starts, -1 when none.
func lastMatch(re *regexp.Regexp, s string) int {
	all := re.FindAllStringIndex(s, -1)
	if len(all) == 0 {
		return -1
	}
	return all[len(all)-1][0]
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
	NetMargin: NetMarginChange, FCFMargin: FCFMarginChange,
	GrossMarginChange: GrossMarginChange, OperatingMarginChange: OperatingMarginChange,
	NetMarginChange: NetMarginChange, FCFMarginChange: FCFMarginChange}

// marginOfChange is the margin whose change in points a metric is.
var marginOfChange = map[Metric]Metric{GrossMarginChange: GrossMargin, OperatingMarginChange: OperatingMargin,
	NetMarginChange: NetMargin, FCFMarginChange: FCFMargin}

// marginBefore is the margin stated as "LINE ... N% of revenue": the
// nearest metric before the figure in its clause, a margin itself or a
// profit line whose margin the filings give; "" when there is none.
func marginBefore(whole Metric, low string, start int, metrics []span) Metric {
	if whole != Revenue {
		return ""
	}
	prev, chained := lineBefore(low, start, metrics)
	if prev.metric == "" || !chained && clauseBreak(low[prev.end:start]) {
		return ""
	}
	if UnitOf(prev.metric) == Percent {
		return prev.metric
	}
	return marginOf[prev.metric]
}

// fractionOfLine reports whether the word at start:end ("quarter") is a
// fraction of a line of the filings: "a quarter of revenue", "three
// quarters of net sales".
func fractionOfLine(low string, start, end int) bool {
	pre := strings.Fields(low[max(0, start-8):start])
	if len(pre) == 0 || pre[len(pre)-1] != "a" && pre[len(pre)-1] != "one" && pre[len(pre)-1] != "three" {
		return false
	}
	rest := strings.TrimPrefix(low[end:], "s") // "three quarters"
	if !strings.HasPrefix(rest, " of ") {
		return false
	}
	m, ok := metricIn(rest[4:min(len(rest), 44)])
	return ok && UnitOf(m) == USD
}

// partBefore is the line a share is stated of: the nearest metric before
// the figure at start, in its clause.
func partBefore(low string, start int, metrics []span) (span, bool) {
	prev, chained := lineBefore(low, start, metrics)
	if prev.metric == "" || prev.metric == otherMetric || !chained && clauseBreak(low[prev.end:start]) {
		return span{}, false
	}
	return prev, true
}

// lineBefore is the line named nearest before start, and whether it was
// reached through an earlier share of the same part: in "dividends were
// under 3% of revenue and about 6% of operating cash flow" the line
// before "6%" is revenue, the whole of "3%", whose part (dividends) is the
// part of "6%" too. Only a joining word and the figure's own qualifiers
// may stand between the earlier whole and the figure.
func lineBefore(low string, start int, metrics []span) (span, bool) {
	chained := false
	for {
		var prev span
		for _, sp := range metrics {
			if sp.end <= start && sp.start >= prev.start {
				prev = sp
			}
		}
		if prev.metric == "" || !shareJoinRe().MatchString(low[prev.end:start]) {
			return prev, chained
		}
		lead := low[max(0, prev.start-48):prev.start]
		loc := earlierShareRe().FindStringIndex(lead)
		if loc == nil {
			return prev, chained
		}
		start, chained = prev.start-len(lead)+loc[0], true
	}
}

var (
	// earlierShareRe is a share's figure and "of" right before its whole:
	// "3% of ", "a third of its ".
	earlierShareRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:%|percent|half|thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|twelfths?|majority|most|bulk|all)\s+of\s+(?:(?:its|the|their|total|consolidated)\s+)*$`)
	})
	// shareJoinRe is what may stand between an earlier share's whole and
	// the next share of the same part: "and about", ", or", "but only".
	shareJoinRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*,?\s*(?:and|or|but|versus|vs\.?|while)?\s*(?:(?:only|just|about|roughly|around|approximately|nearly|almost|some|under|over|below|above|less\s+than|more\s+than|close\s+to|at\s+least|at\s+most|a\s+little|slightly)\s+)*$`)
	})
)

// partAfterWholeRe joins a whole to the line spent from it: "half of its
// operating cash flow on capex", "a third of revenue went to cost of
// sales", "most of net sales turned into net income", "nearly all of
// operating cash flow was free cash flow".
var partAfterWholeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s+(?:(?:was|were|is|are|became|becomes)\s+|(?:(?:was|were|is|are|went|goes|go|flowed|flows)\s+)?(?:(?:spent|paid out|returned|used|reinvested|turned|converted|translated)\s+)?(?:on|to|into|toward|towards|in|as)\s+)(?:its\s+|the\s+|their\s+)?`)
})

// partAfterWhole is the line named right after a whole as the part spent
// from it ("of its operating cash flow on capex"), whole ending at end.
func partAfterWhole(low string, end int, metrics []span) (span, bool) {
	loc := partAfterWholeRe().FindStringIndex(low[end:min(len(low), end+40)])
	if loc == nil {
		return span{}, false
	}
	for _, sp := range metrics {
		if sp.start == end+loc[1] && sp.metric != otherMetric && UnitOf(sp.metric) == USD {
			return sp, true
		}
	}
	return span{}, false
}

// wholeAfter reads the whole of "N% of <whole>" or "a third of <whole>"
// right after end: the metric's span and whether it is the company's
// total, not a part's ("of Data Center revenue", "of iPhone sales"). Only
// determiners, words for the total and the company's own name may stand
// before the metric's name.
func wholeAfter(sentence, low string, end int, t *Table) (span, bool) {
	rest := low[end:min(len(low), end+64)]
	i := len(rest) - len(strings.TrimLeft(rest, " "))
	if !strings.HasPrefix(rest[i:], "of ") {
		return span{}, false
	}
	i += 3
	ms := findMetrics(rest)
	for n := 0; n < 4; n++ {
		i += len(rest[i:]) - len(strings.TrimLeft(rest[i:], " "))
		for _, sp := range ms {
			if sp.start == i && sp.metric != otherMetric {
				sp.start, sp.end = sp.start+end, sp.end+end
				return sp, true
			}
		}
		j := strings.IndexByte(rest[i:], ' ')
		if j <= 0 {
			return span{}, false
		}
		w := strings.TrimSuffix(strings.TrimSuffix(rest[i:i+j], "'s"), "’s")
		if !totalWords[w] && !companyWord(w, t) && w != "all" && w != "its" {
			return span{}, false
		}
		i += j
	}
	return span{}, false
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
	// "65% YoY revenue growth": a comparison's name, not a part's.
	"yoy": true, "y/y": true, "qoq": true, "q/q": true, "ltm": true, "ytd": true,
}

// segmentMetrics are the metrics a part of a company is named with.
var segmentMetrics = map[Metric]bool{Revenue: true, GrossProfit: true, OperatingIncome: true, GrossMargin: true, OperatingMargin: true, NetMargin: true,
	CostOfRevenue: true}

// segmentBefore reports whether the metric's name is qualified by a part
// of the company: a capitalised word right before it that is not the
// company's own name, a period or a word for the total.
func segmentBefore(sentence, low string, metric span, t *Table) bool {
	if !segmentMetrics[metric.metric] {
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
		if companyWord(lw, t) || periodWord(lw) {
			return false
		}
		if word[0] >= 'A' && word[0] <= 'Z' || word[0] >= 'a' && word[0] <= 'z' && strings.ContainsAny(word[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			// "Services", and a product named "iPhone" or "eBay".
			return true
		}
		// "data center revenue", "cloud revenue", "services revenue":
		// a part named in lower case.
		if segmentWords[lw] {
			return true
		}
		// Another lowercase word may be part of a capitalised part's name.
	}
	return false
}

// subjectVerbRe is a verb of reporting, with its article, between a
// subject and the metric it reports: "posted an", "swung to a",
// "reported".
var subjectVerbRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\s(?:posted|posts|reported|reports|recorded|records|generated|generates|delivered|delivers|booked|books|produced|` +
		`swung\s+(?:back\s+)?to|swings\s+to|turned\s+(?:back\s+)?to|turns\s+to|flipped\s+to|returned\s+to)(?:\s+(?:an?|the|its|their))?\s*$`)
})

// segmentSubject reports whether the metric's figure is reported by a part
// of the company named as the subject of a verb of reporting: "Alphabet's
// Other Bets segment posted an operating loss", "Google Cloud swung to an
// operating profit". A word before the verb is read as segmentBefore reads
// a word before a metric's name.
func segmentSubject(sentence, low string, metric span, t *Table) bool {
	pre := low[max(0, metric.start-48):metric.start]
	loc := subjectVerbRe().FindStringIndex(pre)
	if loc == nil {
		return false
	}
	return segmentNamedBefore(sentence, metric.start-len(pre)+loc[0], t)
}

// segmentNamedBefore reports whether the words right before at (the
// subject of a verb) name a part of the company: "Google Cloud", "the
// Other Bets segment".
func segmentNamedBefore(sentence string, at int, t *Table) bool {
	// The subject, without "segment", "unit", "division" or "business".
	words := strings.Fields(sentence[max(0, at-40):at])
	for len(words) > 0 {
		w := strings.ToLower(strings.Trim(words[len(words)-1], ".,"))
		if w != "segment" && w != "unit" && w != "division" && w != "business" && w != "arm" {
			break
		}
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return false
	}
	subject := strings.Join(words[max(0, len(words)-2):], " ") + " "
	off := len(subject)
	return segmentBefore(subject+"revenue", lowerASCII(subject+"revenue"), span{start: off, end: off + 7, metric: Revenue}, t)
}

// partAfterRe is a part of the company named right after a metric's name:
// "revenue from China", "revenue in Greater China", "operating income at
// Google Cloud", "gross margin of the Services segment".
var partAfterRe = sync.OnceValue(func() *regexp.Regexp {
	// Digits are part of the word read ("in Q3 FY2024" names a quarter):
	// read up to them, "Q" was taken for a capitalised part's name.
	return regexp.MustCompile(`^\s+(?:from|in|at|of|for)\s+(?:the\s+|its\s+)?([A-Za-z][A-Za-z0-9&'-]*)`)
})

// segmentAfter reports whether the metric's name is followed by a part of
// the company: a proper name (capitalised, or "iPhone") after "from",
// "in", "at", "of" or "for" that is not the company's own, a period or a
// word for the total.
func segmentAfter(sentence string, metric span, t *Table) bool {
	if !segmentMetrics[metric.metric] {
		return false
	}
	loc := partAfterRe().FindStringSubmatchIndex(sentence[metric.end:min(len(sentence), metric.end+48)])
	if loc == nil {
		return false
	}
	word := strings.TrimSuffix(sentence[metric.end+loc[2]:metric.end+loc[3]], "'s") // "revenue in Apple's fiscal fourth quarter"
	lw := strings.ToLower(word)
	if lw == "" {
		return false
	}
	if totalWords[lw] || functionWords[lw] || companyWord(lw, t) || periodWord(lw) || strings.HasPrefix(lw, "fy") || strings.HasPrefix(lw, "cy") ||
		lw[0] == 'q' && len(lw) > 1 && lw[1] >= '1' && lw[1] <= '4' || strings.ContainsAny(lw, "0123456789") {
		return false
	}
	if lw == "usd" || lw == "us" || lw == "u" || lw == "dollars" || currencyCodes[lw] != "" || foreignCodeRe().MatchString(lw) {
		// "revenue of USD 9.8 billion", "of EUR 2.3bn": the amount's
		// currency, not a part's name.
		return false
	}
	return word[0] >= 'A' && word[0] <= 'Z' || strings.ContainsAny(word[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || segmentWords[lw]
}

// periodWord reports whether a word before a metric's name names a period
// ("Fourth-quarter revenue", "Year-to-date revenue", "December-quarter
// sales"), not a part of the company.
// ofPeriod reports whether the words after "of" open a period ("fiscal
// 2025", "the prior year", "fy2025"), not a whole ("the year's total" is
// one).
func ofPeriod(words string) bool {
	w := strings.Fields(words)
	switch {
	case len(w) == 0:
		return false
	case w[0] == "fiscal" || w[0] == "calendar" || strings.HasPrefix(w[0], "fy"):
		return true
	case len(w) > 1 && (w[0] == "last" || w[0] == "prior" || w[0] == "previous"):
		return w[1] == "year" || w[1] == "quarter" || w[1] == "fiscal"
	}
	return false
}

func periodWord(lw string) bool {
	for _, w := range []string{"quarter", "year", "half", "month", "annual", "fiscal", "date", "ttm", "ltm", "ytd", "trailing", "calendar", "full"} {
		if strings.Contains(lw, w) {
			return true
		}
	}
	return isMonthName(lw)
}

// isMonthName reports whether a word starts with a month's name or its
// abbreviation followed by nothing or a hyphen ("december", "dec-quarter").
func isMonthName(lw string) bool {
	head, _, _ := strings.Cut(lw, "-")
	for _, m := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"} {
		if head == m {
			return true
		}
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
	// The subject of "lost $120 million" when it is the company.
	"it": true, "we": true, "they": true, "which": true, "who": true, "firm": true, "business": true, "group": true,
	"management": true, "analysts": true, "investors": true, "he": true, "she": true,
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
	if metric == otherMetric {
		return u != Score
	}
	// "lost $1.2 billion", "lost 27 cents a share": a loss; but "revenue
	// lost momentum, falling 5%" states no change of a loss.
	if sp.loss && lossVerb(low[sp.start:sp.end]) && u != USD && u != USDPerShare {
		return false
	}
	mu := UnitOf(metric)
	switch u {
	case Percent:
		return true // a margin, or the growth of any metric
	case USDPerShare:
		// "earned $4.90 per share", "net income of $4.90 a share": EPS;
		// "dividends of $0.98 per share": the dividend a share.
		return mu == USDPerShare || metric == NetIncome || metric == Dividends
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

// rateWordRe names a rate of change between a metric and its figure:
// "revenue growth fell to 65%".
var rateWordRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(growth|growth rate|rate of growth|pace)\b`)
})
