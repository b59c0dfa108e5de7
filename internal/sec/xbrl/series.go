package xbrl

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrNoData is wrapped by errors for a concept or period the filer did not
// report.
var ErrNoData = errors.New("no data")

// Source is one reported XBRL fact: what a figure cites.
type Source struct {
	Taxonomy string
	Tag      string
	Unit     string
	// Start is zero for an instant.
	Start Date
	End   Date
	Value float64
	// Accession is the EDGAR accession number of the filing, e.g.
	// "0001045810-26-000021".
	Accession string
	// Form is the SEC form of the filing, e.g. "10-K".
	Form  string
	Filed Date
}

// String renders a citation, e.g.
// "us-gaap:Revenues 2025-01-27..2026-01-25 = 215938000000 USD (10-K 0001045810-26-000021, filed 2026-02-25)".
func (s Source) String() string {
	period := s.End.String()
	if s.Start != 0 {
		period = s.Start.String() + ".." + period
	}
	return fmt.Sprintf("%s:%s %s = %s %s (%s %s, filed %s)", s.Taxonomy, s.Tag, period,
		strconv.FormatFloat(s.Value, 'f', -1, 64), s.Unit, s.Form, s.Accession, s.Filed)
}

// Fact is one figure for one period, with the reported facts it comes from.
type Fact struct {
	Concept Concept
	Value   float64
	Unit    string
	Period  Period
	// Method is empty for a reported figure and describes the arithmetic
	// for a derived one, e.g. "FY - 9M YTD".
	Method string
	// Sources are the reported facts used: one for a reported figure, the
	// operands (in the order Method names them) for a derived one.
	Sources []Source
}

// Derived reports whether the figure was computed rather than reported.
func (f Fact) Derived() bool { return f.Method != "" }

// String renders the figure and its citation on one line.
func (f Fact) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s = %s %s", f.Concept, f.Period, strconv.FormatFloat(f.Value, 'f', -1, 64), f.Unit)
	if f.Method != "" {
		fmt.Fprintf(&b, " (%s)", f.Method)
	}
	b.WriteString(" [")
	for i, s := range f.Sources {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s.String())
	}
	b.WriteString("]")
	return b.String()
}

// Series is a concept's figures, one per period, after tag selection and
// de-duplication. Reported periods of non-standard length are dropped.
type Series struct {
	Def ConceptDef
	// facts are sorted by End, then by Start (longer periods first).
	facts []Fact
	fye   FiscalYearEnd
}

// Series resolves a concept known to Definition.
func (cf *CompanyFacts) Series(c Concept) (*Series, error) {
	def, ok := Definition(c)
	if !ok {
		return nil, fmt.Errorf("xbrl: unknown concept %q (known: %v)", c, Concepts())
	}
	return cf.Resolve(def)
}

