package edgar

import (
	"regexp"
	"strings"
	"sync"
)

// Part is a titled part of a filing's text: an item of a 10-K or 10-Q, or a
// note to the financial statements within one.
type Part struct {
	// Label names the part as the filing does: "Item 1A. Risk Factors",
	// "Part II, Item 1A. Risk Factors", "Item 8. ... — Note 16. Segment Information".
	Label string
	Text  string
}

var (
	itemHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^item\s*(\d{1,2}[a-k]?)\s*(?:[.:\-–—]\s*|\s+|$)(.*)$`)
	})
	// subItemHeading is a 20-F's lettered sub-item ("D. Risk Factors",
	// "B. Liquidity and Capital Resources").
	subItemHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-K])\s*[.:)]\s+(\S.{2,100})$`)
	})
	// tocPage is the page number a table-of-contents entry ends with.
	tocPage     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s(?:\d{1,3}|[A-F]-\d{1,3})$`) })
	partHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^part\s+(iv|iii|ii|i)\b\s*[.:\-–—]?\s*(.*)$`)
	})
	noteHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^note\s+(\d{1,2})\s*[.:\-–—]?\s*(.{3,100})$`)
	})
)

// minPart is the least text a heading must be followed by to count as a
// part: a table of contents names every item with a page number only.
const minPart = 300

// Outline splits a 10-K's, 10-Q's or 20-F's HTML into its parts, in
// document order: the cover (text before the first item), then each item;
// within an item, each "Note N." heading starts a part of its own so that a
// search finds the segment note rather than all of Item 8. Table-of-contents
// entries (an item heading ending in its page number) do not start a part,
// so that the notes after the table of contents stay with the cover rather
// than being filed under its last entry. A 10-Q's items are prefixed with
// their part ("Part I, Item 2"); a 20-F's lettered sub-items are parts of
// their own, labelled with the item ("Item 3.D. Risk Factors").
func Outline(doc []byte, form string) []Part {
	lines := strings.Split(HTMLText(doc), "\n")
	quarterly := strings.HasPrefix(strings.ToUpper(form), "10-Q")
	twentyF := AnnualKind(form) == "20-F"
	var parts []Part
	label := "Cover page"
	item, itemNum, sub := "", "", byte(0)
	partName := ""
	var buf []string
	flush := func() {
		text := strings.TrimSpace(strings.Join(buf, "\n"))
		buf = buf[:0]
		if len(text) >= minPart {
			parts = append(parts, Part{Label: label, Text: text})
		}
	}
	for i, line := range lines {
		if m := partHeading().FindStringSubmatch(line); m != nil && len(line) < 120 {
			partName = "Part " + strings.ToUpper(m[1])
			continue
		}
		if m := itemHeading().FindStringSubmatch(line); m != nil && len(line) < 200 {
			title := strings.TrimSpace(m[2])
			if title == "" && i+1 < len(lines) && len(lines[i+1]) < 150 {
				title = strings.TrimSpace(lines[i+1])
			}
			if tocPage().MatchString(title) {
				buf = append(buf, line)
				continue
			}
			flush()
			itemNum, sub = strings.ToUpper(m[1]), 0
			item = "Item " + itemNum + "."
			if title != "" {
				item += " " + title
			}
			label = item
			if quarterly && partName != "" {
				label = partName + ", " + item
			}
			buf = append(buf, line)
			continue
		}
		// A sub-item's letter comes after the last one of its item, which
		// keeps an initial ("J. Smith") or a list from starting a part.
		if m := subItemHeading().FindStringSubmatch(line); twentyF && m != nil && item != "" && m[1][0] > sub &&
			!strings.HasSuffix(line, ".") && !tocPage().MatchString(line) {
			flush()
			sub = m[1][0]
			item = "Item " + itemNum + "." + m[1] + ". " + strings.TrimSpace(m[2])
			label = item
		}
		if m := noteHeading().FindStringSubmatch(line); m != nil && item != "" {
			flush()
			base := item
			if quarterly && partName != "" {
				base = partName + ", " + item
			}
			label = base + " — Note " + m[1] + ". " + strings.TrimSpace(m[2])
		}
		buf = append(buf, line)
	}
	flush()
	return parts
}

// Passages splits a part's text into passages of about size bytes, on line
// boundaries (a long line is cut at a word boundary).
func Passages(text string, size int) []string {
	var out []string
	var cur strings.Builder
	emit := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for _, line := range strings.Split(text, "\n") {
		for len(line) > size {
			cut, _ := Excerpt(line, 0, size)
			if cut == "" {
				cut = line[:size]
			}
			if cur.Len() > 0 {
				emit()
			}
			cur.WriteString(cut)
			emit()
			line = strings.TrimSpace(line[len(cut):])
		}
		if cur.Len()+len(line) > size && cur.Len() > 0 {
			emit()
		}
		if cur.Len() > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(line)
	}
	emit()
	return out
}
