package factcheck

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Numbers written in words ("sixty-five percent", "one hundred twelve
// billion dollars", "seven dollars and forty-six cents"), multiples of a
// change ("more than doubled", "tripled") and fractions of one ("rose by a
// third"). Unread, such a figure was never checked, right or wrong.

// numberWords are the words of a cardinal number below a million, and
// their values; "hundred" and "thousand" multiply.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
}

const numberWordAlt = `zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|` +
	`seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand`

var (
	// wordNumberRe is a number in words and the unit after it. In low,
	// where hyphens read as spaces: "sixty five percent".
	wordNumberRe = sync.OnceValue(func() *regexp.Regexp {
		const n = `(?:` + numberWordAlt + `)`
		const digit = `(?:zero|one|two|three|four|five|six|seven|eight|nine)`
		num := `((?:a\s+)?` + n + `(?:\s+(?:and\s+)?` + n + `)*(?:\s+point(?:\s+` + digit + `)+|\s+and\s+a\s+half)?)`
		return regexp.MustCompile(`\b` + num + `\s+(percentage points?|percent|per cent|pct|basis points?|bps?|points?|trillion|billion|million|dollars|cents)\b` +
			`(?:(\s+dollars)|\s+and\s+` + num + `\s+cents\b)?`)
	})
	// multipleWordRe is a change stated as a multiple: "doubled",
	// "tripled", "halved", "grew fourfold".
	multipleWordRe = sync.OnceValue(func() *regexp.Regexp {
		// Any number in words: "fortyfold", "twenty five fold" (hyphens
		// read as spaces), "a hundredfold"; the list stopped at twenty, and
		// a wrong "fortyfold" went unread.
		const n = `(?:` + numberWordAlt + `)`
		return regexp.MustCompile(`\b(doubled|tripled|trebled|quadrupled|quintupled|sextupled|septupled|octupled|halved|` +
			`((?:` + n + `\s+)*` + n + `|\d+(?:\.\d+)?)\s*fold)\b`)
	})
	// fractionRe is a change by a fraction: "rose by a third", "fell by
	// half", "grew by two-thirds".
	fractionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(rose|risen|grew|grown|increased|jumped|climbed|surged|expanded|gained|was up|were up|fell|fallen|declined|decreased|dropped|shrank|slid|was down|were down)\s+by\s+` +
			`((?:(?:nearly|almost|about|roughly|around|more than|over|less than|just over|just under|close to)\s+)?)` +
			`(half|(?:a|one|two|three|four)\s+(?:third|thirds|quarter|quarters|fifth|fifths|tenth|tenths))\b`)
	})
)

// wordValue reads a number in words ("one hundred thirty two", "six point
// four"); false unless the words make one number ("one two" does not).
func wordValue(words string) (float64, float64, bool) {
	ws := strings.Fields(words)
	if n := len(ws); n > 3 && ws[n-3] == "and" && ws[n-2] == "a" && ws[n-1] == "half" {
		// "thirty-four and a half": to the half.
		v, _, ok := wordValue(strings.Join(ws[:n-3], " "))
		return v + 0.5, 0.5, ok
	}
	if len(ws) > 0 && ws[0] == "a" {
		if len(ws) < 2 || (ws[1] != "hundred" && ws[1] != "thousand") {
			return 0, 0, false
		}
		ws[0] = "one"
	}
	total, cur := 0.0, 0.0
	// last is the kind of the word before: 1 a digit, 2 a teen or ten, 3 a
	// multiple of ten, 4 hundred, 5 thousand; 0 at the start.
	last := 0
	step := 1.0
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w == "and" {
			continue
		}
		if w == "point" {
			frac, scale := 0.0, 0.1
			for _, d := range ws[i+1:] {
				v, ok := numberWords[d]
				if !ok || v > 9 {
					return 0, 0, false
				}
				frac += v * scale
				scale /= 10
			}
			if len(ws[i+1:]) == 0 {
				return 0, 0, false
			}
			return total + cur + frac, scale * 10, true
		}
		v, ok := numberWords[w]
		if !ok {
			return 0, 0, false
		}
		switch {
		case v < 10:
			if last == 1 || last == 2 {
				return 0, 0, false
			}
			cur, last = cur+v, 1
		case v < 20:
			if last >= 1 && last <= 3 {
				return 0, 0, false
			}
			cur, last = cur+v, 2
		case v < 100:
			if last >= 1 && last <= 3 {
				return 0, 0, false
			}
			cur, last = cur+v, 3
		case v == 100:
			if cur == 0 || cur >= 100 || last == 4 {
				return 0, 0, false
			}
			cur, last = cur*100, 4
		default: // thousand
			if cur == 0 || last == 5 {
				return 0, 0, false
			}
			total, cur, last = total+cur*1000, 0, 5
		}
	}
	if last == 0 {
		return 0, 0, false
	}
	return total + cur, step, true
}

// findWordNumbers reads the figures written in words of a sentence: numbers
// with a unit, multiples of a change and fractions of one.
func findWordNumbers(low string, metrics []span, add func(start, end int, m Mention)) {
	if hasAny(low, "percent", "per cent", "pct", "point", "bp", "illion", "dollars", "cents") {
		for _, loc := range wordNumberRe().FindAllStringSubmatchIndex(low, -1) {
			v, st, ok := wordValue(low[loc[2]:loc[3]])
			if !ok {
				continue
			}
			m := Mention{Value: v, Step: st}
			switch unit := low[loc[4]:loc[5]]; unit {
			case "trillion", "billion", "million":
				sc := scaleOf(unit)
				m.Value, m.Step, m.Unit = v*sc, st*sc, USD
				m.bare = loc[6] < 0 // "twelve billion" may count shares
				m.dollar = !m.bare
				if cur := foreignAfterRe().FindStringSubmatch(low[loc[1]:min(len(low), loc[1]+24)]); m.bare && cur != nil {
					// "twenty-eight billion euros": an amount in euros.
					m.Currency, m.bare = currencyCode(cur[1]), false
				}
			case "dollars":
				m.Unit, m.dollar = USD, true
				if loc[8] >= 0 {
					c, cst, ok := wordValue(low[loc[8]:loc[9]])
					if !ok || c >= 100 {
						continue
					}
					m.Value, m.Step = v+c/100, cst/100
				}
				if m.Value < 1000 {
					m.Unit = USDPerShare // as "$7.46" is
				}
				if perShare(low[loc[1]:min(len(low), loc[1]+16)]) {
					m.Unit = USDPerShare
				}
			case "cents":
				m.Value, m.Step, m.Unit = v/100, st/100, USDPerShare
			default:
				m.Unit = Percent
				if (unit == "point" || unit == "points") && !changeVerbRe().MatchString(low[max(0, loc[0]-24):loc[0]]) {
					continue // "the bear makes three points": a move of a margin only after a verb of change
				}
				if strings.Contains(unit, "point") || strings.HasPrefix(unit, "b") {
					m.Points = true
					if strings.HasPrefix(unit, "b") {
						m.Value, m.Step = v/100, bpsStep(v, st)/100
					}
				}
			}
			add(loc[0], loc[1], m)
		}
	}
	// "quadrupled" holds no "tuple": left out, it was never read.
	if hasAny(low, "double", "triple", "treble", "tuple", "quadrupl", "halved", "fold") {
		for _, loc := range multipleWordRe().FindAllStringSubmatchIndex(low, -1) {
			word := low[loc[2]:loc[3]]
			k := map[string]float64{"doubled": 2, "tripled": 3, "trebled": 3, "quadrupled": 4, "quintupled": 5, "sextupled": 6,
				"septupled": 7, "octupled": 8, "halved": 0.5}[word]
			if loc[4] >= 0 {
				n := low[loc[4]:loc[5]]
				if v, _, ok := wordValue(n); ok {
					k = v
				} else if v, ok := numberWords[n]; ok {
					k = v
				} else {
					k = mustFloat(n)
				}
			}
			if k == 0 || !multipleOfMetric(low, loc[0], loc[1], metrics) {
				continue
			}
			// A multiple is a round figure: "doubled" is said of a rise
			// of 75% to 125%, "nearly doubled" of 70% to 104% (a ratio of
			// 0.85 to 1.02 times the multiple).
			m := Mention{Unit: Percent, Value: 100 * (k - 1), Step: 12.5 * k, Dir: 1, wordWidth: true}
			if nearlyRe().MatchString(low[max(0, loc[0]-16):loc[0]]) {
				lo, hi := 100*(0.85*k-1), 100*(1.02*k-1)
				m.Value, m.Step = (lo+hi)/2, (hi-lo)/2
			}
			if k < 1 {
				m.Value, m.Step, m.Dir = 50, 7.5, -1
			}
			add(loc[0], loc[1], m)
		}
	}
	if strings.Contains(low, "times") {
		for _, loc := range timesPeriodRe().FindAllStringSubmatchIndex(low, -1) {
			n := low[loc[2]:loc[3]]
			k, st := mustFloat(n), step(n, 1)
			if v, _, ok := wordValue(n); ok {
				k, st = v, 0
			}
			if k <= 1 || !multipleOfMetric(low, loc[0], loc[1], metrics) && !multipleAfterMetric(low, loc[0], metrics) {
				continue
			}
			// Written in words, a round figure as "doubled" is; in digits,
			// to its last digit as "2.5x" is.
			m := Mention{Unit: Percent, Value: 100 * (k - 1), Step: 100 * st, Dir: 1, timesBase: loc[4]}
			if st == 0 {
				m.Step, m.wordWidth = 12.5*k, true
			}
			add(loc[0], loc[3]+len(" times"), m)
		}
	}
	if strings.Contains(low, " by ") {
		for _, loc := range fractionRe().FindAllStringSubmatchIndex(low, -1) {
			f := fractionValue(low[loc[6]:loc[7]])
			if f == 0 {
				continue
			}
			// Said of a round share: "by a third" of 29% to 37%, "by
			// nearly a third" of a little less too.
			m := Mention{Unit: Percent, Value: 100 * f, Step: max(2.5, 12*f), wordWidth: true}
			if nearlyRe().MatchString(low[loc[4]:loc[5]]) {
				m.Step = max(5, 20*f)
			}
			add(loc[6], loc[7], m)
		}
	}
}

// fractionOfRe is a part stated as a fraction of a whole: "a third of
// revenue", "half of net sales", "two-thirds of total revenue" (hyphens
// read as spaces in low), or in words of more than half ("the majority
// of", "most of", "the bulk of") and of nearly the whole ("nearly all
// of").
var fractionOfRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(half|(?:a|an|one|two|three|four|five|six|seven|eight|nine|eleven)\s+(?:thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|twelfths?)|` +
		`(?:the\s+)?(?:vast\s+|great\s+|large\s+|overwhelming\s+)?majority|most|the\s+bulk|(?:nearly|almost|virtually|substantially|practically)\s+all)\s+of\s`)
})

