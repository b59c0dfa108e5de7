package edgar

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestForeignIssuerAccepted: a filer of 20-F or 40-F annual reports (a
// foreign private issuer) has annual reports, as a 10-K filer does; a
// filer with none of them gets the spec's refusal.
func TestForeignIssuerAccepted(t *testing.T) {
	for _, tc := range []struct {
		forms  []string
		refuse bool
	}{
		{[]string{"6-K", "20-F", "20-F/A"}, false},
		{[]string{"40-F/A"}, false},
		{[]string{"10-K/A"}, false},
		{[]string{"8-K", "S-1", "6-K"}, true},
	} {
		s := &Submissions{}
		for _, f := range tc.forms {
			s.Filings = append(s.Filings, Filing{Form: f})
		}
		err := RequireAnnualReport(s, "TSM")
		if !tc.refuse && err != nil {
			t.Errorf("%v: refused: %v", tc.forms, err)
		}
		if tc.refuse && (!errors.Is(err, ErrNoAnnualReport) || err.Error() != RefusalMessage("TSM")) {
			t.Errorf("%v: err = %v, want the spec's refusal", tc.forms, err)
		}
	}
}

// factsOnly is a source with company facts but no filing history, as the
// offline snapshot is for some companies.
type factsOnly struct{ facts []byte }

func (factsOnly) Lookup(context.Context, string) (Company, error) { return Company{}, ErrNotAvailable }
func (factsOnly) Submissions(context.Context, CIK) (*Submissions, error) {
	return nil, ErrNotAvailable
}
func (s factsOnly) CompanyFacts(context.Context, CIK) (*Raw, error) { return &Raw{Body: s.facts}, nil }
func (factsOnly) Document(context.Context, CIK, string, string) (*Raw, error) {
	return nil, ErrNotAvailable
}

// TestForeignIssuerFromFacts: without the filing history, the facts' forms
// tell a 20-F filer, which has annual reports.
func TestForeignIssuerFromFacts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "xbrl", "testdata", "synthetic", "ifrs_CIK0009000007.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckAnnualReport(context.Background(), factsOnly{b}, Company{CIK: 9000007, Ticker: "SSMC"}); err != nil {
		t.Errorf("a 20-F filer refused: %v", err)
	}
	err = CheckAnnualReport(context.Background(), factsOnly{[]byte(`{"cik":1,"facts":{"us-gaap":{"Revenues":{"units":{"USD":[{"end":"2024-12-31","val":1,"form":"S-1"}]}}}}}`)}, Company{CIK: 1, Ticker: "NEW"})
	if !errors.Is(err, ErrNoAnnualReport) {
		t.Errorf("a filer with a registration statement only: err = %v", err)
	}
}