// Resolve builds the series for def.
//
// Tag choice is per period. Tags are ranked by the latest period end they
// cover, most recent first, with def.Tags order breaking ties, and
// def.Fallback after all of them; each period takes its value from the
// latest filing that reports it under any of def.Tags (the best-ranked tag
// within one filing), and from a fallback tag only when none does. Ranking by
// coverage rather than taking the first listed tag with any data matters
// because tags migrate: Apple reported Revenues only for 2016-2018, so a
// fixed "first tag wins" order would answer Apple's 2025 revenue question
// with 2018 data, or with nothing. Older periods still fall back to the old
// tags, so history is not lost.
//
// Within a tag, the value from the latest filing wins (restatements and
// recasts), with the larger accession number breaking same-day ties.
//
// A monetary def.Unit ("USD", "USD/shares") is read in the filer's
// reporting currency (Currency): a euro filer's revenue series holds euros,
// its Unit "EUR", never dollars.
func (cf *CompanyFacts) Resolve(def ConceptDef) (*Series, error) {
	def.Unit = cf.inCurrency(def)
	type candidate struct {
		tag    Tag
		facts  []rawFact
		latest Date
		tier   int // 0 for Tags, 1 for Fallback
		order  int
	}
	var cands []candidate
	for tier, tags := range [][]Tag{def.Tags, def.Fallback} {
		for i, t := range tags {
			units, err := cf.units(t.Taxonomy, t.Name)
			if err != nil {
				return nil, err
			}
			facts := units[def.Unit]
			if len(facts) == 0 {
				continue
			}
			c := candidate{tag: t, facts: facts, tier: tier, order: i}
			for j := range facts {
				c.latest = max(c.latest, facts[j].End)
			}
			cands = append(cands, c)
		}
	}
	// A fallback tag stands in only for a filer that does not report the
	// concept's own tags, or stopped more than a year before the fallback's
	// latest period: a bank that tags its net revenue in the 10-K and its
	// interest income in every 10-Q has no quarterly revenue, rather than
	// quarters of another quantity under the revenue's name.
	var own Date
	for _, c := range cands {
		if c.tier == 0 {
			own = max(own, c.latest)
		}
	}
	if own != 0 {
		cands = slices.DeleteFunc(cands, func(c candidate) bool { return c.tier > 0 && c.latest <= own+abandoned })
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("xbrl: %s of %s: %w in unit %s under any of %v", def.Concept, cf.EntityName, ErrNoData, def.Unit, append(slices.Clone(def.Tags), def.Fallback...))
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := cmp.Compare(a.tier, b.tier); c != 0 {
			return c
		}
		if c := cmp.Compare(b.latest, a.latest); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})

	type key struct{ start, end Date }
	type pick struct {
		f    *rawFact
		rank int
	}
	picks := make(map[key]pick)
	for rank, c := range cands {
		for j := range c.facts {
			f := &c.facts[j]
			kind := classify(f.Start, f.End)
			if kind == Other || (kind == Instant) != def.Instant {
				continue
			}
			k := key{f.Start, f.End}
			if p, ok := picks[k]; ok && !replaces(f, rank, c.tier, p.f, p.rank, cands[p.rank].tier) {
				continue
			}
			picks[k] = pick{f: f, rank: rank}
		}
	}
	s := &Series{Def: def, fye: cf.FiscalYearEnd, facts: make([]Fact, 0, len(picks))}
	for _, p := range picks {
		tag := cands[p.rank].tag
		s.facts = append(s.facts, Fact{
			Concept: def.Concept,
			Value:   p.f.Val,
			Unit:    def.Unit,
			Period:  cf.FiscalYearEnd.period(p.f.Start, p.f.End),
			Sources: []Source{p.f.source(tag.Taxonomy, tag.Name, def.Unit)},
		})
	}
	slices.SortFunc(s.facts, func(a, b Fact) int {
		if c := cmp.Compare(a.Period.End, b.Period.End); c != 0 {
			return c
		}
		return cmp.Compare(a.Period.Start, b.Period.Start)
	})
	return s, nil
}

// abandoned is how long after a concept's own tags' latest period a
// fallback tag must still report for the filer to have left those tags.
const abandoned = 400

// replaces reports whether fact a, of the candidate tag ranked ra in tier
// ta, should replace fact b (rank rb, tier tb) for the same period. A
// fallback tag never replaces a tag of the concept's own. Otherwise the
// later filing wins across tags as within one (supersedes): when a filer
// moves a concept to another tag and later re-reports an old period, under
// either tag, the latest filing is its current statement of that period.
// Within one filing, which may tag a total and a part of it, the rank
// decides.
func replaces(a *rawFact, ra, ta int, b *rawFact, rb, tb int) bool {
	if ta != tb {
		return ta < tb
	}
	if ra == rb || a.Accn != b.Accn {
		return supersedes(a, b)
	}
	return ra < rb
}

// supersedes reports whether fact a should replace fact b for the same tag
// and period. Periodic reports (10-K, 10-Q and their amendments, 20-F, 40-F)
// beat other forms, because proxy statements and registration statements
// repeat financial-statement figures (NVIDIA's DEF 14A pay-versus-performance
// table repeats net income) and a citation should point at the financial
// statements. Among equals the later filing wins, so restatements replace
// the originals.
func supersedes(a, b *rawFact) bool {
	if pa, pb := a.Form.periodic(), b.Form.periodic(); pa != pb {
		return pa
	}
	if a.Filed != b.Filed {
		return a.Filed > b.Filed
	}
	return strings.Compare(string(a.Accn[:]), string(b.Accn[:])) > 0
}

// Facts returns a copy of every figure in the series, ordered by period end.
func (s *Series) Facts() []Fact { return slices.Clone(s.facts) }

// find returns the latest-ending figure matching keep.
func (s *Series) find(keep func(p Period) bool) (Fact, bool) {
	for i := len(s.facts) - 1; i >= 0; i-- {
		if keep(s.facts[i].Period) {
			return s.facts[i], true
		}
	}
	return Fact{}, false
}

// Annual returns the figure for fiscal year fy: the full-year total for a
// flow, the balance at fiscal year end for an instant concept.
func (s *Series) Annual(fy int) (Fact, bool) {
	want := Annual
	if s.Def.Instant {
		want = Instant
	}
	return s.find(func(p Period) bool {
		return p.Kind == want && p.FiscalPeriod == "FY" && p.FiscalYear == fy
	})
}

