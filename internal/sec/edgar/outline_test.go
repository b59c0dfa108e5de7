package edgar

import (
	"strings"
	"testing"
)

func TestOutline(t *testing.T) {
	long := strings.Repeat("word ", 80)
	doc := `<html><body><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION ` + long + `</p>
<p>Item 1A.</p><p>Risk Factors</p><p>1A page 12</p>
<p>Item 1A. Risk Factors</p><p>Export controls may hurt us. ` + long + `</p>
<p>Item 8. Financial Statements and Supplementary Data</p><p>` + long + `</p>
<p>Note 16 - Segment Information</p><p>Compute &amp; Networking revenue. ` + long + `</p>
<p>Item 9. Changes in and Disagreements with Accountants</p><p>None. ` + long + `</p></body></html>`
	parts := Outline([]byte(doc), "10-K")
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.Label)
	}
	want := []string{"Cover page", "Item 1A. Risk Factors", "Item 8. Financial Statements and Supplementary Data",
		"Item 8. Financial Statements and Supplementary Data — Note 16. Segment Information", "Item 9. Changes in and Disagreements with Accountants"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("labels = %q\nwant %q", labels, want)
	}
	if !strings.Contains(parts[3].Text, "Compute & Networking") {
		t.Errorf("note text = %.100q", parts[3].Text)
	}
}

func TestOutlineQuarterlyParts(t *testing.T) {
	long := strings.Repeat("word ", 80)
	doc := `<p>PART I. FINANCIAL INFORMATION</p><p>Item 2. Management's Discussion and Analysis</p><p>` + long + `</p>
<p>PART II. OTHER INFORMATION</p><p>Item 1A. Risk Factors</p><p>` + long + `</p>`
	parts := Outline([]byte(doc), "10-Q")
	if len(parts) != 2 || parts[0].Label != "Part I, Item 2. Management's Discussion and Analysis" || parts[1].Label != "Part II, Item 1A. Risk Factors" {
		t.Fatalf("parts = %+v", parts)
	}
}

func TestPassages(t *testing.T) {
	text := strings.Repeat("alpha beta gamma\n", 100)
	ps := Passages(text, 200)
	for _, p := range ps {
		if len(p) > 200 {
			t.Fatalf("passage of %d bytes", len(p))
		}
	}
	if got := strings.Join(ps, "\n"); got != strings.TrimSpace(text) {
		t.Error("passages lost text")
	}
}
