package edgar

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalForeignIssuer: a filer of 20-F (or 40-F) annual reports is
// refused with the spec's message and told why it has no 10-K; a filer
// with none of either gets the spec's message alone.
func TestRefusalForeignIssuer(t *testing.T) {
	for _, tc := range []struct {
		forms []string
		want  string
	}{
		{[]string{"6-K", "20-F", "20-F/A"}, "TSM files 20-F annual reports as a foreign private issuer"},
		{[]string{"40-F/A"}, "files 40-F annual reports"},
		{[]string{"8-K", "S-1"}, ""},
	} {
		s := &Submissions{}
		for _, f := range tc.forms {
			s.Filings = append(s.Filings, Filing{Form: f})
		}
		err := RequireAnnualReport(s, "TSM")
		if !errors.Is(err, ErrNoAnnualReport) || !strings.HasPrefix(err.Error(), RefusalMessage("TSM")) {
			t.Fatalf("%v: err = %v", tc.forms, err)
		}
		if tc.want == "" && err.Error() != RefusalMessage("TSM") || tc.want != "" && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %q, want %q", tc.forms, err, tc.want)
		}
	}
	if err := RequireAnnualReport(&Submissions{Filings: []Filing{{Form: "10-K/A"}}}, "X"); err != nil {
		t.Errorf("a 10-K/A filer refused: %v", err)
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

// TestRefusalForeignIssuerFromFacts: without the filing history, the facts'
// forms tell a 20-F filer.
func TestRefusalForeignIssuerFromFacts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "xbrl", "testdata", "synthetic", "ifrs_CIK0009000007.json"))
	if err != nil {
		t.Fatal(err)
	}
	err = CheckAnnualReport(context.Background(), factsOnly{b}, Company{CIK: 9000007, Ticker: "SSMC"})
	if !errors.Is(err, ErrNoAnnualReport) || !strings.Contains(err.Error(), "SSMC files 20-F annual reports") {
		t.Errorf("err = %v", err)
	}
}