// findFractionsOf reads a part stated as a fraction of a line of the
// filings ("operating income was about a third of revenue"): a share in
// percent, which attribute gives its part and whole. A fraction of
// anything else ("half of it", "the second half of 2024") is no figure.
// A fraction is a round figure: held to within 15% of itself (at least
// 2.5 points; "about half" is said of 43% to 57%), a bound ("more than
// half") to the bound.
func findFractionsOf(sentence, low string, t *Table, add func(start, end int, m Mention)) {
	if !hasAny(low, "half", "third", "quarter", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "twelfth", "majority", "most", "bulk", "all") {
		return
	}
	for _, loc := range fractionOfRe().FindAllStringSubmatchIndex(low, -1) {
		s, e := loc[2], loc[3]
		word := low[s:e]
		f, bound := fractionValue(word), 0
		switch {
		case strings.HasSuffix(word, "majority") || word == "most" || strings.HasSuffix(word, "bulk"):
			// More than half, whatever the adjective: "the vast majority"
			// of 55% is loose, not wrong.
			f, bound = 0.5, 1
		case strings.HasSuffix(word, " all"):
			f, bound = 0.85, 1
		}
		pre := low[max(0, s-24):s]
		if f == 0 || strings.HasSuffix(pre, "first ") || strings.HasSuffix(pre, "second ") || strings.HasSuffix(pre, "by ") {
			continue
		}
		if w, _ := wholeAfter(sentence, low, e, t); w.metric == "" {
			if bound != 0 {
				continue // "most of the growth", "nearly all of it": no line named as the whole
			}
			if m, ok := metricIn(low[e:min(len(low), e+40)]); !ok || UnitOf(m) != USD {
				continue // "half of it", "a quarter of the decade"
			}
		}
		m := Mention{Unit: Percent, Value: 100 * f, Step: max(2.5, 15*f), Fraction: true, wordWidth: true}
		if moreRe().MatchString(pre) || lessRe().MatchString(pre) {
			m.Step = 0.5
		}
		if bound != 0 {
			// A bound, not a round figure: more than half, and for
			// "nearly all" 85% up to the whole itself.
			m.Step, m.Bound = 0, bound
			if f > 0.5 {
				m.Hi = 100
			}
		}
		add(s, e, m)
	}
}

// multipleOfMetric reports whether the multiple at start:end is of a
// metric's amount: its subject right before it in its clause ("net income
// more than doubled") or its object right after ("doubled its revenue").
// "Doubled down on AI", "doubled headcount" or a multiple of a margin
// (which doubles in points or in percent) are left unread.
func multipleOfMetric(low string, start, end int, metrics []span) bool {
	if strings.HasPrefix(low[end:], " down") {
		return false
	}
	for _, sp := range metrics {
		if sp.metric == otherMetric || UnitOf(sp.metric) != USD && UnitOf(sp.metric) != USDPerShare {
			continue
		}
		switch {
		case sp.end <= start && start-sp.end <= 48:
			// Only adverbs between: "revenue has more than doubled", not
			// "revenue from China halved" or "revenue growth doubled".
			ok := true
			for _, w := range strings.Fields(low[sp.end:start]) {
				ok = ok && subjectGapWords[w]
			}
			if ok {
				return true
			}
		case sp.start >= end:
			switch strings.TrimSpace(low[end:sp.start]) {
			case "", "its", "their", "the", "his", "her", "our":
				return true
			}
		}
	}
	return false
}

// subjectGapWords may stand between a metric and the multiple it is the
// subject of.
var subjectGapWords = map[string]bool{
	"has": true, "have": true, "had": true, "nearly": true, "almost": true, "roughly": true, "about": true, "more": true,
	"than": true, "over": true, "just": true, "approximately": true, "effectively": true, "all": true, "but": true,
	"then": true, "again": true, "itself": true, "also": true, "already": true, "some": true, "close": true, "to": true,
	"not": true, "quite": true, "well": true, "exactly": true, "a": true, // "grown a hundredfold"
	// A verb of growth before the multiple: "net income grew nearly
	// sevenfold", "revenue rose eightfold" (unread, a wrong one passed).
	"grew": true, "grown": true, "rose": true, "risen": true, "increased": true, "jumped": true, "climbed": true,
	"surged": true, "soared": true, "expanded": true, "been": true, "was": true,
}

// timesPeriodRe is a line stated as a multiple of its figure of another
// year: "revenue was eight times fiscal 2023's", "2.5 times its 2022
// level". The second group is where the year the multiple is of starts.
var timesPeriodRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(\d+(?:\.\d+)?|` + numberWordAlt + `)\s+times\s+(?:(?:its|the|their|that\s+of|what\s+it\s+was\s+in|the\s+level\s+of)\s+)?` +
		`((?:fiscal\s+(?:year\s+)?|fy\s*['’]?)(?:\d{4}|\d{2})|(?:19|20)\d{2})\b`)
})

// multipleAfterMetric reports whether a multiple at start is said of the
// line named before it in its clause with a verb of being between
// ("fiscal 2026 revenue was eight times fiscal 2023's").
func multipleAfterMetric(low string, start int, metrics []span) bool {
	for _, sp := range metrics {
		if sp.end > start || start-sp.end > 40 || sp.metric == otherMetric || UnitOf(sp.metric) != USD && UnitOf(sp.metric) != USDPerShare {
			continue
		}
		if beingGapRe().MatchString(low[sp.end:start]) {
			return true
		}
	}
	return false
}

// beingGapRe is what may stand between a line's name and a multiple of it
// stated with a verb of being: its period and the verb ("revenue in fiscal
// 2026 was roughly 20 times fiscal 2016's").
var beingGapRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\s+(?:in|for)\s+(?:fiscal\s+(?:year\s+)?|fy\s*)?\d{2,4})?\s+(?:was|is|were|are|came\s+to|stood\s+at)` +
		`(?:\s+(?:about|roughly|nearly|almost|now|around|approximately|some))?\s*$`)
})

// nearlyRe is a word that puts a multiple a little above what was reached.
var nearlyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(nearly|almost|close to|not quite)\s*$`) })

