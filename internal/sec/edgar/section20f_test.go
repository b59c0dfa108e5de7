package edgar

import (
	"strings"
	"testing"
)

// The 20-F fixture is synthetic (testdata/README.md): a table of contents
// naming every item and sub-item, cross-references to Items 3.D, 4 and 5 in
// the notes before Part I and in running text, headings split over table
// cells, and an Item 7 that is not the MD&A.
func TestExtract20FSections(t *testing.T) {
	doc := readFixture(t, "20f_sample.htm")
	for _, tc := range []struct {
		sec        Section
		start      string
		want, nots []string
	}{
		{RiskFactors, "D. Risk Factors\nAn investment in our ordinary shares",
			[]string{"Export controls may restrict our sales", "As a foreign private issuer, we are exempt"},
			[]string{"Not applicable.", "INFORMATION ON THE COMPANY", "History and Development", "ITEM 4."}},
		{MDA, "ITEM 5. OPERATING AND FINANCIAL REVIEW AND PROSPECTS\nThe following discussion",
			[]string{"Net sales increased by 9.6% to €786.5 million", "Net sales 786.5 717.6", "E. Critical Accounting Estimates"},
			[]string{"DIRECTORS, SENIOR MANAGEMENT", "Management Board", "var x"}},
		{Business, "ITEM 4. INFORMATION ON THE COMPANY\nA. History and Development",
			[]string{"We design and manufacture optical metrology", "D. Property, Plants and Equipment"},
			[]string{"UNRESOLVED STAFF COMMENTS", "Operating Results"}},
	} {
		got, err := ExtractFormSection(doc, "20-F", tc.sec)
		if err != nil {
			t.Errorf("%s: %v", tc.sec.TitleFor("20-F"), err)
			continue
		}
		if !strings.HasPrefix(got, tc.start) {
			t.Errorf("%s starts %.120q, want %q", tc.sec.TitleFor("20-F"), got, tc.start)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q", tc.sec.TitleFor("20-F"), w)
			}
		}
		for _, n := range tc.nots {
			if strings.Contains(got, n) {
				t.Errorf("%s holds %q, from outside it:\n%s", tc.sec.TitleFor("20-F"), n, got)
			}
		}
	}
	// An amendment is read as its form.
	if _, err := ExtractFormSection(doc, "20-F/A", RiskFactors); err != nil {
		t.Errorf("20-F/A: %v", err)
	}
	// Read with the 10-K's rules, the 20-F's Item 7 (Major Shareholders) is
	// not an MD&A and there is no Item 1A.
	for _, sec := range []Section{MDA, RiskFactors} {
		if got, err := ExtractSection(doc, sec); err == nil {
			t.Errorf("10-K rules found %s in a 20-F: %.100q", sec.Title(), got)
		}
	}
}

// A 20-F may write the risk factors' heading with its item number, on one
// line or over two.
func TestExtract20FRiskFactorHeadings(t *testing.T) {
	body := "<p>" + strings.Repeat("We may lose customers. ", 30) + "</p>"
	next := "<p>Item 4. Information on the Company</p><p>We make things.</p>"
	for _, heading := range []string{
		"<p>3.D Risk Factors</p>",
		"<p>Item 3.D. Risk Factors</p>",
		"<p>ITEM 3. KEY INFORMATION — D. RISK FACTORS</p>",
		"<p>Item 3. Key Information</p><p>A. [Reserved]</p><p>D.</p><p>Risk Factors</p>",
		"<p>Item 3. Key Information</p><table><tr><td>D.</td><td>Risk Factors</td></tr></table>",
	} {
		got, err := ExtractFormSection([]byte(heading+body+next), "20-F", RiskFactors)
		if err != nil || !strings.Contains(got, "We may lose customers.") || strings.Contains(got, "We make things") {
			t.Errorf("%s: %v\n%.200q", heading, err, got)
		}
	}
	// "D. Risk Factors" under another item is not Item 3.D.
	doc := "<p>Item 10. Additional Information</p><p>D. Risk Factors</p>" + body + next
	if got, err := ExtractFormSection([]byte(doc), "20-F", RiskFactors); err == nil {
		t.Errorf("a sub-item D of Item 10 was taken for Item 3.D: %.100q", got)
	} else if !strings.Contains(err.Error(), "Item 3.D. Risk Factors not found") {
		t.Errorf("err = %v, want it to name Item 3.D", err)
	}
}

func TestExtractFormSection40F(t *testing.T) {
	_, err := ExtractFormSection([]byte("<p>Form 40-F</p>"), "40-F", RiskFactors)
	if err == nil || !strings.Contains(err.Error(), "not a 40-F") {
		t.Errorf("err = %v, want a refusal naming the 40-F", err)
	}
}

func TestParseSectionFor(t *testing.T) {
	for _, tc := range []struct {
		form, in string
		want     Section
	}{
		{"20-F", "3.D", RiskFactors}, {"20-F", "Item 3D", RiskFactors}, {"20-F", "risk factors", RiskFactors}, {"20-F", "1A", RiskFactors},
		{"20-F", "5", MDA}, {"20-F", "item 5", MDA}, {"20-F", "MD&A", MDA}, {"20-F", "7", MDA},
		{"20-F", "4", Business}, {"20-F/A", "Item 4.", Business}, {"20-F", "business", Business},
		{"10-K", "Risk Factors", RiskFactors}, {"10-K", "md&a", MDA}, {"10-K", "1", Business},
	} {
		got, err := ParseSectionFor(tc.form, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSectionFor(%s, %q) = %q, %v; want %q", tc.form, tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"5", "4", "3.D"} {
		if got, err := ParseSectionFor("10-K", in); err == nil {
			t.Errorf("ParseSectionFor(10-K, %q) = %q; want an error (not an item the tool reads of a 10-K)", in, got)
		}
	}
	if _, err := ParseSectionFor("20-F", "6"); err == nil || !strings.Contains(err.Error(), "Item 3.D") {
		t.Errorf("ParseSectionFor(20-F, 6) err = %v, want one naming the 20-F's items", err)
	}
	if got := MDA.TitleFor("20-F"); got != "Item 5. Operating and Financial Review and Prospects" {
		t.Errorf("MDA.TitleFor(20-F) = %q", got)
	}
	if got := RiskFactors.TitleFor("10-K/A"); got != "Item 1A. Risk Factors" {
		t.Errorf("RiskFactors.TitleFor(10-K/A) = %q", got)
	}
}
