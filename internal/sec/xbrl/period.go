package xbrl

import (
	"fmt"
	"math"
	"time"
)

// PeriodKind classifies a period by its length.
type PeriodKind uint8

// Period kinds. The ranges in classify allow for 52/53-week fiscal calendars,
// whose quarters are 13 or 14 weeks and whose years are 364 or 371 days.
const (
	// Other is a duration of no standard length (stub periods after an
	// acquisition or a change of fiscal year end); such facts are ignored.
	Other PeriodKind = iota
	// Instant is a point in time (balance sheet figures, share counts).
	Instant
	// Quarter is a duration of about three months.
	Quarter
	// HalfYear is a duration of about six months (a Q2 year-to-date figure).
	HalfYear
	// NineMonths is a duration of about nine months (a Q3 year-to-date figure).
	NineMonths
	// Annual is a duration of about a year.
	Annual
)

func (k PeriodKind) String() string {
	switch k {
	case Instant:
		return "instant"
	case Quarter:
		return "quarter"
	case HalfYear:
		return "six months"
	case NineMonths:
		return "nine months"
	case Annual:
		return "annual"
	}
	return "other"
}

// classify returns the kind of a period from its start and end (inclusive).
func classify(start, end Date) PeriodKind {
	if start == 0 {
		return Instant
	}
	days := int(end-start) + 1
	switch {
	case days >= 80 && days <= 100:
		return Quarter
	case days >= 170 && days <= 200:
		return HalfYear
	case days >= 260 && days <= 290:
		return NineMonths
	case days >= 350 && days <= 380:
		return Annual
	}
	return Other
}

// Period is a labelled reporting period.
type Period struct {
	// Start is the first day of a duration; zero for an instant.
	Start Date
	// End is the last day of a duration, or the date of an instant.
	End  Date
	Kind PeriodKind
	// FiscalYear is the fiscal year the period belongs to, computed from End
	// and the filer's fiscal year end (see FiscalYearEnd.Label).
	FiscalYear int
	// FiscalPeriod is "FY" for a fiscal year (or a balance at fiscal year
	// end), "Q1".."Q4" for a quarter (or a balance at quarter end), "H1" and
	// "9M" for year-to-date durations, "TTM" for a trailing-twelve-month
	// total (Series.TTM), and "" for a period that does not line up with the
	// fiscal calendar.
	FiscalPeriod string
}

// Days is the length of a duration in days, counting both ends; 0 for an
// instant.
func (p Period) Days() int {
	if p.Start == 0 {
		return 0
	}
	return int(p.End-p.Start) + 1
}

// Label is the fiscal label, for example "FY2026" or "Q3 FY2026".
func (p Period) Label() string {
	switch p.FiscalPeriod {
	case "FY":
		return fmt.Sprintf("FY%d", p.FiscalYear)
	case "TTM":
		return fmt.Sprintf("TTM to %s", p.End)
	case "":
		return fmt.Sprintf("%s to %s", p.Start, p.End)
	}
	return fmt.Sprintf("%s FY%d", p.FiscalPeriod, p.FiscalYear)
}

// String is the fiscal label with the dates, e.g. "FY2026 (2025-01-27..2026-01-25)".
func (p Period) String() string {
	if p.Start == 0 {
		return fmt.Sprintf("%s (at %s)", p.Label(), p.End)
	}
	return fmt.Sprintf("%s (%s..%s)", p.Label(), p.Start, p.End)
}

// FiscalYearEnd is the nominal last day of a filer's fiscal year. Filers on
// a 52/53-week calendar end their year on a weekday near this date, so actual
// year ends drift by up to a week around it.
type FiscalYearEnd struct {
	Month time.Month
	Day   int
	// Naming is how the filer names its fiscal years, learned from its
	// annual reports; NamedByRule when they do not say.
	Naming Naming
}

// Naming is how a filer names a fiscal year that does not end on 31
// December: for the calendar year it ends in or the one it begins in.
type Naming uint8

// Namings.
const (
	// NamedByRule names a year for the calendar year it ends in, except
	// that a year ending in the first week of January is named for the
	// year before (see FiscalYearEnd.Label).
	NamedByRule Naming = iota
	// NamedForEndYear: NVIDIA's and Walmart's year to January 2026 is
	// fiscal 2026.
	NamedForEndYear
	// NamedForStartYear: Home Depot's and Target's year to early February
	// 2025 is fiscal 2024.
	NamedForStartYear
)

