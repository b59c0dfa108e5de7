package edgar

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Section names a part of an annual report that the section tool can read.
// Its value is the 10-K's item number; a 20-F holds the same part under an
// item of its own (TitleFor).
type Section string

// Sections of an annual report.
const (
	Business    Section = "1"  // 10-K Item 1. Business; 20-F Item 4. Information on the Company
	RiskFactors Section = "1A" // 10-K Item 1A. Risk Factors; 20-F Item 3.D. Risk Factors
	MDA         Section = "7"  // 10-K Item 7. MD&A; 20-F Item 5. Operating and Financial Review and Prospects
)

// Title is the section's heading as a 10-K writes it.
func (s Section) Title() string {
	switch s {
	case Business:
		return "Item 1. Business"
	case RiskFactors:
		return "Item 1A. Risk Factors"
	case MDA:
		return "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
	}
	return "Item " + string(s)
}

// TitleFor is the section's heading in an annual report of the given form:
// a 20-F (Form 20-F, Part I) numbers and names its items differently from a
// 10-K, and an answer should cite the item the filing itself uses.
func (s Section) TitleFor(form string) string {
	if AnnualKind(form) != "20-F" {
		return s.Title()
	}
	switch s {
	case Business:
		return "Item 4. Information on the Company"
	case RiskFactors:
		return "Item 3.D. Risk Factors"
	case MDA:
		return "Item 5. Operating and Financial Review and Prospects"
	}
	return "Item " + string(s)
}

// AnnualKind is the layout an annual report's form follows: "10-K" (10-K,
// 10-KT and amendments), "20-F" or "40-F" (and amendments), else "".
func AnnualKind(form string) string {
	f := strings.ToUpper(strings.TrimSpace(form))
	if f == "10-K" || f == "10-K/A" || f == "10-KT" || f == "10-KT/A" {
		return "10-K"
	}
	return foreignAnnualForm(f)
}

// startPat is one way a section's heading line can be written. A lettered
// sub-item of a 20-F ("D. Risk Factors") is a heading only under its item
// (under): elsewhere "D." starts some other item's sub-item.
type startPat struct {
	re    *regexp.Regexp
	under *regexp.Regexp // the item heading it must follow, or nil
}

type sectionRule struct {
	starts  []startPat     // heading line
	keyword *regexp.Regexp // must follow on the heading line or the next line
	ends    *regexp.Regexp // heading of the next section
}

// itemLine is any item heading, to know which item a sub-item heading is in.
var itemLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^item\s*\d{1,2}[a-k]?(?:[\s.:\-–—]|$)`)
})

// sectionRules is a constant table of heading patterns, by annual report
// layout. Headings are matched only at the start of a line, so that
// cross-references in running text ("see Item 1A, Risk Factors", "see
// “Item 5. Operating and Financial Review and Prospects”") are not taken for
// the section itself.
var sectionRules = sync.OnceValue(func() map[string]map[Section]sectionRule {
	one := func(re string) []startPat { return []startPat{{re: regexp.MustCompile(re)}} }
	return map[string]map[Section]sectionRule{
		"10-K": {
			Business: {
				starts:  one(`(?i)^item\s*1(?:[\s.:\-–—]|$)`),
				keyword: regexp.MustCompile(`(?i)business`),
				ends:    regexp.MustCompile(`(?i)^item\s*(?:1a|1b|1c|2)(?:[\s.:\-–—]|$)`),
			},
			RiskFactors: {
				starts:  one(`(?i)^item\s*1a(?:[\s.:\-–—]|$)`),
				keyword: regexp.MustCompile(`(?i)risk\s*factors`),
				ends:    regexp.MustCompile(`(?i)^item\s*(?:1b|1c|2)(?:[\s.:\-–—]|$)`),
			},
			MDA: {
				starts:  one(`(?i)^item\s*7(?:[\s.:\-–—]|$)`),
				keyword: regexp.MustCompile(`(?i)management[’'\x60s\s]*discussion`),
				ends:    regexp.MustCompile(`(?i)^item\s*(?:7a|8)(?:[\s.:\-–—]|$)`),
			},
		},
		// Form 20-F, Part I: risk factors are sub-item D of Item 3 (Key
		// Information), written "D. Risk Factors" under an "Item 3." heading,
		// or "3.D Risk Factors", "Item 3.D. Risk Factors", "Item 3. Key
		// Information — D. Risk Factors"; Item 4A sits between Items 4 and 5;
		// Item 7 is Major Shareholders, not the MD&A.
		"20-F": {
			Business: {
				starts:  one(`(?i)^item\s*4(?:[\s.:\-–—]|$)`),
				keyword: regexp.MustCompile(`(?i)information\s+on\s+the\s+company`),
				ends:    regexp.MustCompile(`(?i)^item\s*(?:4a|5)(?:[\s.:\-–—]|$)`),
			},
			RiskFactors: {
				starts: []startPat{
					{re: regexp.MustCompile(`(?i)^d\s*[.:)\-–—]\s*(?:risk\s*factors|$)`),
						under: regexp.MustCompile(`(?i)^item\s*3(?:[\s.:\-–—]|$)`)},
					{re: regexp.MustCompile(`(?i)^(?:item\s*)?3\s*\.?\s*d\s*[.:)\-–—]?\s*risk\s*factors`)},
					{re: regexp.MustCompile(`(?i)^item\s*3\s*[.:\-–—]?\s*key\s+information\s*[.:,\-–—]*\s*d\s*[.:)\-–—]?\s*risk\s*factors`)},
				},
				keyword: regexp.MustCompile(`(?i)risk\s*factors`),
				ends:    regexp.MustCompile(`(?i)^item\s*4(?:[\s.:\-–—]|$)`),
			},
			MDA: {
				starts:  one(`(?i)^item\s*5(?:[\s.:\-–—]|$)`),
				keyword: regexp.MustCompile(`(?i)operating\s+and\s+financial\s+review`),
				ends:    regexp.MustCompile(`(?i)^item\s*6(?:[\s.:\-–—]|$)`),
			},
		},
	}
})