// LatestAnnual returns the most recent fiscal year's figure.
func (s *Series) LatestAnnual() (Fact, bool) {
	want := Annual
	if s.Def.Instant {
		want = Instant
	}
	return s.find(func(p Period) bool { return p.Kind == want && p.FiscalPeriod == "FY" })
}

// Latest returns the figure with the latest period end, of any kind.
func (s *Series) Latest() (Fact, bool) {
	if len(s.facts) == 0 {
		return Fact{}, false
	}
	return s.facts[len(s.facts)-1], true
}

// InFiscalYear returns the latest figure of the given kind whose period ends
// in fiscal year fy (for example the public float, measured mid-year).
func (s *Series) InFiscalYear(fy int, kind PeriodKind) (Fact, bool) {
	return s.find(func(p Period) bool { return p.Kind == kind && p.FiscalYear == fy })
}

// ytd returns the year-to-date flow for the first q quarters of fy:
// Q1 (a reported quarter), H1, 9M or FY.
func (s *Series) ytd(fy, q int) (Fact, bool) {
	kind, fp := Quarter, "Q1"
	switch q {
	case 2:
		kind, fp = HalfYear, "H1"
	case 3:
		kind, fp = NineMonths, "9M"
	case 4:
		kind, fp = Annual, "FY"
	}
	return s.find(func(p Period) bool { return p.Kind == kind && p.FiscalPeriod == fp && p.FiscalYear == fy })
}

// Quarter returns fiscal quarter q (1-4) of fiscal year fy.
//
// For a flow this is the discrete three-month figure. Filers report Q4 only
// inside the full year, and report cash flows only year-to-date, so when no
// three-month figure was reported it is derived as the difference of two
// year-to-date figures with the same start: Q4 = FY - 9M, Q3 = 9M - H1,
// Q2 = H1 - Q1. For an instant concept it is the balance at quarter end
// (at fiscal year end for Q4). An average (ConceptDef.Average) is never
// derived, nor a figure over an average (ConceptDef.NonAdditive, EPS):
// only a reported three-month figure is returned.
func (s *Series) Quarter(fy, q int) (Fact, bool) {
	if q < 1 || q > 4 {
		return Fact{}, false
	}
	if s.Def.Instant {
		fp := quarterName(q)
		if q == 4 {
			fp = "FY"
		}
		return s.find(func(p Period) bool { return p.Kind == Instant && p.FiscalYear == fy && p.FiscalPeriod == fp })
	}
	fp := quarterName(q)
	if f, ok := s.find(func(p Period) bool { return p.Kind == Quarter && p.FiscalYear == fy && p.FiscalPeriod == fp }); ok {
		return f, true
	}
	if q == 1 || s.Def.Average || s.Def.NonAdditive {
		return Fact{}, false
	}
	to, ok1 := s.ytd(fy, q)
	from, ok2 := s.ytd(fy, q-1)
	if !ok1 || !ok2 || absDays(to.Period.Start-from.Period.Start) > 3 || from.Period.End >= to.Period.End {
		return Fact{}, false
	}
	start := from.Period.End + 1
	p := s.fye.period(start, to.Period.End)
	p.FiscalYear, p.FiscalPeriod = fy, fp // pin the label to the request
	return Fact{
		Concept: s.Def.Concept,
		Value:   to.Value - from.Value,
		Unit:    s.Def.Unit,
		Period:  p,
		Method:  fmt.Sprintf("%s - %s", ytdName(q), ytdName(q-1)),
		Sources: append(slices.Clone(to.Sources), from.Sources...),
	}, true
}

// YearToDate returns the year-to-date figure of the first q quarters of
// fiscal year fy as reported (Q1, H1, 9M or FY), of a flow or an average.
func (s *Series) YearToDate(fy, q int) (Fact, bool) {
	if s.Def.Instant || q < 1 || q > 4 {
		return Fact{}, false
	}
	return s.ytd(fy, q)
}

