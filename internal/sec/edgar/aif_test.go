package edgar

import (
	"strings"
	"testing"
)

// A synthetic annual information form: a table of contents, numbered
// upper-case headings, and a sub-heading inside the risk factors that shares
// a top-level heading's words in another case.
func TestExtractAIFSection(t *testing.T) {
	doc := `<p>ANNUAL INFORMATION FORM</p><p>TABLE OF CONTENTS</p><table>
<tr><td>CORPORATE STRUCTURE</td><td>3</td></tr><tr><td>DESCRIPTION OF THE BUSINESS</td><td>4</td></tr>
<tr><td>RISK FACTORS</td><td>12</td></tr><tr><td>DIVIDENDS</td><td>20</td></tr></table>
<p>1. CORPORATE STRUCTURE</p><p>Nordvik Resources Ltd. was amalgamated under the Canada Business Corporations Act.</p>
<p>2. DESCRIPTION OF THE BUSINESS</p><p>We mine copper and zinc at two sites in British Columbia, selling concentrate to smelters in Asia.</p>
<p>3. RISK FACTORS</p><p>Copper prices are volatile; a 10% fall would reduce revenue by C$120 million.</p>
<p>Dividends</p><p>We may not be able to maintain our quarterly dividend if copper prices fall.</p>
<p>4. DIVIDENDS</p><p>We paid C$0.10 per share each quarter in 2025.</p>`
	text := HTMLText([]byte(doc))
	got, err := ExtractAIFSection(text, RiskFactors)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "3. RISK FACTORS\nCopper prices are volatile") || !strings.Contains(got, "maintain our quarterly dividend") ||
		strings.Contains(got, "C$0.10 per share") {
		t.Errorf("risk factors:\n%s", got)
	}
	got, err = ExtractAIFSection(text, Business)
	if err != nil || !strings.Contains(got, "We mine copper and zinc") || strings.Contains(got, "Copper prices are volatile") {
		t.Errorf("business: %v\n%s", err, got)
	}
	if _, err := ExtractAIFSection(text, MDA); err == nil {
		t.Error("an AIF gave an MD&A section")
	}
	if _, err := ExtractAIFSection("ANNUAL INFORMATION FORM\nWe mine copper.", RiskFactors); err == nil || !strings.Contains(err.Error(), "risk factors") {
		t.Errorf("err = %v, want one naming the missing heading", err)
	}
}
