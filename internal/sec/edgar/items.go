package edgar

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Form 8-K items, as the SEC's Form 8-K General Instructions number and
// title them. The submissions feed lists the items of each 8-K ("2.02,9.01").
var items8K = map[string]string{
	"1.01": "Entry into a Material Definitive Agreement",
	"1.02": "Termination of a Material Definitive Agreement",
	"1.03": "Bankruptcy or Receivership",
	"1.04": "Mine Safety - Reporting of Shutdowns and Patterns of Violations",
	"1.05": "Material Cybersecurity Incidents",
	"2.01": "Completion of Acquisition or Disposition of Assets",
	"2.02": "Results of Operations and Financial Condition",
	"2.03": "Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement",
	"2.04": "Triggering Events That Accelerate or Increase a Direct Financial Obligation",
	"2.05": "Costs Associated with Exit or Disposal Activities",
	"2.06": "Material Impairments",
	"3.01": "Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing",
	"3.02": "Unregistered Sales of Equity Securities",
	"3.03": "Material Modification to Rights of Security Holders",
	"4.01": "Changes in Registrant's Certifying Accountant",
	"4.02": "Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review",
	"5.01": "Changes in Control of Registrant",
	"5.02": "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers",
	"5.03": "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year",
	"5.04": "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
	"5.05": "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
	"5.06": "Change in Shell Company Status",
	"5.07": "Submission of Matters to a Vote of Security Holders",
	"5.08": "Shareholder Director Nominations",
	"6.01": "ABS Informational and Computational Material",
	"6.02": "Change of Servicer or Trustee",
	"6.03": "Change in Credit Enhancement or Other External Support",
	"6.04": "Failure to Make a Required Distribution",
	"6.05": "Securities Act Updating Disclosure",
	"7.01": "Regulation FD Disclosure",
	"8.01": "Other Events",
	"9.01": "Financial Statements and Exhibits",
}

// Item is one item of an 8-K with its meaning.
type Item struct {
	Code    string `json:"code"`
	Meaning string `json:"meaning"`
}

// ItemMeaning returns the title of an 8-K item ("2.02" → "Results of
// Operations and Financial Condition"); ok is false for an unknown code.
func ItemMeaning(code string) (string, bool) {
	m, ok := items8K[strings.TrimSpace(code)]
	return m, ok
}

// ParseItems splits the submissions feed's item list ("2.02,9.01") into
// items with their meanings. Unknown codes are kept, marked as such.
func ParseItems(s string) []Item {
	var out []Item
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		m, ok := ItemMeaning(c)
		if !ok {
			m = fmt.Sprintf("item %s (not a current Form 8-K item)", c)
		}
		out = append(out, Item{Code: c, Meaning: m})
	}
	return out
}

// IsCurrentReport reports whether a form is an 8-K or its amendment.
func IsCurrentReport(form string) bool {
	f := strings.ToUpper(strings.TrimSpace(form))
	return f == "8-K" || f == "8-K/A"
}

// FilingIndexURL is the EDGAR index page of a filing, which lists its
// documents and exhibits.
func FilingIndexURL(cik CIK, accession string) string {
	return fmt.Sprintf("%s/Archives/edgar/data/%d/%s/%s-index.htm", DefaultWWWBase, int64(cik), strings.ReplaceAll(accession, "-", ""), accession)
}

// DocumentURL is the EDGAR address of one document of a filing.
func DocumentURL(cik CIK, accession, name string) string {
	return fmt.Sprintf("%s/Archives/edgar/data/%d/%s/%s", DefaultWWWBase, int64(cik), strings.ReplaceAll(accession, "-", ""), name)
}

// IndexEntry is one document listed on a filing's index page.
type IndexEntry struct {
	Seq         string `json:"seq,omitempty"`
	Description string `json:"description,omitempty"`
	Name        string `json:"name"`
	Type        string `json:"type"` // "8-K", "EX-99.1", ...
}

var (
	indexTable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<table[^>]*class="tableFile"[^>]*>(.*?)</table>`)
	})
	indexRow  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<tr[^>]*>(.*?)</tr>`) })
	indexCell = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<td[^>]*>(.*?)</td>`) })
	indexHref = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)href="([^"]+)"`) })
)

// ParseFilingIndex reads the document table of a filing's EDGAR index page
// (…-index.htm): sequence, description, document name and type. Links
// through the inline XBRL viewer ("/ix?doc=/Archives/…") are resolved to
// the document's name.
func ParseFilingIndex(page []byte) []IndexEntry {
	var out []IndexEntry
	tables := indexTable().FindAllSubmatch(page, -1)
	if len(tables) == 0 {
		return nil
	}
	for _, row := range indexRow().FindAllSubmatch(tables[0][1], -1) {
		cells := indexCell().FindAllSubmatch(row[1], -1)
		if len(cells) < 4 {
			continue
		}
		href := indexHref().FindSubmatch(cells[2][1])
		if href == nil {
			continue
		}
		name := string(href[1])
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		text := func(i int) string { return strings.Join(strings.Fields(HTMLText(cells[i][1])), " ") }
		out = append(out, IndexEntry{Seq: text(0), Description: text(1), Name: name, Type: text(3)})
	}
	return out
}
