package edgar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoAnnualReport marks the refusal to debate a company that has filed no
// annual report, neither a 10-K nor a foreign private issuer's 20-F or 40-F
// (the spec's "thin data" edge case). Test with errors.Is.
var ErrNoAnnualReport = errors.New("no 10-K filings")

// IsAnnualReport reports whether a form is an annual report (10-K or 10-K/A).
func IsAnnualReport(form string) bool {
	return form == "10-K" || form == "10-K/A"
}

// foreignAnnualForm returns the foreign private issuer's annual report a form
// is, "20-F" or "40-F" (an amendment counts as its base form), or "".
func foreignAnnualForm(form string) string {
	if base, _ := strings.CutSuffix(form, "/A"); base == "20-F" || base == "40-F" {
		return base
	}
	return ""
}

// HasAnnualReport reports whether any page of the submissions holds an
// annual report: a 10-K, or the 20-F or 40-F a foreign private issuer files
// instead (or an amendment of one). A foreign issuer's figures, under IFRS
// or US GAAP, are read in its reporting currency (xbrl.CompanyFacts.Currency).
func HasAnnualReport(s *Submissions) bool {
	for _, f := range s.Filings {
		if IsAnnualReport(f.Form) || foreignAnnualForm(f.Form) != "" {
			return true
		}
	}
	return false
}

// NoAnnualReportError is the refusal to debate a company without an annual
// report. Its message is the one the user sees.
type NoAnnualReportError struct {
	// Name is what the user asked for: the ticker, or the company name.
	Name string
	// MissingPages lists pages of the filing history that could not be
	// checked (offline snapshot), so the refusal can say it is provisional.
	MissingPages []string
}

// RefusalMessage is the spec's thin-data refusal text for a ticker.
func RefusalMessage(ticker string) string {
	return fmt.Sprintf("Cannot debate %s: No 10-K filings found. Debates require at least one annual filing.", ticker)
}

func (e *NoAnnualReportError) Error() string {
	msg := RefusalMessage(e.Name)
	if len(e.MissingPages) > 0 {
		msg += fmt.Sprintf(" (Only recent filings were checked: older pages %s are not in the offline snapshot.)",
			strings.Join(e.MissingPages, ", "))
	}
	return msg
}

// Is makes errors.Is(err, ErrNoAnnualReport) true.
func (e *NoAnnualReportError) Is(target error) bool { return target == ErrNoAnnualReport }

// RequireAnnualReport returns a *NoAnnualReportError, naming the company as
// name, when the submissions hold no annual report (see HasAnnualReport).
func RequireAnnualReport(s *Submissions, name string) error {
	if HasAnnualReport(s) {
		return nil
	}
	return &NoAnnualReportError{Name: name, MissingPages: s.MissingPages}
}

// CheckAnnualReport is the pre-debate thin-data check for a company. It uses
// the filing history; when the source does not hold it (the snapshot has
// company facts but no submissions for some tickers) it looks for facts
// reported on a 10-K instead. It returns nil, a *NoAnnualReportError, or the
// error that prevented the check.
func CheckAnnualReport(ctx context.Context, src Source, c Company) error {
	name := c.Ticker
	if name == "" {
		name = c.Name
	}
	if name == "" {
		name = "CIK " + c.CIK.String()
	}
	subs, err := src.Submissions(ctx, c.CIK)
	if err == nil {
		return RequireAnnualReport(subs, name)
	}
	if !errors.Is(err, ErrNotAvailable) {
		return fmt.Errorf("check %s for 10-K filings: %w", name, err)
	}
	facts, ferr := src.CompanyFacts(ctx, c.CIK)
	if ferr != nil {
		return fmt.Errorf("check %s for 10-K filings: %w", name, errors.Join(err, ferr))
	}
	ok, perr := factsFromAnnualReport(facts.Body)
	if perr != nil {
		return fmt.Errorf("check %s for 10-K filings: %w", name, perr)
	}
	if !ok {
		return &NoAnnualReportError{Name: name}
	}
	return nil
}

// factsFromAnnualReport reports whether any fact in a companyfacts document
// was reported on an annual report (10-K, 20-F, 40-F or an amendment). It
// decodes only the "form" field of each fact.
func factsFromAnnualReport(companyfacts []byte) (bool, error) {
	var doc struct {
		Facts map[string]map[string]struct {
			Units map[string][]struct {
				Form string `json:"form"`
			} `json:"units"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(companyfacts, &doc); err != nil {
		return false, fmt.Errorf("parse companyfacts: %w", err)
	}
	for _, concepts := range doc.Facts {
		for _, c := range concepts {
			for _, facts := range c.Units {
				for _, f := range facts {
					if IsAnnualReport(f.Form) || foreignAnnualForm(f.Form) != "" {
						return true, nil
					}
				}
			}
		}
	}
	return false, nil
}