// ParseSection accepts "1A", "item 1a", "7", "Item 7", "1" and the names
// "risk factors", "MD&A" and "business", as they apply to a 10-K.
func ParseSection(s string) (Section, error) { return ParseSectionFor("10-K", s) }

// ParseSectionFor reads a section name for an annual report of the given
// form. The 10-K's numbers and the names serve every form; a 20-F's own item
// numbers ("3.D", "Item 5", "4") are read for a 20-F only, as "5" and "4" are
// other items of a 10-K.
func ParseSectionFor(form, s string) (Section, error) {
	t := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	t = strings.TrimSuffix(strings.TrimPrefix(t, "ITEM"), ".")
	switch t {
	case "1", "1A", "7":
		return Section(t), nil
	case "BUSINESS":
		return Business, nil
	case "RISKFACTORS":
		return RiskFactors, nil
	case "MD&A", "MDA", "MANAGEMENT'SDISCUSSIONANDANALYSIS", "MANAGEMENT’SDISCUSSIONANDANALYSIS", "OPERATINGANDFINANCIALREVIEW",
		"OPERATINGANDFINANCIALREVIEWANDPROSPECTS":
		return MDA, nil
	}
	if AnnualKind(form) == "20-F" {
		switch t {
		case "3D", "3.D", "3(D)":
			return RiskFactors, nil
		case "5":
			return MDA, nil
		case "4", "INFORMATIONONTHECOMPANY":
			return Business, nil
		}
		return "", fmt.Errorf("unknown section %q of a 20-F: want \"risk factors\" (Item 3.D), \"MD&A\" (Item 5) or \"business\" (Item 4)", s)
	}
	return "", fmt.Errorf("unknown section %q: want \"1A\" (Risk Factors), \"7\" (MD&A) or \"1\" (Business)", s)
}

// ExtractSection finds a section of a 10-K's HTML (ExtractFormSection).
func ExtractSection(doc []byte, sec Section) (string, error) {
	return ExtractFormSection(doc, "10-K", sec)
}

// ExtractFormSection finds a section of an annual report's HTML and returns
// it as plain text, heading included. An annual report names each item twice,
// in the table of contents and at the section itself; of all headings found,
// the one followed by the longest text before the next item's heading is the
// section itself. A 40-F is a wrapper round exhibits (the annual information
// form, the MD&A) and has no such items: it is refused.
func ExtractFormSection(doc []byte, form string, sec Section) (string, error) {
	kind := AnnualKind(form)
	rules, ok := sectionRules()[kind]
	if !ok {
		return "", fmt.Errorf("sections are read from a 10-K or 20-F, not a %s", form)
	}
	rule, ok := rules[sec]
	if !ok {
		return "", fmt.Errorf("unknown section %q: want \"1A\", \"7\" or \"1\"", sec)
	}
	lines := strings.Split(HTMLText(doc), "\n")
	bestStart, bestEnd, bestLen, bestClosed := -1, -1, -1, false
	item := "" // the last item heading seen
	for i, line := range lines {
		heading := false
		for _, p := range rule.starts {
			if p.re.MatchString(line) && (p.under == nil || p.under.MatchString(item)) {
				heading = true
				break
			}
		}
		if itemLine().MatchString(line) {
			item = line
		}
		if !heading {
			continue
		}
		if !rule.keyword.MatchString(line) && (i+1 >= len(lines) || !rule.keyword.MatchString(lines[i+1])) {
			continue
		}
		end, closed := len(lines), false
		for j := i + 1; j < len(lines); j++ {
			if rule.ends.MatchString(lines[j]) {
				end, closed = j, true
				break
			}
		}
		n := 0
		for _, l := range lines[i+1 : end] {
			n += len(l)
		}
		// A heading closed by the next item's heading beats one that runs to
		// the end of the document: the latter is usually a TOC entry whose
		// section heading we failed to recognise.
		if (closed && !bestClosed) || (closed == bestClosed && n > bestLen) {
			bestStart, bestEnd, bestLen, bestClosed = i, end, n, closed
		}
	}
	if bestStart < 0 || bestLen == 0 {
		return "", fmt.Errorf("%s not found in the document", sec.TitleFor(form))
	}
	return strings.TrimSpace(strings.Join(lines[bestStart:bestEnd], "\n")), nil
}

