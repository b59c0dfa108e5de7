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

// Section names a part of a 10-K that the section tool can read.
type Section string

// Sections of a 10-K.
const (
	RiskFactors Section = "1A" // Item 1A. Risk Factors
	MDA         Section = "7"  // Item 7. Management's Discussion and Analysis
)

// Title is the section's heading as a 10-K writes it.
func (s Section) Title() string {
	switch s {
	case RiskFactors:
		return "Item 1A. Risk Factors"
	case MDA:
		return "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
	}
	return "Item " + string(s)
}

type sectionRule struct {
	start   *regexp.Regexp // heading line
	keyword *regexp.Regexp // must follow on the heading line or the next line
	ends    *regexp.Regexp // heading of the next section
}

// sectionRules is a constant table of heading patterns. Headings are matched
// only at the start of a line, so that cross-references in running text
// ("see Item 1A, Risk Factors") are not taken for the section itself.
var sectionRules = sync.OnceValue(func() map[Section]sectionRule {
	return map[Section]sectionRule{
		RiskFactors: {
			start:   regexp.MustCompile(`(?i)^item\s*1a(?:[\s.:\-–—]|$)`),
			keyword: regexp.MustCompile(`(?i)risk\s*factors`),
			ends:    regexp.MustCompile(`(?i)^item\s*(?:1b|1c|2)(?:[\s.:\-–—]|$)`),
		},
		MDA: {
			start:   regexp.MustCompile(`(?i)^item\s*7(?:[\s.:\-–—]|$)`),
			keyword: regexp.MustCompile(`(?i)management[’'\x60s\s]*discussion`),
			ends:    regexp.MustCompile(`(?i)^item\s*(?:7a|8)(?:[\s.:\-–—]|$)`),
		},
	}
})

// ParseSection accepts "1A", "item 1a", "7", "Item 7" and the like.
func ParseSection(s string) (Section, error) {
	t := strings.ToUpper(strings.Join(strings.Fields(s), ""))
	t = strings.TrimSuffix(strings.TrimPrefix(t, "ITEM"), ".")
	switch Section(t) {
	case RiskFactors, MDA:
		return Section(t), nil
	}
	return "", fmt.Errorf("unknown section %q: want \"1A\" (Risk Factors) or \"7\" (MD&A)", s)
}

// ExtractSection finds a section of a 10-K's HTML and returns it as plain
// text, heading included. A 10-K names each item twice, in the table of
// contents and at the section itself; of all headings found, the one followed
// by the longest text before the next item's heading is the section itself.
func ExtractSection(doc []byte, sec Section) (string, error) {
	rule, ok := sectionRules()[sec]
	if !ok {
		return "", fmt.Errorf("unknown section %q: want \"1A\" or \"7\"", sec)
	}
	lines := strings.Split(HTMLText(doc), "\n")
	bestStart, bestEnd, bestLen, bestClosed := -1, -1, -1, false
	for i, line := range lines {
		if !rule.start.MatchString(line) {
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
		return "", fmt.Errorf("%s not found in the document", sec.Title())
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