// slack is how far a period end may fall after the nominal fiscal year end
// and still belong to that year; it covers 52/53-week drift (at most 6 days)
// with room to spare, and is far below a quarter's length.
const slack = 14

// anchor returns the nominal fiscal year end date in calendar year y.
func (f FiscalYearEnd) anchor(y int) Date {
	d := f.Day
	if n := daysIn(y, int(f.Month)); d > n {
		d = n // a 29 February year end in a non-leap year
	}
	return civilToDate(y, int(f.Month), d)
}

// yearEndFor returns the fiscal year end that closes the fiscal year
// containing day e: the first nominal year end on or after e-slack.
func (f FiscalYearEnd) yearEndFor(e Date) (Date, int) {
	y, _, _ := e.Civil()
	for cy := y - 1; ; cy++ {
		if a := f.anchor(cy); a >= e-slack {
			return a, cy
		}
	}
}

// Label returns the fiscal year to which a period ending on e belongs, and
// that fiscal year's nominal end.
//
// The fiscal year is named as the filer names it (f.Naming): for the
// calendar year in which it ends (NVIDIA's year ended 2026-01-25 is FY2026;
// Apple's ended 2025-09-27 is FY2025) or, as many retailers do, for the one
// in which it begins (Home Depot's year ended 2025-02-02 is fiscal 2024).
// When the filings do not say (NamedByRule), a year is named for the year it
// ends in, except that a year ending in the first week of January is named
// for the previous calendar year, because 52/53-week filers whose year ends
// "on the Saturday nearest 31 December" call the year ended 2022-01-01
// fiscal 2021.
func (f FiscalYearEnd) Label(e Date) (fiscalYear int, yearEnd Date) {
	a, cy := f.yearEndFor(e)
	switch f.Naming {
	case NamedForStartYear:
		cy--
	case NamedByRule:
		if f.Month == time.January && f.Day <= 7 {
			cy--
		}
	}
	return cy, a
}

// NamedForStart reports whether a fiscal year that ends early in a calendar
// year bears the number of the year before: then a calendar year is the
// fiscal year of the same number, not the one ending early in the next.
func (f FiscalYearEnd) NamedForStart() bool {
	return f.Naming == NamedForStartYear || f.Naming == NamedByRule && f.Month == time.January && f.Day <= 7
}

// String formats the year end as "--MM-DD", the XBRL gMonthDay form used by
// dei:CurrentFiscalYearEndDate.
func (f FiscalYearEnd) String() string {
	return fmt.Sprintf("--%02d-%02d", int(f.Month), f.Day)
}

// period labels a fact's start and end.
func (f FiscalYearEnd) period(start, end Date) Period {
	p := Period{Start: start, End: end, Kind: classify(start, end)}
	fy, a := f.Label(end)
	p.FiscalYear = fy
	atYearEnd := end >= a-slack && end <= a+slack
	// Quarters are counted back from the year end in steps of a quarter
	// (365.25/4 days), which rounds 13- and 14-week quarters the same way.
	q := 4 - int(math.Round(float64(a-end)/91.3125))
	ytd := false
	if p.Kind != Instant {
		ay, _, _ := a.Civil()
		prevEnd := f.anchor(ay - 1)
		ytd = absDays(start-(prevEnd+1)) <= slack
	}
	switch p.Kind {
	case Instant:
		if atYearEnd {
			p.FiscalPeriod = "FY"
		} else if q >= 1 && q <= 3 {
			p.FiscalPeriod = quarterName(q)
		}
	case Annual:
		if atYearEnd {
			p.FiscalPeriod = "FY"
		}
	case Quarter:
		if q >= 1 && q <= 4 {
			p.FiscalPeriod = quarterName(q)
		}
	case HalfYear:
		if ytd && q == 2 {
			p.FiscalPeriod = "H1"
		}
	case NineMonths:
		if ytd && q == 3 {
			p.FiscalPeriod = "9M"
		}
	}
	return p
}

// quarterName returns "Q1".."Q4" without allocating.
func quarterName(q int) string { return "Q1Q2Q3Q4"[2*q-2 : 2*q] }

func absDays(d Date) int {
	if d < 0 {
		return int(-d)
	}
	return int(d)
}
