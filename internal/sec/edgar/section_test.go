package edgar

import (
	"os"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExtractSectionRiskFactors(t *testing.T) {
	got, err := ExtractSection(readFixture(t, "10k_sample.htm"), RiskFactors)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Item 1A. Risk Factors\n") {
		t.Errorf("section does not start at the Item 1A heading:\n%.200s", got)
	}
	for _, want := range []string{
		"The following risk factors should be considered",
		"Taiwan Semiconductor Manufacturing Company Limited",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q", want)
		}
	}
	for _, bad := range []string{"Unresolved Staff Comments", "hidden fact", "Item 1. Business", "<span", "&#160;", "forward-looking"} {
		if strings.Contains(got, bad) {
			t.Errorf("section contains %q, which is outside Item 1A or markup:\n%s", bad, got)
		}
	}
}

func TestExtractSectionMDA(t *testing.T) {
	got, err := ExtractSection(readFixture(t, "10k_sample.htm"), MDA)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "Item 7. Management’s Discussion and Analysis") {
		t.Errorf("section does not start at the Item 7 heading:\n%.200s", got)
	}
	if !strings.Contains(got, "Data Center compute & networking; gross margin was <80% as expected.") {
		t.Errorf("entities not decoded or text missing:\n%s", got)
	}
	if strings.Contains(got, "Quantitative and Qualitative") || strings.Contains(got, "var x") {
		t.Errorf("section runs past Item 7A or includes script:\n%s", got)
	}
}

func TestExtractSectionMissing(t *testing.T) {
	_, err := ExtractSection([]byte("<html><body><p>Item 1. Business</p><p>We sell things.</p></body></html>"), RiskFactors)
	if err == nil || !strings.Contains(err.Error(), "Item 1A. Risk Factors not found") {
		t.Fatalf("err = %v, want a not-found error naming the section", err)
	}
}

func TestParseSection(t *testing.T) {
	for in, want := range map[string]Section{"1A": RiskFactors, "item 1a": RiskFactors, "Item 1A.": RiskFactors, "7": MDA, "Item 7": MDA} {
		got, err := ParseSection(in)
		if err != nil || got != want {
			t.Errorf("ParseSection(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSection("7A"); err == nil {
		t.Error("ParseSection(7A) succeeded; want an error")
	}
}

func TestExcerpt(t *testing.T) {
	text := strings.Repeat("word ", 100) // 500 bytes
	got, next := Excerpt(text, 0, 52)
	if len(got) > 52 || next != len(got) || strings.HasSuffix(got, "wor") {
		t.Errorf("Excerpt(0, 52) = %q, next %d", got, next)
	}
	got2, next2 := Excerpt(text, next, 1000)
	if got+got2 != text || next2 != 0 {
		t.Errorf("pages do not rejoin the text (next2=%d)", next2)
	}
	if got, next := Excerpt("short", 0, 100); got != "short" || next != 0 {
		t.Errorf("Excerpt(short) = %q, %d", got, next)
	}
}

func TestHTMLText(t *testing.T) {
	in := `<p>A&nbsp;&amp;&#160;B</p><!-- c <p>x</p> --><table><tr><td>1</td><td>2</td></tr></table>x < y`
	want := "A & B\n1 2\nx < y"
	if got := HTMLText([]byte(in)); got != want {
		t.Errorf("HTMLText = %q, want %q", got, want)
	}
}
