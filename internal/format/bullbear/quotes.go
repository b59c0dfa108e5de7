package bullbear

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/parleyhq/parley/internal/debate"
)

// minQuoteWords is the shortest passage in quotation marks treated as a
// quotation; shorter ones are scare quotes or names ("moat").
const minQuoteWords = 4

var quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"\n]+)"|“([^”\n]+)”`) })

// Quotes returns the passages a text quotes: > blockquotes (consecutive lines
// joined) and passages of at least four words in double quotation marks.
func Quotes(text string) []string {
	var out []string
	var block []string
	flush := func() {
		if len(block) > 0 {
			out = append(out, strings.Join(block, " "))
			block = nil
		}
	}
	var rest strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") {
			if q := strings.TrimSpace(strings.TrimLeft(t, "> ")); q != "" {
				block = append(block, q)
			}
			continue
		}
		flush()
		rest.WriteString(line)
		rest.WriteString("\n")
	}
	flush()
	for _, m := range quotedRe().FindAllStringSubmatch(rest.String(), -1) {
		q := m[1] + m[2]
		if len(strings.Fields(q)) >= minQuoteWords {
			out = append(out, strings.TrimSpace(q))
		}
	}
	return out
}

// stripQuotes removes quoted passages, so that the fact check holds an agent
// to its own numbers and not to the ones it quotes from its opponent.
func stripQuotes(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), ">") {
			continue
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return quotedRe().ReplaceAllStringFunc(b.String(), func(q string) string {
		if len(strings.Fields(q)) >= minQuoteWords {
			return " "
		}
		return q
	})
}

// normalize folds case, punctuation and markdown away so that a quotation
// matches its source despite typographic differences ("’" vs "'", "**").
func normalize(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '%' || r == '$' {
			b.WriteRune(r)
			space = false
			continue
		}
		if r == '.' || r == ',' {
			// "65.5%" and "215,938" keep their punctuation between digits
			// only; elsewhere it is a separator.
			b.WriteRune(r)
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	out := strings.TrimSpace(b.String())
	// Drop sentence punctuation that is not between digits.
	var c strings.Builder
	rs := []rune(out)
	for i, r := range rs {
		if (r == '.' || r == ',') && !(i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1])) {
			continue
		}
		c.WriteRune(r)
	}
	return strings.Join(strings.Fields(c.String()), " ")
}

var ellipsisRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.\.\.|…|\[\.\.\.\]`) })

// found reports whether a quotation is in the corpus; an elision ("...")
// splits it into fragments that must each be there, in order.
func found(quote, corpus string) bool {
	nc := normalize(corpus)
	at := 0
	any := false
	for _, frag := range ellipsisRe().Split(quote, -1) {
		nf := normalize(frag)
		if nf == "" {
			continue
		}
		i := strings.Index(nc[at:], nf)
		if i < 0 {
			return false
		}
		at += i + len(nf)
		any = true
	}
	return any
}

// CheckQuotes verifies a rebuttal: it must quote the opponent directly, and
// every quotation must really be in what the opponent said. It returns the
// quotations, or an error wrapping debate.ErrRepairable that says what is
// wrong.
func CheckQuotes(text, corpus, opponentName string) ([]string, error) {
	qs := Quotes(text)
	if len(qs) == 0 {
		return nil, fmt.Errorf("%w: a rebuttal must DIRECTLY QUOTE the %s's point before countering it: put the %s's exact words in \"double quotes\" or on a \"> \" blockquote line",
			debate.ErrRepairable, opponentName, opponentName)
	}
	for _, q := range qs {
		if !found(q, corpus) {
			return nil, fmt.Errorf("%w: the %s never said %q: quote the %s's words exactly as they appear in its opening or rebuttal (use quotation marks only for the %s's words)",
				debate.ErrRepairable, opponentName, abbrev(q, 160), opponentName, opponentName)
		}
	}
	return qs, nil
}

func abbrev(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
