package shell

import (
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/snapshot"
)

// complete completes the word at the end of the input line: a command, a
// flag, a flag's value (formats, frameworks), a ticker, an agent or a debate
// id. One candidate is put in; several extend the word to what they share
// and are listed under the input line.
func (m *Model) complete() {
	value := m.input.Value()
	words := strings.Fields(value)
	partial := ""
	if len(words) > 0 && !strings.HasSuffix(value, " ") {
		partial = words[len(words)-1]
		words = words[:len(words)-1]
	}
	cands, suffix := m.candidates(words, partial)
	var match []string
	for _, c := range cands {
		if strings.HasPrefix(strings.ToLower(c), strings.ToLower(partial)) && !slices.Contains(match, c) {
			match = append(match, c)
		}
	}
	base := value[:len(value)-len(partial)]
	switch len(match) {
	case 0:
		m.setBelow("No completion.")
		m.completions = true
		return
	case 1:
		m.input.SetValue(base + match[0] + suffix)
		m.input.CursorEnd()
		m.clearBelow()
		return
	}
	if p := commonPrefix(match); len(p) > len(partial) {
		m.input.SetValue(base + p)
		m.input.CursorEnd()
	}
	shown := match
	if len(shown) > 12 {
		shown = append(slices.Clone(shown[:12]), "…")
	}
	m.below = []belowLine{{dim, strings.Join(shown, "  ")}}
	m.completions = true
}

// candidates are the completions of the word after words, and what follows
// a completed one.
func (m *Model) candidates(words []string, partial string) ([]string, string) {
	if len(words) == 0 {
		if strings.HasPrefix(partial, "/") {
			var out []string
			for _, c := range commands {
				out = append(out, "/"+c.name)
			}
			return out, " "
		}
		if m.run != nil {
			// A hint: the agent first.
			return append(m.hintTargets(m.views[m.run.id]), "all"), ": "
		}
		return nil, ""
	}
	cmd := strings.ToLower(strings.TrimPrefix(words[0], "/"))
	prev := words[len(words)-1]
	switch cmd {
	case "debate":
		switch prev {
		case "--format":
			return m.app.Formats.Names(), " "
		case "--framework":
			return analysis.FrameworkNames(), " "
		case "--risk":
			return []string{"neutral", "averse"}, " "
		case "--resume":
			return m.ids(partial), " "
		}
		if strings.HasPrefix(partial, "-") {
			return m.opts.DebateFlags, " "
		}
		if len(words) == 1 && partial != "" {
			return m.tickerCandidates(partial), " "
		}
	case "resume", "show", "cost", "delete":
		if len(words) == 1 {
			return m.ids(partial), " "
		}
	case "export":
		switch {
		case prev == "--as":
			return []string{"md", "json", "pdf"}, " "
		case strings.HasPrefix(partial, "-"):
			return []string{"--as", "--force", "--summary", "-o"}, " "
		case len(words) == 1:
			return m.ids(partial), " "
		}
	case "ask":
		if len(words) == 1 {
			if v := m.views[m.current]; v != nil {
				return app.Agents(v.state), " "
			}
		}
	case "hint":
		if len(words) == 1 && m.run != nil {
			return append(m.hintTargets(m.views[m.run.id]), "all"), " "
		}
	case "model":
		if len(words) == 1 {
			return []string{"default", "anthropic/", "openai/", "ollama/"}, ""
		}
	}
	return nil, ""
}

// ids are the debate ids that start with what was typed (with or without
// "DEB-", in any case), newest first: without "DEB-" where the typed text
// is the start of the hex digits, and in full where it is the start of the
// id ("DEB" is both).
func (m *Model) ids(partial string) []string {
	sums, err := app.MatchIDs(m.ctx, m.app.Store, partial)
	if err != nil {
		return nil
	}
	up := strings.ToUpper(partial)
	var short, full []string
	for _, s := range sums {
		hex := strings.TrimPrefix(s.ID, "DEB-")
		if !strings.HasPrefix(up, "DEB-") && strings.HasPrefix(strings.ToLower(hex), strings.ToLower(partial)) {
			short = append(short, hex)
		}
		if up != "" && strings.HasPrefix(strings.ToUpper(s.ID), up) {
			full = append(full, s.ID)
		}
	}
	return append(short, full...)
}

// tickerCandidates are the tickers that start with what was typed, larger
// companies first.
func (m *Model) tickerCandidates(partial string) []string {
	if m.tickers == nil {
		if idx, err := snapshot.New().TickerIndex(); err == nil {
			m.tickers = idx
		}
	}
	if m.tickers == nil {
		return nil
	}
	up := strings.ToUpper(partial)
	var out []string
	for _, c := range m.tickers.Companies() {
		if strings.HasPrefix(c.Ticker, up) {
			out = append(out, c.Ticker)
		}
	}
	return out
}

func commonPrefix(words []string) string {
	p := words[0]
	for _, w := range words[1:] {
		for !strings.HasPrefix(strings.ToLower(w), strings.ToLower(p)) {
			p = p[:len(p)-1]
		}
	}
	return p
}
