package shell

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/snapshot"
)

// Natural-language triggers (spec: "Natural language detection"): the
// spec's patterns, read case-insensitively, with a company named in words
// as well as by its ticker.
var triggers = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:let'?s\s+|please\s+)?debate\s+(.+)$`),
		regexp.MustCompile(`(?i)\b(?:bull|bear)\s+(?:and|vs\.?|versus|or|/)\s+(?:bull|bear)\s+(?:cases?\s+|debate\s+)?(?:for|on|of|about)?\s*(.+)$`),
		regexp.MustCompile(`(?i)\bboth\s+sides\s+(?:of|on|for|about)?\s*(.+)$`),
		regexp.MustCompile(`(?i)(?:give\s+me|what'?s|what\s+are|what\s+is|show\s+me)\s+(?:the\s+)?(?:bull|bear)\s+(?:and\s+(?:bull|bear)\s+)?cases?\s+(?:for|on|of)\s+(.+)$`),
	}
})

var (
	deepWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:in\s+deep\s+mode|deep\s+mode|in[\s-]depth|deep(?:ly)?)\b`)
	})
	fillerStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:the\s+|a\s+)`) })
	fillerEnd   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:'s)?\s+(?:stock|shares|equity|please|now)$`) })
)

// detect reads a debate request in words: the company named (as typed) and
// whether deep mode was asked for.
func detect(line string) (name string, deep, ok bool) {
	line = strings.TrimSpace(line)
	for _, re := range triggers() {
		sub := re.FindStringSubmatch(line)
		if sub == nil {
			continue
		}
		name = sub[1]
		deep = deepWords().MatchString(line)
		name = deepWords().ReplaceAllString(name, " ")
		name = strings.Trim(strings.Join(strings.Fields(name), " "), " ?!.,;:\"'")
		for {
			n := strings.TrimSpace(fillerEnd().ReplaceAllString(fillerStart().ReplaceAllString(name, ""), ""))
			if n == name {
				break
			}
			name = n
		}
		return name, deep, name != ""
	}
	return "", false, false
}

// companySuffixes are the words of a company's legal name that nobody types.
var companySuffixes = map[string]bool{"inc": true, "corp": true, "corporation": true, "co": true, "company": true, "ltd": true, "limited": true,
	"plc": true, "llc": true, "lp": true, "sa": true, "nv": true, "ag": true, "se": true, "holdings": true, "holding": true, "group": true,
	"de": true, "the": true, "class": true, "a": true, "b": true, "c": true}

// normName is a company name as people type it: lower case, no punctuation,
// no legal form ("Tesla, Inc." → "tesla").
func normName(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '&'
	})
	for len(f) > 1 && f[0] == "the" {
		f = f[1:]
	}
	for len(f) > 1 && companySuffixes[f[len(f)-1]] {
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

// resolveCompany finds the companies a name or ticker names, in the SEC
// list's order: one when it is clear, several when it is ambiguous.
func resolveCompany(idx *edgar.TickerIndex, typed string) []edgar.Company {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return nil
	}
	if t, ok := bullbear.Ticker(typed); ok {
		typed = t // a cashtag: $NVDA
	}
	ticker, tickerErr := idx.Lookup(typed)
	if tickerErr == nil && bullbear.TickerTopic().MatchString(typed) {
		return []edgar.Company{ticker} // typed as a ticker: NVDA
	}
	want := normName(typed)
	var exact, prefix []edgar.Company
	for _, c := range idx.Companies() {
		n := normName(c.Name)
		switch {
		case n == want:
			exact = append(exact, c)
		case strings.HasPrefix(n, want+" "):
			prefix = append(prefix, c)
		}
	}
	switch {
	case len(exact) > 0:
		return exact
	case tickerErr == nil:
		return []edgar.Company{ticker} // a ticker typed in lower case: nvda
	}
	return prefix
}

type companiesMsg struct {
	idx  *edgar.TickerIndex
	err  error
	name string
	deep bool
}

// trigger starts a debate asked for in words; other text starts nothing
// and says how to start one.
func (m *Model) trigger(line string) tea.Cmd {
	name, deep, ok := detect(line)
	if !ok {
		m.say(plain, "That starts nothing. To start a debate: /debate TOPIC|TICKER [flags] (for example /debate \"Kafka or RabbitMQ?\" --format council), "+
			"or ask in words, for example \"Give me both sides of NVDA\". /help lists the commands.")
		return nil
	}
	if m.tickers != nil {
		return m.companies(companiesMsg{idx: m.tickers, name: name, deep: deep})
	}
	load, ctx, env := m.opts.Companies, m.ctx, m.app.Env
	m.wait("Looking up " + app.Truncate(clean(name), 40) + "…")
	return func() tea.Msg {
		var idx *edgar.TickerIndex
		var err error
		if load != nil {
			idx, err = load(ctx, env)
		} else {
			idx, err = snapshot.New().TickerIndex()
		}
		return companiesMsg{idx: idx, err: err, name: name, deep: deep}
	}
}

// companies goes on with a trigger once the ticker list is at hand: it
// says what it understood and starts, or asks which company was meant.
func (m *Model) companies(msg companiesMsg) tea.Cmd {
	m.busy = ""
	if msg.err != nil {
		m.fail(fmt.Errorf("the SEC ticker list: %w; give the ticker instead: /debate TICKER", msg.err))
		return nil
	}
	m.tickers = msg.idx
	found := resolveCompany(msg.idx, msg.name)
	switch len(found) {
	case 0:
		m.say(plain, fmt.Sprintf("No company called %q is in the SEC ticker list, so nothing started. Give its ticker (/debate TICKER), or debate a question: /debate \"…\".", clean(msg.name)))
		return nil
	case 1:
		return m.startOn(found[0], msg.deep)
	}
	if len(found) > 6 {
		found = found[:6]
	}
	var opts []string
	for i, c := range found {
		opts = append(opts, fmt.Sprintf("%d) %s (%s)", i+1, c.Ticker, clean(c.Name)))
	}
	m.say(plain, fmt.Sprintf("%q could be any of: %s.", clean(msg.name), strings.Join(opts, ", ")))
	m.askUser("Which one? Type its number or ticker (anything else starts nothing).", "a number or a ticker", func(line string) tea.Cmd {
		line = strings.TrimSpace(line)
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(found) {
			return m.startOn(found[n-1], msg.deep)
		}
		if i := slices.IndexFunc(found, func(c edgar.Company) bool { return strings.EqualFold(c.Ticker, line) }); i >= 0 {
			return m.startOn(found[i], msg.deep)
		}
		m.say(plain, "Nothing started.")
		return nil
	})
	return nil
}

// startOn starts a bull vs. bear debate on a company, as /debate TICKER
// would (the command line's parser, the resume question).
func (m *Model) startOn(c edgar.Company, deep bool) tea.Cmd {
	mode := "quick mode"
	args := []string{c.Ticker, "--format", bullbear.Name}
	if deep {
		mode = "deep mode"
		args = append(args, "--deep")
	}
	m.say(plain, fmt.Sprintf("Bull vs. bear on %s (%s), %s. Starting…", c.Ticker, clean(c.Name), mode))
	req, err := m.opts.ParseDebate(m.ctx, args)
	if err != nil {
		m.fail(err)
		return nil
	}
	return m.offerResume(req)
}
