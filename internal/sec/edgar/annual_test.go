package edgar

import (
	"errors"
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