// Excerpt returns at most max bytes of text starting at offset, cut at a
// word boundary, and the offset to continue from (0 when the text is done).
func Excerpt(text string, offset, max int) (string, int) {
	if offset < 0 {
		offset = 0
	}
	if offset >= len(text) {
		return "", 0
	}
	for offset > 0 && offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset++
	}
	rest := text[offset:]
	if max <= 0 || len(rest) <= max {
		return rest, 0
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(rest[cut]) {
		cut--
	}
	if i := strings.LastIndexAny(rest[:cut], " \n"); i > max/2 {
		cut = i
	}
	return rest[:cut], offset + cut
}

// Tags whose content is not document text. ix:header holds the hidden inline
// XBRL facts of a 10-K.
var skipContent = map[string]bool{"script": true, "style": true, "head": true, "ix:header": true, "noscript": true}

// Tags that break a line.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "tr": true, "li": true, "table": true, "section": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "hr": true,
	"ul": true, "ol": true, "blockquote": true, "pre": true, "dt": true, "dd": true,
	"center": true, "article": true, "body": true, "title": true, "tbody": true, "thead": true,
}

// HTMLText turns HTML into plain text: tags removed (with the content of
// script, style, head and the inline-XBRL header), block elements ending
// lines, table cells separated by spaces, entities decoded, whitespace
// collapsed within lines and blank lines dropped.
func HTMLText(doc []byte) string {
	var b strings.Builder
	b.Grow(len(doc) / 3)
	s := doc
	for len(s) > 0 {
		lt := bytes.IndexByte(s, '<')
		if lt < 0 {
			b.Write(s)
			break
		}
		b.Write(s[:lt])
		s = s[lt:]
		if bytes.HasPrefix(s, []byte("<!--")) {
			end := bytes.Index(s, []byte("-->"))
			if end < 0 {
				break
			}
			s = s[end+3:]
			continue
		}
		name, closing, rest, ok := readTag(s)
		if !ok { // a lone '<' in text
			b.WriteByte('<')
			s = s[1:]
			continue
		}
		s = rest
		switch {
		case skipContent[name] && !closing:
			s = skipPast(s, name)
		case blockTags[name]:
			b.WriteByte('\n')
		case name == "td" || name == "th":
			b.WriteByte(' ')
		}
	}
	return tidyText(html.UnescapeString(b.String()))
}

// readTag parses the tag at the start of s ("<name ...>" or "</name>").
func readTag(s []byte) (name string, closing bool, rest []byte, ok bool) {
	i := 1
	if i < len(s) && s[i] == '/' {
		closing = true
		i++
	}
	if i < len(s) && s[i] == '!' || i < len(s) && s[i] == '?' { // doctype, processing instruction
		end := bytes.IndexByte(s, '>')
		if end < 0 {
			return "", false, nil, false
		}
		return "!", false, s[end+1:], true
	}
	j := i
	for j < len(s) && (isNameByte(s[j])) {
		j++
	}
	if j == i {
		return "", false, nil, false
	}
	name = strings.ToLower(string(s[i:j]))
	var quote byte
	for ; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return name, closing, s[j+1:], true
		}
	}
	return name, closing, nil, true
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ':' || c == '-' || c == '_'
}

// skipPast returns s after the closing tag of name (case-insensitive).
func skipPast(s []byte, name string) []byte {
	closeTag := []byte("</" + name)
	for {
		i := bytes.IndexByte(s, '<')
		if i < 0 {
			return nil
		}
		s = s[i:]
		if len(s) >= len(closeTag) && bytes.EqualFold(s[:len(closeTag)], closeTag) {
			if end := bytes.IndexByte(s, '>'); end >= 0 {
				return s[end+1:]
			}
			return nil
		}
		s = s[1:]
	}
}

// tidyText collapses whitespace within lines and drops empty lines.
func tidyText(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.Join(strings.FieldsFunc(l, unicode.IsSpace), " ")
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
