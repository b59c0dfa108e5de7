package xbrl

import (
	"fmt"
	"time"
)

// Date is a calendar date as used by XBRL periods and EDGAR filing dates.
//
// It is a count of days, so that period lengths and "is this 52 or 53 weeks"
// checks are integer subtractions, and so that parsing a 4 MB companyfacts file
// does not allocate a time.Time (or a string) per date. The zero Date means
// "no date" (an instant has no start); 0001-01-01 is day 1.
type Date int32

// unixEpochDay is the Date of 1970-01-01.
const unixEpochDay = 719163

// NewDate returns the Date for year, month and day (proleptic Gregorian).
// Out-of-range months and days are normalised the way time.Date does.
func NewDate(year int, month time.Month, day int) Date {
	return DateOf(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

// DateOf returns the calendar date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	u := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()
	return Date(u/86400 + unixEpochDay)
}

// ParseDate parses "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	return parseDateBytes([]byte(s))
}

// parseDateBytes is the allocation-free parser behind ParseDate and the JSON
// decoder.
func parseDateBytes(b []byte) (Date, error) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, fmt.Errorf("xbrl: date %q is not YYYY-MM-DD", b)
	}
	num := func(p []byte) (int, bool) {
		n := 0
		for _, c := range p {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(b[0:4])
	m, ok2 := num(b[5:7])
	d, ok3 := num(b[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, fmt.Errorf("xbrl: date %q is not a valid YYYY-MM-DD date", b)
	}
	return civilToDate(y, m, d), nil
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// civilToDate is Howard Hinnant's days_from_civil, shifted so that
// 0001-01-01 is day 1. It avoids time.Date in the decoding hot path.
func civilToDate(y, m, d int) Date {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468 // days since 1970-01-01
	return Date(days + unixEpochDay)
}

// IsZero reports whether d is the zero ("no date") value.
func (d Date) IsZero() bool { return d == 0 }

// Time returns d as midnight UTC.
func (d Date) Time() time.Time {
	return time.Unix(int64(d-unixEpochDay)*86400, 0).UTC()
}

// Civil returns the year, month and day of d.
func (d Date) Civil() (year int, month time.Month, day int) {
	return d.Time().Date()
}

// AddDays returns d plus n days.
func (d Date) AddDays(n int) Date { return d + Date(n) }

// String formats d as YYYY-MM-DD, or "" for the zero Date.
func (d Date) String() string {
	if d == 0 {
		return ""
	}
	return d.Time().Format(time.DateOnly)
}

// UnmarshalJSON decodes a JSON string "YYYY-MM-DD" (or null, as zero).
func (d *Date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = 0
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("xbrl: date %s is not a JSON string", b)
	}
	v, err := parseDateBytes(b[1 : len(b)-1])
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON encodes d as "YYYY-MM-DD", or null for the zero Date.
func (d Date) MarshalJSON() ([]byte, error) {
	if d == 0 {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}