// fractionValue is the value of "half", "a third", "two thirds".
func fractionValue(s string) float64 {
	ws := strings.Fields(s)
	if len(ws) == 1 {
		if ws[0] == "half" {
			return 0.5
		}
		return 0
	}
	n := map[string]float64{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
		"nine": 9, "eleven": 11}[ws[0]]
	d := map[string]float64{"third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
		"seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10, "twelfth": 12, "twelfths": 12}[ws[1]]
	if n == 0 || d == 0 || n >= d || (n == 1) != !strings.HasSuffix(ws[1], "s") {
		return 0
	}
	return n / d
}

// hasAny reports whether s contains any of words.
func hasAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// countNoun is the noun right after a number written without a currency
// ("2.35 billion active devices", "two billion users"): what it counts,
// when that is not money; "" when the words after it ("in fiscal 2025",
// "of revenue", "dollars") leave it an amount.
func countNoun(after string) string {
	ws := strings.Fields(after)
	if len(ws) == 0 {
		return ""
	}
	w := strings.TrimRight(ws[0], ".,;:!?)")
	if w == "" || w != ws[0] && len(ws) == 1 || !isWordByte(w[0]) || w[0] >= '0' && w[0] <= '9' {
		return ""
	}
	if moneyWords[w] || len(findMetrics(w)) > 0 {
		return ""
	}
	// An adjective before the noun: "active devices", "monthly users".
	if countAdjectives[w] && len(ws) > 1 {
		if n := strings.TrimRight(ws[1], ".,;:!?)"); plural(n) && !moneyWords[n] && len(findMetrics(n)) == 0 {
			return w + " " + n
		}
		return ""
	}
	if plural(w) {
		return w
	}
	return ""
}

// plural reports whether a word reads as a plural noun ("devices",
// "users", "people"): what a count counts. A verb after an amount
// ("66 billion reflects ...") may pass for one, which leaves the amount
// unverified, never corrected.
func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "ous") || w == "people"
}

// moneyWords may follow an amount written without its currency: "24.3
// billion in revenue", "130.5 billion dollars", "4 billion a quarter".
var moneyWords = map[string]bool{
	"in": true, "for": true, "during": true, "and": true, "or": true, "to": true, "from": true, "at": true, "on": true, "by": true,
	"was": true, "were": true, "is": true, "are": true, "vs": true, "versus": true, "compared": true, "against": true, "a": true,
	"an": true, "the": true, "of": true, "dollars": true, "dollar": true, "usd": true, "us": true, "year": true, "last": true,
	"this": true, "that": true, "which": true, "while": true, "with": true, "up": true, "down": true, "higher": true, "lower": true,
	"more": true, "less": true, "than": true, "annually": true, "worth": true, "as": true, "but": true, "after": true, "before": true,
	"over": true, "under": true, "per": true, "each": true, "total": true, "combined": true, "alone": true, "respectively": true,
	"then": true, "since": true, "through": true, "into": true, "within": true, "ttm": true, "ltm": true, "fy": true, "q1": true,
	"q2": true, "q3": true, "q4": true, "yoy": true, "year-over-year": true, "a year": true, "so": true, "yet": true, "when": true,
	"its": true, "their": true, "his": true, "her": true, "it": true, "they": true, "we": true, "i": true, "he": true, "she": true,
	"cash": true, "net": true, "gross": true, "operating": true, "free": true, "annual": true, "quarterly": true, "fiscal": true,
	"calendar": true, "trailing": true, "reported": true, "gaap": true, "adjusted": true, "higher-than": true, "even": true,
	"only": true, "just": true, "roughly": true, "about": true, "nearly": true, "almost": true, "among": true, "between": true,
}

// countAdjectives stand before the noun a count counts.
var countAdjectives = map[string]bool{
	"active": true, "monthly": true, "daily": true, "paid": true, "paying": true, "installed": true, "registered": true,
	"unique": true, "new": true, "global": true, "total": false,
}

// overYearsRe is a span of years a change is measured over: "between 2022
// and 2025", "from fiscal 2022 to fiscal 2025", "over FY2023-FY2025",
// "since 2022", "over the past three years".
var overYearsRe = sync.OnceValue(func() *regexp.Regexp {
	const y = `(?:(?:fiscal\s+(?:year\s+)?|fy\s*['’]?|calendar\s+(?:year\s+)?|cy\s*['’]?)?(\d{4}|\d{2}))`
	return regexp.MustCompile(`\b(?:(between|from|over|across|in|during)\s+(?:the\s+(?:years?|period)\s+)?` + y + `(?:\s*(?:and|to|through|thru|until|–|—)\s*|\s+)` + y + `\b` +
		`|since\s+` + y + `\b` +
		`|(?:(?:over|in|during|across|within)\s+the\s+(?:past|last|prior)\s+|(?:over|across|within)\s+)(two|three|four|five|six|seven|eight|nine|ten|[2-9]|10)\s+(?:fiscal\s+)?years\b` +
		`|(?:over|in|during|across|within)\s+the\s+(?:past|last|prior)\s+(decade)\b)`)
})

// comparisonRe ends the words before a span of years that make it a
// comparison, not the span a change is measured over: "its fastest since
// 2021", "the highest margin in over three years".
var comparisonRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:fastest|slowest|best|worst|highest|lowest|strongest|weakest|largest|smallest|biggest|first|most|least|record|ever|in|for)\s+(?:\w+\s+)?$`)
})

// yearsOver reads the span of years a growth at start:end is stated over,
// in its clause: the (from, to) fiscal years it may be measured between.
// None when the sentence states no span, or states it apart from the
// figure (across a ";").
func (t *Table) yearsOver(sentence, low string, start, end int) [][2]Period {
	if !hasAny(low, "between", "from", "over", "across", "since", "through", "-", " to ", "–", " in ", "during") {
		return nil
	}
	// Within its clause, and near the figure: read over a whole run-on
	// text for each of its figures, the span took time quadratic in it.
	from, to := window(low, start, end, 160)
	if i := strings.LastIndexByte(low[from:start], ';'); i >= 0 {
		from += i + 1
	}
	if i := strings.IndexByte(low[end:to], ';'); i >= 0 {
		to = end + i
	}
	clause, written := low[from:to], sentence[from:to]
	year := func(s string, fiscal bool) []int {
		y := mustFloat(s)
		if y < 100 {
			y += 2000
		}
		out := []int{int(y)}
		if !fiscal {
			// A calendar year is also the fiscal year ending early in the
			// next one, as candidates reads it.
			for _, p := range t.candidates(Mention{Period: Period{FY: int(y), Q: -1}, Explicit: true}) {
				if p.FY != int(y) {
					out = append(out, p.FY)
				}
			}
		}
		return out
	}
	isFiscal := func(loc []int, g int) bool {
		lead := clause[max(0, loc[g]-12):loc[g]]
		return strings.Contains(lead, "fiscal") || strings.Contains(lead, "fy")
	}
	// A year of two digits only with its prefix ("FY24", "fiscal '24"):
	// "between 10 and 15" is a range of numbers.
	short := func(loc []int, g int) bool {
		lead := strings.TrimRight(clause[max(0, loc[g]-12):loc[g]], " '’")
		return loc[g+1]-loc[g] == 2 && !strings.HasSuffix(lead, "fiscal") && !strings.HasSuffix(lead, "year") &&
			!strings.HasSuffix(lead, "fy") && !strings.HasSuffix(lead, "cy")
	}
	// The pairs of years each span may be measured between; none for a
	// match that is no span ("in 2024 and 2025").
	pairs := func(loc []int) [][2]Period {
		var out [][2]Period
		switch {
		case loc[4] >= 0:
			lead, sep := "", strings.TrimSpace(written[loc[5]:loc[6]])
			if loc[2] >= 0 {
				lead = clause[loc[2]:loc[3]]
			}
			switch {
			case sep == "" || sep == "and" && lead != "between":
				return nil // "in 2024 and 2025", "2024 2025": two years, not a span
			case strings.HasPrefix(sep, "-") && lead == "":
				// "2024-2025 revenue growth": a span only after a word
				// that makes one.
				return nil
			}
			if short(loc, 4) || short(loc, 6) {
				return nil
			}
			a, b := clause[loc[4]:loc[5]], clause[loc[6]:loc[7]]
			if mustFloat(b) < 100 && mustFloat(a) >= 100 {
				return nil // "2024-25": a fiscal year written with both calendar years
			}
			as, bs := year(a, isFiscal(loc, 4)), year(b, isFiscal(loc, 6))
			for _, x := range as {
				for _, y := range bs {
					if y <= x {
						continue
					}
					out = append(out, [2]Period{{FY: x}, {FY: y}})
					if x > t.LatestFY-Years && lead != "between" && lead != "from" {
						// "over 2023-2025" may count 2023's growth too.
						out = append(out, [2]Period{{FY: x - 1}, {FY: y}})
					}
				}
			}
		case loc[8] >= 0:
			if short(loc, 8) {
				return nil
			}
			for _, x := range year(clause[loc[8]:loc[9]], isFiscal(loc, 8)) {
				if x < t.LatestFY {
					out = append(out, [2]Period{{FY: x}, {FY: t.LatestFY}})
				}
			}
		case loc[10] >= 0 || loc[12] >= 0:
			w := "decade"
			if loc[10] >= 0 {
				w = clause[loc[10]:loc[11]]
			}
			n, ok := map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "decade": 10}[w]
			if !ok {
				n = int(mustFloat(w))
			}
			out = append(out, [2]Period{{FY: t.LatestFY - n}, {FY: t.LatestFY}})
		}
		return out
	}
	type found struct {
		loc   []int
		pairs [][2]Period
	}
	var spans []found
	for _, loc := range overYearsRe().FindAllStringSubmatchIndex(clause, -1) {
		if ps := pairs(loc); len(ps) > 0 {
			spans = append(spans, found{loc, ps})
		}
	}
	if len(spans) == 0 {
		return nil
	}
	// A year of its own nearer the figure than the span ("grew 15% in
	// 2025, its fastest since 2021") is the figure's period.
	var own []span
	for _, y := range yearRe().FindAllStringIndex(clause, -1) {
		inSpan := false
		for _, sp := range spans {
			if y[0] >= sp.loc[0] && y[1] <= sp.loc[1] {
				inSpan = true
			}
		}
		if !inSpan {
			own = append(own, span{start: y[0], end: y[1]})
		}
	}
	fig := span{start: start - from, end: end - from}
	var out [][2]Period
	for _, sp := range spans {
		d := dist(fig, span{start: sp.loc[0], end: sp.loc[1]})
		nearer := false
		for _, y := range own {
			if dist(fig, y) < d {
				nearer = true
			}
		}
		if nearer || comparisonRe().MatchString(clause[max(0, sp.loc[0]-32):sp.loc[0]]) {
			continue // "its best since 2021", "the highest in over three years"
		}
		out = append(out, sp.pairs...)
	}
	return out
}

// bpsStep is the precision of a move in basis points: "390 bps" is
// written to the ten (the filing's margins moved 392), "392 bps" to the
// basis point.
func bpsStep(v, st float64) float64 {
	if st == 1 && v >= 10 && math.Mod(v, 10) == 0 {
		return 10
	}
	return st
}

// lossVerb reports whether a loss phrase is a verb ("lost", "losing"):
// of an amount, the loss itself; of a percentage, no loss's change
// ("revenue lost momentum, falling 5%").
func lossVerb(phrase string) bool { return phrase == "lost" || phrase == "losing" || phrase == "loses" }

// growthVerbRe is a verb of growth right before a multiple: "grew 2.1x".
var growthVerbRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(grew|grown|rose|risen|increased|jumped|climbed|surged|soared|expanded|up)\s+(?:by\s+|about\s+|roughly\s+|nearly\s+|almost\s+|more than\s+|over\s+|~)?$`)
})

