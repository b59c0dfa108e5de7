package edgar

import (
	"strings"
	"testing"
)

// TestOutline20F outlines the synthetic 20-F: the table of contents starts no
// part (its entries end in page numbers), the notes after it stay with the
// cover, and lettered sub-items are parts labelled with their item.
func TestOutline20F(t *testing.T) {
	parts := Outline(readFixture(t, "20f_sample.htm"), "20-F")
	byLabel := map[string]string{}
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.Label)
		byLabel[p.Label] = p.Text
	}
	t.Logf("labels: %q", labels)
	for label, text := range map[string]string{
		"Cover page":                                "SPECIAL NOTE REGARDING FORWARD-LOOKING STATEMENTS",
		"Item 3.D. Risk Factors":                    "Export controls may restrict our sales to customers in China.",
		"Item 4.B. Business Overview":               "installed base reached 3,100 systems",
		"Item 5.A. Operating Results":               "Net sales increased by 9.6%",
		"Item 5.B. Liquidity and Capital Resources": "cash and cash equivalents of €318.0 million",
	} {
		got, ok := byLabel[label]
		if !ok {
			t.Errorf("no part %q", label)
			continue
		}
		if !strings.Contains(got, text) {
			t.Errorf("part %q lacks %q:\n%.300s", label, text, got)
		}
	}
	for _, l := range labels {
		if strings.HasPrefix(l, "Item 19") {
			t.Errorf("part %q: the notes after the table of contents were filed under its last entry", l)
		}
	}
	if strings.Contains(byLabel["Item 3.D. Risk Factors"], "INFORMATION ON THE COMPANY") {
		t.Error("Item 3.D runs into Item 4")
	}
	// In a 10-K a line "A. Smith ..." is not a sub-item.
	for _, p := range Outline(readFixture(t, "20f_sample.htm"), "10-K") {
		if strings.Contains(p.Label, "3.D") {
			t.Errorf("10-K outline has 20-F sub-item %q", p.Label)
		}
	}
}

// A letter that does not follow the item's last one (an initial, a list)
// starts no part.
func TestOutline20FSubItemOrder(t *testing.T) {
	long := strings.Repeat("word ", 80)
	doc := `<p>Item 6. Directors, Senior Management and Employees</p><p>B. Compensation</p><p>` + long + `</p>
<p>A. Jansen, Chief Executive Officer</p><p>` + long + `</p><p>C. Board Practices</p><p>` + long + `</p>`
	var labels []string
	for _, p := range Outline([]byte(doc), "20-F") {
		labels = append(labels, p.Label)
	}
	want := []string{"Item 6.B. Compensation", "Item 6.C. Board Practices"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("labels = %q, want %q", labels, want)
	}
}