// QuarterAverage returns quarter q of fiscal year fy of an average over
// its period (ConceptDef.Average): the reported three-month figure, else
// the one the two year-to-date averages around it imply, each weighted by
// the days it spans: (FY × its days − 9M × its days) / the quarter's days
// for Q4. That is exact for a count weighted by day (the basic weighted
// share count) and close for the diluted one, whose year-to-date count is
// the average of its quarters' (ASC 260-10-55-3). The two year-to-date
// figures must start together; Quarter never derives an average, since a
// quarter's average is no difference of year-to-date ones.
func (s *Series) QuarterAverage(fy, q int) (Fact, bool) {
	if !s.Def.Average || q < 1 || q > 4 {
		return Fact{}, false
	}
	fp := quarterName(q)
	if f, ok := s.find(func(p Period) bool { return p.Kind == Quarter && p.FiscalYear == fy && p.FiscalPeriod == fp }); ok {
		return f, true
	}
	if q == 1 {
		return Fact{}, false
	}
	to, ok1 := s.ytd(fy, q)
	from, ok2 := s.ytd(fy, q-1)
	if !ok1 || !ok2 || absDays(to.Period.Start-from.Period.Start) > 3 || from.Period.End >= to.Period.End {
		return Fact{}, false
	}
	dTo, dFrom := float64(to.Period.Days()), float64(from.Period.Days())
	p := s.fye.period(from.Period.End+1, to.Period.End)
	p.FiscalYear, p.FiscalPeriod = fy, fp
	return Fact{
		Concept: s.Def.Concept,
		Value:   (to.Value*dTo - from.Value*dFrom) / (dTo - dFrom),
		Unit:    s.Def.Unit,
		Period:  p,
		Method:  fmt.Sprintf("day-weighted %s - %s", ytdName(q), ytdName(q-1)),
		Sources: append(slices.Clone(to.Sources), from.Sources...),
	}, true
}

func ytdName(q int) string {
	switch q {
	case 1:
		return "Q1"
	case 2:
		return "H1 YTD"
	case 3:
		return "9M YTD"
	}
	return "FY"
}

// TTM returns the trailing-twelve-month total of a flow ending with the
// latest fiscal quarter for which a discrete figure exists (reported or
// derived), as the sum of four consecutive quarters.
func (s *Series) TTM() (Fact, error) {
	if s.Def.Instant {
		return Fact{}, fmt.Errorf("xbrl: TTM of %s: a balance has no trailing total", s.Def.Concept)
	}
	if s.Def.Average {
		return Fact{}, fmt.Errorf("xbrl: TTM of %s: an average over a period is no sum of quarters", s.Def.Concept)
	}
	if s.Def.NonAdditive {
		return Fact{}, fmt.Errorf("xbrl: TTM of %s: a figure over weighted shares is no sum of quarters", s.Def.Concept)
	}
	last, ok := s.Latest()
	if !ok {
		return Fact{}, fmt.Errorf("xbrl: TTM of %s: %w", s.Def.Concept, ErrNoData)
	}
	for fy := last.Period.FiscalYear; fy >= last.Period.FiscalYear-1; fy-- {
		for q := 4; q >= 1; q-- {
			if _, ok := s.Quarter(fy, q); ok {
				return s.TTMAt(fy, q)
			}
		}
	}
	return Fact{}, fmt.Errorf("xbrl: TTM of %s: %w: no quarterly figures in the last two fiscal years", s.Def.Concept, ErrNoData)
}

// TTMAt returns the total of the four fiscal quarters ending with quarter q
// of fiscal year fy. Every quarter must be present and the quarters must be
// contiguous.
func (s *Series) TTMAt(fy, q int) (Fact, error) {
	if s.Def.Average || s.Def.Instant || s.Def.NonAdditive {
		return Fact{}, fmt.Errorf("xbrl: TTM of %s: only a flow's quarters add up to a trailing total", s.Def.Concept)
	}
	var qs []Fact
	y, n := fy, q
	for range 4 {
		f, ok := s.Quarter(y, n)
		if !ok {
			return Fact{}, fmt.Errorf("xbrl: TTM of %s to Q%d FY%d: %w for Q%d FY%d", s.Def.Concept, q, fy, ErrNoData, n, y)
		}
		qs = append(qs, f)
		if n--; n == 0 {
			y, n = y-1, 4
		}
	}
	slices.Reverse(qs)
	out := Fact{Concept: s.Def.Concept, Unit: s.Def.Unit}
	names := make([]string, len(qs))
	for i, f := range qs {
		if i > 0 && absDays(f.Period.Start-(qs[i-1].Period.End+1)) > 7 {
			return Fact{}, fmt.Errorf("xbrl: TTM of %s to Q%d FY%d: %s does not follow %s", s.Def.Concept, q, fy, f.Period, qs[i-1].Period)
		}
		out.Value += f.Value
		out.Sources = append(out.Sources, f.Sources...)
		names[i] = f.Period.Label()
		if f.Derived() {
			names[i] += " (" + f.Method + ")"
		}
	}
	out.Period = Period{Start: qs[0].Period.Start, End: qs[3].Period.End, Kind: Annual, FiscalYear: fy, FiscalPeriod: "TTM"}
	out.Method = "sum of " + strings.Join(names, " + ")
	return out, nil
}