// segmentWords name, in lower case, a part of a company (a segment, a
// product line, a kind of sale, a region) before a metric's name: "data
// center revenue", "cloud revenue", "services gross margin". Held to the
// company's total, a right figure of the part was corrected.
var segmentWords = map[string]bool{
	"center": true, "centre": true, "datacenter": true, "cloud": true, "services": true, "service": true, "gaming": true,
	"automotive": true, "auto": true, "advertising": true, "ad": true, "ads": true, "search": true, "subscription": true,
	"subscriptions": true, "product": true, "products": true, "hardware": true, "software": true, "licensing": true,
	"license": true, "segment": true, "division": true, "international": true, "domestic": true, "overseas": true,
	"foreign": true, "regional": true, "wearables": true, "networking": true, "visualization": true, "enterprise": true,
	"consumer": true, "commercial": true, "wholesale": true, "online": true, "e-commerce": true, "ecommerce": true,
	"platform": true, "device": true, "devices": true, "hyperscaler": true, "merchandise": true, "store": true,
	"stores": true, "membership": true, "streaming": true, "memory": true, "semiconductor": true, "chip": true,
	"phone": true, "smartphone": true, "pc": true, "console": true, "mobile": true, "payments": true,
}

// annualRateRe names a rate a year over several years: "CAGR", "compound
// annual", "compounded", "annualized", "per year", "annually", "a year".
var annualRateRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(cagr|compound(?:ed|ing)?|annuali[sz]ed|per\s+year|per\s+annum|annually|each\s+year|every\s+year|a\s+year|on\s+average|average\s+annual|annual\s+(?:growth\s+)?(?:rate|pace|clip)|yearly\s+(?:rate|pace))\b`)
})

// spanLeadRe starts the years a rate a year is over, after "a year over"
// or "a year in": "the past decade", "2024 and 2025", "fiscal 2024".
var spanLeadRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:the (?:past|last|prior)|(?:19|20)\d\d|fiscal|fy|calendar|cy)\b`)
})

// annualWordRe calls a growth annual right before its figure: "annual
// revenue growth of 15%", "an annual growth rate of".
var annualWordRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bannual(?:i[sz]ed)?\s+(?:[a-z&]+\s+){0,2}?(?:growth|growth rate|rate of growth|increase)\s+(?:rate\s+)?(?:of\s+|was\s+|is\s+|at\s+|stood at\s+|came in at\s+|reached\s+)?(?:about\s+|roughly\s+|nearly\s+|approximately\s+|~)?$`)
})

// annualRate reports whether the growth at start:end is stated as a rate
// a year, by a cue in its clause near it; "a year" only where it is not
// "a year earlier", "a year ago".
func annualRate(low string, start, end int) bool {
	from, to := window(low, start, end, 60)
	clause := low[from:to]
	if i := strings.LastIndexAny(clause[:start-from], ";,"); i >= 0 {
		clause, from = clause[i+1:], from+i+1
	}
	if i := strings.IndexAny(clause[end-from:], ";,"); i >= 0 {
		clause = clause[:end-from+i]
	}
	for _, loc := range annualRateRe().FindAllStringIndex(clause, -1) {
		if clause[loc[0]:loc[1]] == "a year" || strings.HasPrefix(clause[loc[0]:loc[1]], "a ") {
			next := strings.Fields(strings.Map(func(r rune) rune {
				if r == '.' || r == ')' || r == '!' || r == '?' {
					return ' '
				}
				return r
			}, clause[loc[1]:]))
			// "a year earlier", "a year over year", "a year in which",
			// "a year from now"; but "a year over the past decade", "a
			// year in 2024 and 2025", "a year from 2021 to 2024" state a
			// rate a year.
			if len(next) > 0 && (next[0] == "earlier" || next[0] == "ago" || next[0] == "before" || next[0] == "prior" ||
				next[0] == "on" || next[0] == "of" ||
				(next[0] == "over" || next[0] == "in" || next[0] == "from" || next[0] == "to") &&
					!(len(next) > 1 && spanLeadRe().MatchString(strings.Join(next[1:min(len(next), 3)], " ")))) {
				continue
			}
		}
		return true
	}
	return false
}

// toProfitRe is a return to profit stated without a figure: "returned to
// profitability", "swung back to a profit", "back in the black", "turned
// profitable", "net income turned positive".
var toProfitRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:(?:returned|returning|returns|return|came\s+back|comes\s+back|swung(?:\s+back)?|swings(?:\s+back)?|` +
		`turned(?:\s+back)?|flipped(?:\s+back)?|moved\s+back|got\s+back|went\s+back)\s+(?:to|into)\s+(?:profitability|profit|a\s+profit|the\s+black)|` +
		`back\s+in(?:to)?\s+(?:the\s+black|profit|profitability)|` +
		`(?:turned|turning|turns|became|becoming|becomes|swung|flipped)\s+(?:back\s+)?(positive|profitable))\b`)
})

// signLines are the lines whose sign a return to profit or "turned
// positive" may state.
var signLines = map[Metric]bool{NetIncome: true, OperatingIncome: true, OperatingCashFlow: true, FreeCashFlow: true,
	EPSDiluted: true, EPSBasic: true}

// findReturnsToProfit reads a return to profit stated without a figure: a
// change of sign, from a loss in the period before to a profit in the
// period named, of net income unless the clause names another line before
// it ("operating income returned to profit", "free cash flow turned
// positive"; "turned positive" only of a line). With a figure of the profit
// right after it ("swung to a profit of $2 billion") it is that figure's
// reading. A part of the company as its subject ("Google Cloud turned
// profitable") is a segment's, which the filings' totals do not settle.
func findReturnsToProfit(sentence, low string, metrics []span, t *Table, add func(start, end int, m Mention)) {
	if !hasAny(low, "profit", "black", "positive") {
		return
	}
	hist := profitHistoryOf(low)
	locs := toProfitRe().FindAllStringSubmatchIndex(low, -1)
	if len(locs) == 0 && hist.since != nil {
		// "posted its first annual profit since 2021": a return to profit
		// too, stated by the year it was last made.
		locs = [][]int{{hist.sinceAt[0], hist.sinceAt[1], -1, -1}}
	}
	for _, loc := range locs {
		s, e := loc[0], loc[1]
		rest := low[e:min(len(low), e+24)]
		if ofFigureRe().MatchString(rest) || strings.HasPrefix(strings.TrimSpace(rest), "growth") ||
			strings.HasPrefix(strings.TrimSpace(rest), "margin") {
			continue
		}
		if negatedRe().MatchString(low[max(0, s-24):s]) {
			continue // "has not yet returned to profitability": no change stated
		}
		var line span
		for _, sp := range metrics {
			if sp.end <= s && sp.start >= line.start && sp.metric != otherMetric {
				line = sp
			}
		}
		m := Mention{Unit: USD, ToProfit: true, Metric: NetIncome, History: hist.history}
		switch {
		case line.metric != "" && signLines[line.metric] && !clauseBreak(low[line.end:s]) && s-line.end <= 40:
			m.Metric = line.metric
			m.Segment = segmentBefore(sentence, low, line, t)
		case loc[2] >= 0 && low[loc[2]:loc[3]] == "positive":
			continue // "sentiment turned positive": no line named
		default:
			m.Segment = segmentNamedBefore(sentence, subjectEnd(low, s), t)
		}
		add(s, e, m)
	}
}

