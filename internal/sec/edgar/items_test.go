package edgar

import (
	"os"
	"testing"
)

func TestParseItems(t *testing.T) {
	items := ParseItems("2.02, 9.01,7.99")
	if len(items) != 3 || items[0].Meaning != "Results of Operations and Financial Condition" ||
		items[1].Meaning != "Financial Statements and Exhibits" || items[2].Meaning != "item 7.99 (not a current Form 8-K item)" {
		t.Errorf("items = %+v", items)
	}
	if len(ParseItems("")) != 0 {
		t.Error("empty list has items")
	}
}

// TestParseFilingIndex reads the document table of a real EDGAR index page
// (an excerpt of Apple's 10-Q 0000320193-25-000057's).
func TestParseFilingIndex(t *testing.T) {
	page, err := os.ReadFile("testdata/0000320193-25-000057-index.htm")
	if err != nil {
		t.Fatal(err)
	}
	got := ParseFilingIndex(page)
	if len(got) != 6 {
		t.Fatalf("%d entries, want the 6 document-format files: %+v", len(got), got)
	}
	// The iXBRL viewer link resolves to the document's name.
	if e := got[0]; e.Name != "aapl-20250329.htm" || e.Type != "10-Q" || e.Seq != "1" {
		t.Errorf("first = %+v", e)
	}
	if e := got[1]; e.Name != "a10-qexhibit31103292025.htm" || e.Type != "EX-31.1" {
		t.Errorf("second = %+v", e)
	}
	if e := got[5]; e.Name != "0000320193-25-000057.txt" || e.Description != "Complete submission text file" {
		t.Errorf("last = %+v", e)
	}
	if ParseFilingIndex([]byte("<html>no table</html>")) != nil {
		t.Error("a page without a document table has entries")
	}
}
