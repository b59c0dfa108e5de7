package edgar

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A 40-F is a wrapper round exhibits: a Canadian issuer's annual information
// form (AIF, laid out by Canada's Form 51-102F2), its MD&A and its financial
// statements. The AIF has no item numbers; its sections are headed by the
// form's titles, sometimes numbered ("5. RISK FACTORS").

// aifHeading is a top-level heading of an annual information form.
var aifHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(?:item|section)?\s*\d{1,2}\s*[.:\-–—]?\s*)?(?:corporate structure|general development of (?:the|our) business|` +
		`(?:description|narrative description) of (?:the |our )?business|risk factors|dividends(?: and distributions)?|` +
		`description of (?:the |our )?capital structure|market for (?:the )?securities|escrowed securities.{0,40}|` +
		`directors and (?:executive )?officers|promoters|legal proceedings.{0,40}|interests? of management and others in material transactions|` +
		`transfer agents?.{0,30}|material contracts|interests? of experts|audit committee.{0,40}|additional information|` +
		`mineral propert(?:y|ies).{0,30}|glossary.{0,30}|forward[- ]looking (?:statements|information).{0,30}|cautionary (?:note|statement).{0,60})$`)
})

// aifSection is the heading each section is read under.
var aifSection = sync.OnceValue(func() map[Section]*regexp.Regexp {
	return map[Section]*regexp.Regexp{
		RiskFactors: regexp.MustCompile(`(?i)risk factors$`),
		Business:    regexp.MustCompile(`(?i)description of (?:the |our )?business$`),
	}
})

// ExtractAIFSection finds the risk factors or business section of an annual
// information form's text (HTMLText): from its heading to the next top-level
// heading written in the same case (a sub-heading "Dividends" in a risk factor
// does not end "RISK FACTORS"). As with item headings, of all matches the one
// followed by the longest text wins, which skips the table of contents.
func ExtractAIFSection(text string, sec Section) (string, error) {
	want, ok := aifSection()[sec]
	if !ok {
		return "", fmt.Errorf("an annual information form has no %s section", sec.Title())
	}
	lines := strings.Split(text, "\n")
	bestStart, bestEnd, bestLen := -1, -1, 0
	for i, line := range lines {
		if len(line) > 80 || !aifHeading().MatchString(line) || !want.MatchString(line) {
			continue
		}
		upper := line == strings.ToUpper(line)
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			l := lines[j]
			if len(l) <= 80 && aifHeading().MatchString(l) && (l == strings.ToUpper(l)) == upper {
				end = j
				break
			}
		}
		n := 0
		for _, l := range lines[i+1 : end] {
			n += len(l)
		}
		if n > bestLen {
			bestStart, bestEnd, bestLen = i, end, n
		}
	}
	if bestStart < 0 {
		return "", fmt.Errorf("no %q heading in the annual information form", strings.TrimPrefix(want.String(), "(?i)"))
	}
	return strings.TrimSpace(strings.Join(lines[bestStart:bestEnd], "\n")), nil
}