// ProfitHistory is what a return to profit says of the years before it:
// "after two years of losses", "after losses in 2022 and 2023", "its first
// profit since 2021". Unread, only the year before was held to a loss, and
// a wrong history passed with a right return.
type ProfitHistory struct {
	// Run is the number of loss years right before the year of the return
	// ("after three years of losses"); 0 when not stated.
	Run int
	// Losses are the years stated as losses ("after losses in 2022 and
	// 2023", "lost money in 2021, 2022 and 2023"), Profits those stated as
	// profits ("was profitable in 2021").
	Losses, Profits []Period
	// Since is the year the profit was last made ("its first profit since
	// 2021"): a profit, and every year after it until the return a loss.
	Since *Period
}

type profitHistory struct {
	history *ProfitHistory
	since   *Period
	sinceAt []int
}

var (
	// lossRunRe is a run of loss years before a return: "after three
	// years of losses", "after a single loss-making year", "following two
	// consecutive years in the red" (hyphens read as spaces).
	lossRunRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:after|following|ending|ended|ends)\s+(a\s+single|a|one|two|three|four|five|six|[1-6])\s+` +
			`(?:consecutive\s+|straight\s+|successive\s+|full\s+)?(?:(?:fiscal\s+)?years?\s+of\s+(?:net\s+|operating\s+)?loss(?:es)?|` +
			`loss\s*making\s+years?|unprofitable\s+years?|(?:fiscal\s+)?years?\s+in\s+the\s+red|(?:fiscal\s+)?years?\s+of\s+red\s+ink)\b`)
	})
	// yearListRe is a list of years: "2022 and 2023", "fiscal 2021, 2022
	// and 2023".
	yearList = `((?:fiscal\s+)?(?:19|20)\d{2}(?:(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+)(?:fiscal\s+)?(?:19|20)\d{2})*)`
	// lossYearsRe states years as losses; profitYearsRe as profits.
	lossYearsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:(?:after|following)\s+(?:net\s+|operating\s+)?loss(?:es)?|lost\s+money|posted\s+(?:net\s+)?losses|` +
			`reported\s+(?:net\s+)?losses|ran\s+losses|(?:was|were)\s+unprofitable)\s+in\s+` + yearList)
	})
	profitYearsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:was|were|been|remained|stayed)\s+profitable\s+in\s+` + yearList)
	})
	// profitSinceRe is "its first (annual) profit since 2021".
	profitSinceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bfirst\s+(?:annual\s+|full\s+year\s+|yearly\s+)?(?:net\s+)?(?:profit|net\s+income|profitable\s+year)\s+since\s+((?:fiscal\s+)?(?:19|20)\d{2})\b`)
	})
)

// profitHistoryOf reads what a sentence says of the years before a return
// to profit; a nil history when it says nothing.
func profitHistoryOf(low string) profitHistory {
	var out profitHistory
	if !hasAny(low, "loss", "lost", "red", "unprofitable", "profitable", "since") {
		return out
	}
	h := &ProfitHistory{}
	years := func(list string) []Period {
		var ps []Period
		fiscal := false
		for _, y := range yearRe().FindAllStringIndex(list, -1) {
			fiscal = fiscal || strings.HasSuffix(strings.TrimSpace(list[:y[0]]), "fiscal")
			p := Period{FY: int(mustFloat(list[y[0]:y[1]])), Q: -1}
			if fiscal {
				p.Q = 0 // "fiscal 2021, 2022 and 2023": said once for all
			}
			ps = append(ps, p)
		}
		return ps
	}
	if loc := lossRunRe().FindStringSubmatchIndex(low); loc != nil {
		w := low[loc[2]:loc[3]]
		h.Run = map[string]int{"a single": 1, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}[w]
		if h.Run == 0 {
			h.Run = int(mustFloat(w))
		}
	}
	for _, loc := range lossYearsRe().FindAllStringSubmatchIndex(low, -1) {
		h.Losses = append(h.Losses, years(low[loc[2]:loc[3]])...)
	}
	for _, loc := range profitYearsRe().FindAllStringSubmatchIndex(low, -1) {
		h.Profits = append(h.Profits, years(low[loc[2]:loc[3]])...)
	}
	if loc := profitSinceRe().FindStringSubmatchIndex(low); loc != nil {
		if ps := years(low[loc[2]:loc[3]]); len(ps) == 1 {
			h.Since, out.since, out.sinceAt = &ps[0], &ps[0], loc[:2]
		}
	}
	if h.Run > 0 || len(h.Losses) > 0 || len(h.Profits) > 0 || h.Since != nil {
		out.history = h
	}
	return out
}

// negatedRe is a negation right before a verb: "has not", "never", "has
// yet to", "failed to".
var negatedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:not|never|n't|yet\s+to|failed\s+to|no\s+longer|unable\s+to)\b(?:\s+\w+)?\s*$`)
})

// subjectEnd is where the subject of the verb at s ends: back over the
// auxiliaries and adverbs between them ("Google Cloud has finally turned
// profitable").
func subjectEnd(low string, s int) int {
	for {
		head := strings.TrimRight(low[:s], " ")
		i := strings.LastIndexByte(head, ' ') + 1
		w := head[i:]
		if w == "" || !(strings.HasSuffix(w, "ly") || w == "has" || w == "have" || w == "had" || w == "also" || w == "again" ||
			w == "just" || w == "already" || w == "was" || w == "is" || w == "were" || w == "are" || w == "now" || w == "then") {
			return s
		}
		s = i
	}
}

// ofFigureRe is a figure right after "of": "of $2 billion", "of 1.2".
var ofFigureRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s+of\s+(?:about\s+|roughly\s+|nearly\s+|almost\s+|over\s+|more\s+than\s+)?[-$(\d]`)
})

// directionVerbRe is a verb of a line's move with no figure: "revenue fell
// in fiscal 2024", "net income fell for a second straight year in fiscal
// 2024". The second group is the count of a streak.
var directionVerbRe = sync.OnceValue(func() *regexp.Regexp {
	// An adverb of degree may stand between the verb and the year: "fell
	// slightly in 2025".
	return regexp.MustCompile(`\b(rose|fell|grew|declined|increased|decreased|dropped|shrank|contracted|slipped|dipped|climbed|jumped|surged|slumped|rebounded|recovered|expanded|` +
		`narrowed|widened|compressed|eroded)` +
		`(?:\s+(?:slightly|sharply|modestly|marginally|significantly|substantially|steeply|strongly|somewhat|again|further))?` +
		`(?:\s+for\s+(?:a|the)\s+(second|third|fourth|fifth|2nd|3rd|4th|5th)\s+(?:straight|consecutive|successive)\s+(?:fiscal\s+)?years?)?\s+(?:in|during)\s+`)
})

// marginVerbs are the verbs of a move read of a margin only ("operating
// margin narrowed in 2025"); unread, a margin's wrong direction passed.
var marginVerbs = map[string]bool{"narrowed": true, "widened": true, "compressed": true, "eroded": true}

// directionGapWords may stand between a line's name and its verb.
var directionGapWords = map[string]bool{"also": true, "again": true, "slightly": true, "sharply": true, "modestly": true, "only": true,
	"even": true, "further": true, "then": true, "actually": true, "still": true, "steadily": true}

// findDirections reads the move of a line stated with no figure ("Apple's
// revenue declined in fiscal 2024", "net income fell for a second straight
// year in fiscal 2024"): its direction, held to the sign of the line's
// change in the period named (and the years before it, for a streak).
// Unread, a wrong direction passed whenever no figure came with it. Only
// the line right before the verb as its subject, a period right after it,
// and no figure in the rest of the sentence (whose own reading holds it).
func findDirections(sentence, low string, metrics []span, periods []span, add func(start, end int, m Mention)) {
	if !hasAny(low, "rose", "fell", "grew", "declin", "increased", "decreased", "dropped", "shrank", "contracted", "slipped", "dipped",
		"climbed", "jumped", "surged", "slumped", "rebounded", "recovered", "expanded", "narrowed", "widened", "compressed", "eroded") {
		return
	}
	// The line of the move before, which a move joined to it ("revenue
	// grew in 2023 but fell in 2024") shares as its subject.
	var prev span
	prevEnd := -1
	for _, loc := range directionVerbRe().FindAllStringSubmatchIndex(low, -1) {
		s, e := loc[2], loc[3]
		// The period right after "in".
		var period *span
		for i := range periods {
			if periods[i].start == loc[1] || periods[i].start == loc[1]+len("the ") && strings.HasPrefix(low[loc[1]:], "the ") {
				period = &periods[i]
			}
		}
		if period == nil || period.relative {
			continue
		}
		// The subject: a line of the filings right before the verb.
		var line span
		for _, sp := range metrics {
			if sp.end <= s && s-sp.end <= 24 && sp.metric != otherMetric {
				line = sp
			}
		}
		shared := false
		if (line.metric == "" || line.end <= prevEnd) && prev.metric != "" && prevEnd >= 0 && prevEnd <= s && sharedSubjectRe().MatchString(low[prevEnd:s]) {
			line, shared = prev, true
		}
		if line.metric == "" || line.loss {
			continue
		}
		ok := true
		for _, w := range strings.Fields(low[line.end:s]) {
			ok = ok && (shared || directionGapWords[w])
		}
		// The share count too: "the share count fell in fiscal 2026".
		u := UnitOf(line.metric)
		if !ok || u != USD && u != USDPerShare && u != SharesUnit && marginOf[lineOf(line.metric)] != line.metric {
			continue
		}
		// A margin narrows, widens, compresses or erodes: of an amount
		// these words say something else (a gap, a loss) or nothing.
		if marginVerbs[low[s:e]] && marginOf[lineOf(line.metric)] != line.metric {
			continue
		}
		if negatedRe().MatchString(low[max(0, line.start-24):s]) {
			continue
		}
		// No figure in the rest of the sentence but periods.
		// Near it: in a run-on text, read to its end for each verb, the
		// rest took time quadratic in the text.
		end := min(len(low), period.end+200)
		if i := strings.IndexByte(low[period.end:end], ';'); i >= 0 {
			end = period.end + i
		}
		rest := []byte(low[period.end:end])
		for _, sp := range periods {
			if sp.start >= period.end && sp.end <= end {
				for i := sp.start; i < sp.end; i++ {
					rest[i-period.end] = ' '
				}
			}
		}
		if strings.ContainsAny(string(rest), "0123456789$%") || strings.ContainsAny(low[max(0, line.start-40):s], "$%") {
			continue
		}
		// A move from another base than a year earlier ("from the quarter
		// before", "since 2021", "compared with fiscal 2023") is not the
		// change the table holds for the period.
		if hasAny(string(rest), " from ", " since ", "compared", " versus ", " vs", " than ", "relative to", "sequential", "quarter before",
			"prior quarter", "previous quarter", "q/q", "qoq", " over the ") {
			continue
		}
		dir := 1
		if downRe().MatchString(low[s:e]) {
			dir = -1
		}
		streak := 1
		if loc[4] >= 0 {
			streak = map[string]int{"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}[low[loc[4]:loc[5]]]
		}
		// The figure is the line and its verb: the period after it is
		// then the nearest, as for any figure.
		start := line.start
		if shared {
			start = s
		}
		add(start, e, Mention{Unit: Percent, DirOnly: true, Dir: dir, Streak: streak, Metric: line.metric})
		prev, prevEnd = line, period.end
	}
}

// streakRe is a move stated of every year of a span, with no figure:
// "has grown every year since 2021", "rose in each year from fiscal 2022
// to fiscal 2025", "declined in each of the last three years", "fell for
// three consecutive years (through fiscal 2024)". Groups: the verb; the
// word that opens a span of years (since, from, between); a count of
// years; a count of consecutive years and the word before the year they
// end in.
var streakRe = sync.OnceValue(func() *regexp.Regexp {
	const verb = `(rose|risen|grew|grown|increased|climbed|expanded|fell|fallen|declined|decreased|dropped|shrunk|shrank|contracted|` +
		`raised|lifted|boosted|hiked|cut|reduced|lowered|trimmed|improved|worsened|deteriorated)`
	n := `(` + streakCountAlt + `)`
	// The line may follow the verb as its object: "has grown revenue for
	// five straight years", "increased its net income in each of".
	const object = `(?:\s+(?:(?:its|the|their)\s+)?([a-z&][a-z&' ]{0,40}?))??`
	// Groups 7 and 8 (after the through of group 6) are the counts of
	// "12 years in a row", "for a decade straight" and of "every year
	// for the past ten years", "each year over the last decade".
	return regexp.MustCompile(`\b` + verb + object + `\s+(?:(?:in\s+)?(?:every|each)\s+(?:single\s+)?(?:fiscal\s+)?year\s+(since|from|between)\s+` +
		`|(?:in\s+)?each\s+of\s+the\s+(?:last|past)\s+` + streakBound + n + `\s+(?:fiscal\s+)?years\b` +
		`|(?:for\s+)?` + streakBound + n + `\s+(?:straight|consecutive|successive)\s+(?:fiscal\s+)?years\b(?:\s+(through|to|in|ending\s+in|into)\s+)?` +
		`|(?:for\s+)?` + streakBound + `(` + streakCountAlt + `\s+(?:fiscal\s+)?years|a\s+(?:full\s+)?decade)\s+(?:straight|running|in\s+a\s+row)\b` +
		`|(?:in\s+)?(?:every|each)\s+(?:single\s+)?(?:fiscal\s+)?year\s+(?:for|over|in|during|of)\s+` + streakBound +
		`(?:the\s+(?:last|past|previous)\s+|a\s+(?:full\s+)?)` + streakBound + `(` + streakCountAlt + `\s+(?:fiscal\s+)?years|decade)\b)`)
})

// streakCountAlt is a count of years of a streak, in words or digits:
// two to twenty, or 2 to 99.
const streakCountAlt = `two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|` +
	`eighteen|nineteen|twenty|[2-9]|[1-9][0-9]`

// streakBound is a bound before a streak's count: "for more than ten
// straight years" holds at least of the ten, "nearly a decade" of nine.
const streakBound = `(?:(?:more\s+than|over|at\s+least|nearly|almost|close\s+to)\s+)?`

// streakCount is the count of years of a streak's words ("twelve", "12
// fiscal years", "a full decade"), one less after "nearly" or "almost"
// (before); 0 when none.
func streakCount(words, before string) int {
	n := 0
	w := strings.Fields(words)
	switch {
	case len(w) == 0:
	case strings.Contains(words, "decade"):
		n = 10
	default:
		if v, ok := numberWords[w[0]]; ok && v >= 2 {
			n = int(v)
		} else if v, err := strconv.Atoi(w[0]); err == nil {
			n = v
		}
	}
	if b := strings.TrimSpace(before); strings.HasSuffix(b, "nearly") || strings.HasSuffix(b, "almost") || strings.HasSuffix(b, "close to") {
		n--
	}
	return n
}

// spanJoinRe joins the two ends of a span of years.
var spanJoinRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(?:to|through|and|until|till)\s+`) })

// streakGapWords may stand between a line's name and the verb of a streak.
var streakGapWords = map[string]bool{"has": true, "have": true, "had": true, "steadily": true, "consistently": true, "also": true}

// findStreaks reads a move stated of every year of a span with no figure
// (streakRe), held as a streak: the line's change in each year of the span
// has the sign stated, the span ending in the year named, else in the
// latest year the table holds. Unread, "revenue has grown every year
// since 2022" passed though it fell in 2024.
func findStreaks(low string, metrics []span, periods []span, t *Table, add func(start, end int, m Mention)) {
	if t == nil || !hasAny(low, " every ", " each ", "consecutive", "straight", "successive", "in a row", "running") {
		return
	}
	at := func(pos int) *span {
		for i := range periods {
			if periods[i].start == pos || periods[i].start == pos+len("the ") && strings.HasPrefix(low[pos:], "the ") {
				return &periods[i]
			}
		}
		return nil
	}
	fyOf := func(sp *span) (Period, int) {
		p := sp.period
		fy := p.FY
		if sp.metric == "calendar" {
			p.Q = -1
			// A calendar year mostly in the next fiscal year (a year to
			// January): the span's years are counted from that one.
			if t.FYEndMonth <= 6 && !t.FYNamedForStart {
				fy++
			}
		}
		return p, fy
	}
	for _, loc := range streakRe().FindAllStringSubmatchIndex(low, -1) {
		s, e := loc[2], loc[3]
		end := Period{FY: t.LatestFY}
		streak, phraseEnd := 0, loc[1]
		switch {
		case loc[6] >= 0: // since, from, between
			first := at(loc[1])
			if first == nil || first.relative || first.period.Q != 0 {
				continue
			}
			_, startFY := fyOf(first)
			phraseEnd = first.end
			if w := low[loc[6]:loc[7]]; w != "since" {
				join := spanJoinRe().FindStringIndex(low[first.end:])
				if join == nil {
					continue
				}
				last := at(first.end + join[1])
				if last == nil || last.relative || last.period.Q != 0 {
					continue
				}
				var lastFY int
				end, lastFY = fyOf(last)
				startFY += lastFY - last.period.FY // both read alike
				phraseEnd = last.end
			}
			streak = end.FY - startFY
			if end.Q == -1 {
				_, endFY := fyOf(&span{period: Period{FY: end.FY}, metric: "calendar"})
				streak = endFY - startFY
			}
		case loc[8] >= 0: // each of the last N years
			streak = streakCount(low[loc[8]:loc[9]], low[:loc[8]])
		case loc[14] >= 0: // N years in a row
			streak = streakCount(low[loc[14]:loc[15]], low[:loc[14]])
		case loc[16] >= 0: // every year for the past N years
			streak = streakCount(low[loc[16]:loc[17]], low[:loc[16]])
		case loc[10] >= 0: // for N consecutive years
			streak = streakCount(low[loc[10]:loc[11]], low[:loc[10]])
			if loc[12] >= 0 {
				last := at(loc[1])
				if last == nil || last.relative || last.period.Q != 0 {
					continue
				}
				end, _ = fyOf(last)
				phraseEnd = last.end
			}
		}
		if streak < 1 {
			continue
		}
		// The subject: a line of the filings right before the verb; or
		// its object, the whole of the words after it.
		var line span
		ok := true
		if loc[4] >= 0 {
			for _, sp := range metrics {
				if sp.start == loc[4] && sp.end == loc[5] && sp.metric != otherMetric {
					line = sp
				}
				if sp.start == loc[4] && sp.end == loc[5] && sp.name == "dividend" {
					// "has raised its dividend for three consecutive
					// years": the dividend a share.
					line, line.metric = sp, DividendsPerShare
				}
			}
			if line.metric == "" || line.loss || negatedRe().MatchString(low[max(0, s-24):s]) {
				continue
			}
		} else {
			for _, sp := range metrics {
				if sp.end <= s && s-sp.end <= 24 && sp.metric != otherMetric {
					line = sp
				}
			}
			if line.metric == "" || line.loss {
				continue
			}
			for _, w := range strings.Fields(low[line.end:s]) {
				ok = ok && (directionGapWords[w] || streakGapWords[w])
			}
		}
		u := UnitOf(line.metric)
		if !ok || u != USD && u != USDPerShare && marginOf[lineOf(line.metric)] != line.metric {
			continue
		}
		if v := low[s:e]; (v == "improved" || v == "worsened" || v == "deteriorated") && !signLines[line.metric] && marginOf[lineOf(line.metric)] != line.metric {
			continue // a cost that "improved" may have fallen: only a result or a margin is better higher
		}
		first := min(line.start, s)
		if negatedRe().MatchString(low[max(0, first-24):s]) {
			continue
		}
		// No figure in its clause: "grew 12% every year since 2021" is a
		// rate, read as one.
		clause := low[first:]
		if i := strings.IndexAny(clause, ";"); i >= 0 {
			clause = clause[:i]
		}
		if strings.ContainsAny(clause, "$%") {
			continue
		}
		dir := 1
		if downRe().MatchString(low[s:e]) || actVerbs[low[s:e]] < 0 {
			dir = -1
		}
		p := end
		add(first, phraseEnd, Mention{Unit: Percent, DirOnly: true, Dir: dir, Streak: streak, Metric: line.metric, pinned: &p})
	}
}

// sharedSubjectRe is what joins a second move to the first, whose line it
// shares: "grew in 2023 but fell in 2024", "rose in 2023 and again in
// 2024", ", then declined in".
var sharedSubjectRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*,?\s*(?:but|and|then|before|only\s+to|yet)(?:\s+(?:then|it|again|also|sharply|slightly))?\s+$`)
})

// recordRe is a record stated of a line with no figure: "net income hit a
// record in fiscal 2023", "posted record revenue in fiscal 2025". The
// first group is the line's name after "record", when it comes after.
var recordRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:hit|reached|set|posted|reported|marked|achieved|delivered)\s+(?:a\s+|an\s+)?(?:new\s+|all\s+time\s+)?record(?:\s+high)?` +
		`(?:\s+((?:net\s+|operating\s+|gross\s+|free\s+)?[a-z&]+(?:\s+[a-z&]+)?))?\s+(?:in|for)\s+`)
})

// findRecords reads a record stated of a line with no figure, held to the
// line's figures of the years before: wrong when one of them was higher.
// Higher than every year the table holds, it is unverified: an earlier
// year may have been higher still.
func findRecords(sentence, low string, metrics []span, periods []span, add func(start, end int, m Mention)) {
	if !strings.Contains(low, "record") {
		return
	}
	for _, loc := range recordRe().FindAllStringSubmatchIndex(low, -1) {
		var period *span
		for i := range periods {
			if periods[i].start == loc[1] || periods[i].start == loc[1]+len("the ") && strings.HasPrefix(low[loc[1]:], "the ") {
				period = &periods[i]
			}
		}
		if period == nil || period.relative || period.period.TTM {
			continue
		}
		var line span
		for _, sp := range metrics {
			switch {
			case loc[2] >= 0 && sp.start >= loc[2] && sp.end <= loc[3]:
				line = sp // "posted record revenue in"
			case loc[2] < 0 && sp.end <= loc[0] && loc[0]-sp.end <= 24 && strings.TrimSpace(low[sp.end:loc[0]]) == "":
				line = sp // "net income hit a record in"
			}
		}
		if line.metric == "" || line.metric == otherMetric || line.loss || UnitOf(line.metric) != USD && UnitOf(line.metric) != USDPerShare {
			continue
		}
		if negatedRe().MatchString(low[max(0, loc[0]-24):loc[0]]) || strings.ContainsAny(low[loc[1]:], "$%") {
			continue
		}
		e := strings.TrimRight(low[:loc[1]], " ")
		e = strings.TrimSuffix(strings.TrimSuffix(e, " in"), " for")
		add(min(line.start, loc[0]), max(line.end, len(e)), Mention{Unit: USD, Record: true, Metric: line.metric})
	}
}

// signStreakRe is a result's sign stated of every year of a span: "has
// lost money in each of the last three years", "posted losses for three
// consecutive years", "has been profitable for five straight years". The
// first group is a loss's words, the second a profit's, the third and
// fourth the count of years.
var signStreakRe = sync.OnceValue(func() *regexp.Regexp {
	n := `(` + streakCountAlt + `)`
	return regexp.MustCompile(`\b(?:(lost\s+money|posted\s+(?:net\s+|annual\s+)?losses|reported\s+(?:net\s+|annual\s+)?losses|been\s+unprofitable|been\s+loss\s+making|operated\s+at\s+a\s+loss|run\s+at\s+a\s+loss)|` +
		`(been\s+profitable|posted\s+(?:net\s+|annual\s+)?profits|reported\s+(?:net\s+|annual\s+)?profits|made\s+money|turned\s+a\s+profit|earned\s+a\s+profit))\s+` +
		`(?:in\s+each\s+of\s+the\s+(?:last|past)\s+` + streakBound + n + `\s+(?:fiscal\s+)?years\b|for\s+` + streakBound + n + `\s+(?:straight|consecutive|successive)\s+(?:fiscal\s+)?years\b` +
		`|(?:for\s+)?` + streakBound + `(` + streakCountAlt + `\s+(?:fiscal\s+)?years|a\s+(?:full\s+)?decade)\s+(?:straight|running|in\s+a\s+row)\b)`)
})

// findSignStreaks reads a result's sign stated of every year of a span
// (signStreakRe), held to net income's sign in each of the span's years
// to the latest: unread, "has lost money in each of the last three years"
// passed though one of them was a profit. A part's result (a segment
// named as the subject) is no company total; a negated one states none.
func findSignStreaks(sentence, low string, t *Table, add func(start, end int, m Mention)) {
	if t == nil || !hasAny(low, "consecutive", "straight", "successive", "each of", "in a row", "running") {
		return
	}
	for _, loc := range signStreakRe().FindAllStringSubmatchIndex(low, -1) {
		s, e := loc[0], loc[1]
		// Its clause, near it: in a run-on text, read to its end for each
		// phrase, the rest took time quadratic in the text.
		rest := low[e:min(len(low), e+200)]
		if i := strings.IndexAny(rest, ";."); i >= 0 {
			rest = rest[:i]
		}
		if negatedRe().MatchString(low[max(0, s-24):s]) || strings.ContainsAny(rest, "$%") {
			continue
		}
		// Only a span to the latest year: "for two consecutive years
		// before returning to profit in 2024", "after posting losses for
		// three straight years" end earlier, in a year they may not name.
		if strings.ContainsAny(rest, "0123456789") || hasAny(rest, "before", "until", "till", "through", "prior", "then", "ended", "ending", "to ", "since", "between") ||
			hasAny(low[max(0, s-40):s], "after", "following", "before", "until", "prior", "earlier", "previously", "had ") {
			continue
		}
		n := 0
		for _, g := range []int{6, 8, 10} {
			if loc[g] >= 0 {
				n = streakCount(low[loc[g]:loc[g+1]], low[:loc[g]])
			}
		}
		sign := -1
		if loc[4] >= 0 {
			sign = 1
		}
		p := Period{FY: t.LatestFY}
		m := Mention{Unit: USD, Metric: NetIncome, SignStreak: sign, Streak: n, pinned: &p}
		m.Segment = segmentNamedBefore(sentence, subjectEnd(low, s), t)
		add(s, e, m)
	}
}

// presenceStreakRe is a return of cash stated of every year of a span:
// "has bought back stock every year since 2013", "has paid a dividend for
// twelve consecutive years", "repurchased shares in each of the last ten
// years". Groups: the buyback's words, the dividend's, a year the span
// runs from, and a count of years (three forms).
var presenceStreakRe = sync.OnceValue(func() *regexp.Regexp {
	n := `(` + streakCountAlt + `)`
	return regexp.MustCompile(`\b(?:(bought\s+back|repurchased|repurchasing|buying\s+back)\s+(?:its\s+(?:own\s+)?)?(?:common\s+)?(?:stock|shares)|` +
		`(paid|paying|declared|raised|paid\s+out)\s+(?:a\s+|its\s+)?(?:cash\s+|quarterly\s+)?dividends?)\s+` +
		`(?:(?:in\s+)?(?:every|each)\s+(?:fiscal\s+)?year\s+since\s+(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d\d)\b|` +
		`for\s+` + streakBound + n + `\s+(?:straight|consecutive|successive)\s+(?:fiscal\s+)?years\b|` +
		`(?:in\s+)?every\s+year\s+for\s+(?:the\s+(?:last|past)\s+)?` + n + `\s+years\b|` +
		`in\s+each\s+of\s+the\s+(?:last|past)\s+` + n + `\s+(?:fiscal\s+)?years\b)`)
})

// findPresenceStreaks reads buybacks or dividends stated of every year of
// a span (presenceStreakRe), held to the cash the filings say was paid in
// each year to the latest: some in every one, or the streak is wrong.
// Unread, "has bought back stock every year since fiscal 2013" passed
// though NVIDIA bought none in fiscal 2020 to 2022. A raise of the
// dividend is a move, read by the streaks of moves.
func findPresenceStreaks(low string, t *Table, add func(start, end int, m Mention)) {
	if t == nil || !hasAny(low, "since", "consecutive", "straight", "successive", "each of", "every year") {
		return
	}
	for _, loc := range presenceStreakRe().FindAllStringSubmatchIndex(low, -1) {
		s, e := loc[0], loc[1]
		if loc[4] >= 0 && strings.HasPrefix(low[loc[4]:loc[5]], "raised") {
			continue
		}
		rest := low[e:min(len(low), e+120)]
		if i := strings.IndexAny(rest, ";."); i >= 0 {
			rest = rest[:i]
		}
		if negatedRe().MatchString(low[max(0, s-24):s]) || strings.ContainsAny(rest, "$%0123456789") ||
			hasAny(rest, "until", "till", "through", "before", "ended", "ending") || hasAny(low[max(0, s-40):s], "after", "until", "before", "had ") {
			continue
		}
		n := 0
		if loc[6] >= 0 {
			y, _ := strconv.Atoi(low[loc[6]:loc[7]])
			n = t.LatestFY - y + 1
		}
		for _, g := range []int{8, 10, 12} {
			if loc[g] >= 0 {
				n = streakCount(low[loc[g]:loc[g+1]], low[:loc[g]])
			}
		}
		if n < 1 {
			continue
		}
		metric := Repurchases
		if loc[4] >= 0 {
			metric = Dividends
		}
		p := Period{FY: t.LatestFY}
		add(s, e, Mention{Unit: USD, Metric: metric, SignStreak: 1, Streak: n, pinned: &p})
	}
}

// streakNounRe is a streak named as a noun: "12 consecutive years of
// revenue growth", "a decade of dividend increases", "ten straight
// annual dividend hikes". Groups: the count (of years, or of yearly
// moves), the line's words, the noun of the move.
var streakNounRe = sync.OnceValue(func() *regexp.Regexp {
	const moves = `(growth|increases|increase|gains|rises|hikes|raises|expansion|declines|decline|decreases|cuts|contraction|drops)`
	const line = `((?:(?:consecutive|straight|successive|uninterrupted|unbroken|annual|yearly)\s+)*[a-z&][a-z&' ]{0,40}?)`
	return regexp.MustCompile(`\b` + streakBound + `(?:(` + streakCountAlt + `|a\s+(?:full\s+)?decade)\s+(?:(?:straight|consecutive|successive|uninterrupted|unbroken)\s+)?` +
		`(?:(?:fiscal\s+)?years?\s+)?of\s+|(` + streakCountAlt + `)\s+(?:straight|consecutive|successive|uninterrupted|unbroken)\s+(?:annual|yearly)\s+)` +
		line + `\s+` + moves + `\b`)
})

// findStreakNouns reads a streak named as a noun (streakNounRe), held as
// the streak of its verb is: the line moved the way the noun says in each
// of the years counted, to the latest. A count of years must say so
// ("years of", "a decade of") or count yearly moves ("annual hikes"):
// "three quarters of revenue growth" is none.
func findStreakNouns(low string, metrics []span, t *Table, add func(start, end int, m Mention)) {
	if t == nil || !hasAny(low, "years of", "decade of", "annual", "yearly") {
		return
	}
	for _, loc := range streakNounRe().FindAllStringSubmatchIndex(low, -1) {
		var n int
		switch {
		case loc[2] >= 0:
			// "12 consecutive years of": the years must be named, or the
			// count be a decade's.
			if w := low[loc[2]:loc[3]]; !strings.Contains(w, "decade") && !strings.Contains(low[loc[3]:loc[6]], "year") {
				continue
			}
			n = streakCount(low[loc[2]:loc[3]], low[:loc[2]])
		case loc[4] >= 0:
			n = streakCount(low[loc[4]:loc[5]], low[:loc[4]])
		}
		if n < 2 {
			continue
		}
		var line span
		for _, sp := range metrics {
			if sp.start >= loc[6] && sp.end <= loc[7] {
				switch {
				case sp.name == "dividend" || sp.name == "dividends" || sp.metric == Dividends:
					// "dividend increases": the dividend a share.
					line, line.metric = sp, DividendsPerShare
				case sp.metric != otherMetric && !sp.loss:
					line = sp
				}
			}
		}
		if line.metric == "" {
			continue
		}
		// The line's words are the line's and the streak's: "years of
		// revenue growth", not "years of growth in a segment's revenue".
		for _, w := range strings.Fields(low[loc[6]:line.start] + " " + low[line.end:loc[7]]) {
			if !map[string]bool{"consecutive": true, "straight": true, "successive": true, "uninterrupted": true, "unbroken": true,
				"annual": true, "yearly": true, "its": true, "the": true, "their": true, "per": true, "share": true}[w] {
				line.metric = ""
			}
		}
		u := UnitOf(line.metric)
		if line.metric == "" || u != USD && u != USDPerShare && marginOf[lineOf(line.metric)] != line.metric {
			continue
		}
		if negatedRe().MatchString(low[max(0, loc[0]-24):loc[0]]) {
			continue
		}
		// An end other than the latest year ("through 2019", "until
		// 2022", "before") is one the words do not pin here.
		rest := low[loc[1]:min(len(low), loc[1]+40)]
		if i := strings.IndexAny(rest, ".;"); i >= 0 {
			rest = rest[:i]
		}
		if strings.ContainsAny(rest, "0123456789$%") || hasAny(rest, "through", "until", "till", "ended", "ending", "before", "prior") ||
			hasAny(low[max(0, loc[0]-30):loc[0]], "after", "following", "ended", "snapped", "broke", "before") {
			continue
		}
		dir := 1
		if hasAny(low[loc[8]:loc[9]], "decline", "decrease", "cuts", "contraction", "drops") {
			dir = -1
		}
		p := Period{FY: t.LatestFY}
		add(loc[0], loc[1], Mention{Unit: Percent, DirOnly: true, Dir: dir, Streak: n, Metric: line.metric, pinned: &p})
	}
}
