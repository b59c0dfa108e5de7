// Package report holds what every format's document shares: the per-agent
// token and cost table.
package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// AgentUsage is one agent's line of the token and cost report.
type AgentUsage struct {
	Agent  string
	Models []string // "provider/model" of its LLM turns, in first-use order
	Turns  int      // completed turns, follow-up answers included
	NoLLM  int      // of which data-only
	Usage  llm.Usage
	// CostUSD is what the turns cost; Unpriced lists the models without a
	// known price, whose cost is then unknown rather than a wrong $0.
	CostUSD  float64
	Unpriced []string
	// Uncounted are the models of Unpriced whose price is known but whose
	// server sent no token counts (llm.Usage.Unreported) for some turns:
	// the cost is unknown for that reason, not for want of a price.
	Uncounted []string
}

// CostKnown reports whether every model the agent used has a price.
func (a AgentUsage) CostKnown() bool { return len(a.Unpriced) == 0 }

// Usage is the report per agent, the agents of order first (in that
// order), then the others by id (concurrent turns complete in any order;
// the report must not). Each turn counts at the cost recorded when it ran
// (with the prices, the user's included, of that run), and is unknown by
// debate.CostUnknown: the rule of debate.Project, so that the table's
// total is the figure the debate's summary shows in list views. Turns are
// never priced again here: a $0 turn of a model priced since would make
// the document and the list disagree.
func Usage(s *debate.State, order ...string) []AgentUsage {
	byAgent := map[string]*AgentUsage{}
	for _, a := range order {
		byAgent[a] = &AgentUsage{Agent: a}
	}
	given := len(order)
	for _, t := range s.CompletedTurns() {
		au := byAgent[t.Agent]
		if au == nil {
			au = &AgentUsage{Agent: t.Agent}
			byAgent[t.Agent] = au
			order = append(order, t.Agent)
		}
		au.Turns++
		au.Usage = au.Usage.Add(t.Usage)
		if t.NoLLM {
			au.NoLLM++
			continue
		}
		if t.Model != "" && !slices.Contains(au.Models, t.Model) {
			au.Models = append(au.Models, t.Model)
		}
		au.CostUSD += t.CostUSD
		if debate.UsageCostUnknown(t.Model, t.Usage, t.CostUSD, t.NoLLM, t.Priced) {
			au.Unpriced = debate.AddUnpriced(au.Unpriced, t.Model)
			if !debate.CostUnknown(t.Model, t.CostUSD, t.NoLLM, t.Priced) {
				au.Uncounted = debate.AddUnpriced(au.Uncounted, t.Model)
			}
		}
	}
	slices.Sort(order[given:])
	var out []AgentUsage
	for _, a := range order {
		if au := byAgent[a]; au.Turns > 0 {
			out = append(out, *au)
		}
	}
	return out
}

// Spend is what some completed turns cost, with what it takes to show that
// truthfully: a data-only debate makes no model call and has no model cost,
// and a model without a known price has an unknown cost; neither is a
// "$0.0000" free run. Every front-end (the command line, the shell, the
// server, the documents) writes costs through it.
type Spend struct {
	USD      float64  // what the priced turns cost
	Turns    int      // completed turns
	LLMTurns int      // of which called a model
	Unpriced []string // models ("provider/model") without a known price
	// Uncounted are the models of Unpriced that have a price but turns
	// without token counts; "" for spends read from a summary.
	Uncounted []string
}

// SummarySpend is a listed debate's spend.
func SummarySpend(s debate.Summary) Spend {
	return Spend{USD: s.CostUSD, Turns: s.Turns, LLMTurns: s.LLMTurns, Unpriced: s.Unpriced}
}

// TurnSpend is one completed turn's spend, by the rule of debate.Project
// and Usage (its recorded cost; unknown when that is $0, not priced, and
// either its model has no price or its server sent no token counts), from
// the turn's fields as debate.TurnCompleted and debate.Turn both hold them.
func TurnSpend(model string, u llm.Usage, costUSD float64, noLLM, priced bool) Spend {
	sp := Spend{USD: costUSD, Turns: 1, LLMTurns: 1}
	if noLLM {
		sp.LLMTurns = 0
	}
	if debate.UsageCostUnknown(model, u, costUSD, noLLM, priced) {
		sp.Unpriced = []string{model}
		if !debate.CostUnknown(model, costUSD, noLLM, priced) {
			sp.Uncounted = []string{model}
		}
	}
	return sp
}

// Spend is an agent's (or a total's) spend.
func (a AgentUsage) Spend() Spend {
	return Spend{USD: a.CostUSD, Turns: a.Turns, LLMTurns: a.Turns - a.NoLLM, Unpriced: a.Unpriced, Uncounted: a.Uncounted}
}

// Add sums two spends (a batch's debates).
func (s Spend) Add(o Spend) Spend {
	return Spend{USD: s.USD + o.USD, Turns: s.Turns + o.Turns, LLMTurns: s.LLMTurns + o.LLMTurns,
		Unpriced: union(s.Unpriced, o.Unpriced), Uncounted: union(s.Uncounted, o.Uncounted)}
}

// union is a's models then b's not in a, in a new slice (a spend's lists
// are shared by the spends it was added from).
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, m := range b {
		out = debate.AddUnpriced(out, m)
	}
	return out
}

// DataOnly reports whether the turns made no model call: there is no model
// cost to show, not a cost of $0.
func (s Spend) DataOnly() bool { return s.Turns > 0 && s.LLMTurns == 0 }

// Known reports whether every model used has a price, so USD is the cost.
func (s Spend) Known() bool { return len(s.Unpriced) == 0 }

// Cell writes the cost short, for a table cell or a status line: "$0.0123";
// "≥ $0.0123" when some turns' models have no price (the sum leaves them
// out); "unknown" when none has one; "no model" for data-only turns; "—"
// before any turn has completed (nothing is known to have run). The
// models without a price are named once, by the caller, under the table
// (Text, or UnpricedNote): on every row they made narrow tables wrap.
func (s Spend) Cell() string {
	switch {
	case s.Turns == 0:
		return "—"
	case s.DataOnly():
		return "no model"
	case !s.Known() && s.USD > 0:
		return fmt.Sprintf("≥ $%.4f", s.USD)
	case !s.Known():
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", s.USD)
}

// Text writes the cost as a phrase for a sentence, what ("cost", "total
// cost") and Cell with the models without a price named: "cost unknown (no
// price for openai/x)"; data-only turns have "no cost (no model used)",
// and no turns "no cost yet".
func (s Spend) Text(what string) string {
	switch {
	case s.Turns == 0:
		return "no cost yet"
	case s.DataOnly():
		return "no cost (no model used)"
	case !s.Known():
		return what + " " + s.Cell() + " (" + s.why() + ")"
	}
	return what + " " + s.Cell()
}

// UnpricedNote is the sentence under a table of Cells that explains its
// "unknown" and "≥" cells by naming the models without a price; "" when
// every model has one.
func (s Spend) UnpricedNote() string {
	switch {
	case s.Known():
		return ""
	case len(s.Uncounted) > 0 && s.USD > 0:
		return "Costs marked ≥ leave out the turns whose cost is unknown (" + s.why() + "): the cost is at least that."
	case len(s.Uncounted) > 0:
		return "The cost is unknown: " + s.why() + "."
	case s.USD > 0:
		return "Costs marked ≥ leave out the turns of models without a known price (" + s.unpricedList() + "): the cost is at least that."
	}
	return "The cost is unknown: no price for " + s.unpricedList() + "."
}

// TableNote is the note under a table whose rows are separate spends (a
// list of debates), each shown as its Cell: UnpricedNote of the rows whose
// cost is not known, which are the cells it explains. The sum of every row
// took the priced rows' cost for a "≥" no cell showed: a list of a priced
// debate and an unpriced one said "Costs marked ≥ …" under "$0.0586" and
// "unknown".
func TableNote(rows []Spend) string {
	var unknown Spend
	for _, r := range rows {
		if !r.Known() {
			unknown = unknown.Add(r)
		}
	}
	return unknown.UnpricedNote()
}

// why says why the cost is unknown: the models without a price, and those
// whose server sent no token counts.
func (s Spend) why() string {
	var parts []string
	if l := s.unpricedList(); l != "" {
		parts = append(parts, "no price for "+l)
	}
	if len(s.Uncounted) > 0 {
		parts = append(parts, "no token counts from the server for "+names(s.Uncounted))
	}
	return strings.Join(parts, "; ")
}

// unpricedList names the models without a price. The names come from the
// providers' replies: they are made inert for terminals and kept short.
func (s Spend) unpricedList() string {
	var unpriced []string
	for _, m := range s.Unpriced {
		if !slices.Contains(s.Uncounted, m) {
			unpriced = append(unpriced, m)
		}
	}
	return names(unpriced)
}

// names lists model names, made inert for terminals and kept short.
func names(models []string) string {
	out := make([]string, len(models))
	for i, m := range models {
		m = textsafe.Clean(m)
		if r := []rune(m); len(r) > maxModelName {
			m = string(r[:maxModelName-1]) + "…"
		}
		out[i] = m
	}
	return strings.Join(out, ", ")
}

// maxModelName bounds a model's name in a cost note; real names are far
// shorter.
const maxModelName = 80

// Total sums the rows.
func Total(rows []AgentUsage) AgentUsage {
	var t AgentUsage
	for _, r := range rows {
		t.Turns += r.Turns
		t.NoLLM += r.NoLLM
		t.Usage = t.Usage.Add(r.Usage)
		t.CostUSD += r.CostUSD
		t.Unpriced = union(t.Unpriced, r.Unpriced)
		t.Uncounted = union(t.Uncounted, r.Uncounted)
	}
	return t
}

// UsageTable writes the report as a Markdown table under heading, with name
// giving each agent's display name.
func UsageTable(b *strings.Builder, s *debate.State, heading string, name func(agent string) string, order ...string) {
	rows := Usage(s, order...)
	if len(rows) == 0 {
		return
	}
	total := Total(rows)
	fmt.Fprintf(b, "\n%s\n\n", heading)
	if total.NoLLM == total.Turns {
		b.WriteString("No LLM was used: no tokens, no cost.\n")
		return
	}
	b.WriteString("| Agent | Model | Turns | Input | Cached input | Output | Cost |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		model := strings.Join(r.Models, ", ")
		switch {
		case r.NoLLM == r.Turns:
			model = "data-only (no LLM)"
		case r.NoLLM > 0:
			model += fmt.Sprintf(" (+%d data-only)", r.NoLLM)
		}
		in, cached, out := tokenCells(r.Usage)
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s |\n", strings.ReplaceAll(name(r.Agent), "|", `\|`), model, r.Turns,
			in, cached, out, r.Spend().Cell())
	}
	in, cached, out := tokenCells(total.Usage)
	fmt.Fprintf(b, "| **Total** | | **%d** | **%s** | **%s** | **%s** | **%s** |\n", total.Turns, in, cached, out, total.Spend().Cell())
	u := total.Usage
	b.WriteString("\nInput counts the prompt tokens billed at the full rate; cached input, those read from the provider's prompt cache")
	if prompt := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens; prompt > 0 && u.CacheReadTokens > 0 {
		fmt.Fprintf(b, " (%.0f%% of all prompt tokens)", 100*float64(u.CacheReadTokens)/float64(prompt))
	}
	b.WriteString(".")
	if u.CacheWriteTokens > 0 {
		fmt.Fprintf(b, " %s prompt tokens were written to the cache.", Thousands(u.CacheWriteTokens))
	}
	if note := total.Spend().UnpricedNote(); note != "" {
		b.WriteString(" " + note)
	}
	b.WriteString("\n")
}

// tokenCells are the table's input, cached input and output cells for u:
// the counts, "unknown" where a server sent none and no turn counted any,
// and "≥ N" where some turns' counts are missing (a 0 would read as a free
// debate).
func tokenCells(u llm.Usage) (in, cached, out string) {
	cell := func(n int) string {
		switch {
		case !u.Unreported:
			return Thousands(n)
		case n == 0:
			return "unknown"
		}
		return "≥ " + Thousands(n)
	}
	return cell(u.InputTokens), cell(u.CacheReadTokens), cell(u.OutputTokens)
}

// Thousands writes n with thousands separators.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// AgentName is an agent id as a name: "performance-advocate" → "Performance
// Advocate", "pro" → "Pro".
func AgentName(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// AgentNamer names a debate's agents as its transcript does: the name
// before " · " in the label of the agent's first turn ("PRO · opening" →
// "PRO", "Search · analysis" → "Search"), so that the token table and the
// follow-ups call an agent what every heading above them called it (the
// id made a name, "Pro", read as another agent); AgentName of the id for an
// agent with no such label. Names are made inert for terminals and kept to
// one short line.
func AgentNamer(s *debate.State) func(agent string) string {
	names := map[string]string{}
	take := func(t *debate.Turn) {
		if t == nil || IsAsk(t) || names[t.Agent] != "" {
			return
		}
		name, _, ok := strings.Cut(t.Label, " · ")
		if !ok {
			return
		}
		name = textsafe.Line(name, maxAgentName)
		if name != "" {
			names[t.Agent] = name
		}
	}
	for _, t := range s.CompletedTurns() {
		take(t)
	}
	for _, id := range slices.Sorted(maps.Keys(s.Turns)) {
		take(s.Turns[id])
	}
	return func(agent string) string {
		if n := names[agent]; n != "" {
			return n
		}
		return AgentName(agent)
	}
}

// maxAgentName bounds an agent's name taken from a turn label; the
// formats' names are far shorter.
const maxAgentName = 60

// maxLabel bounds a turn's label as TurnLabel shows it: an agent's name
// and what the turn is ("Performance Advocate · rebuttal").
const maxLabel = 2 * maxAgentName

// TurnLabel is how a view heads turn t: its label, else its agent, on one
// line of at most maxLabel characters, made inert (textsafe.Line). A label
// holds an agent's name, which a debate recorded by an older Parley, or a
// store others write to, may hold line breaks or kilobytes in: a crux
// persona's name that broke the line wrote a heading of the moderator's
// into the live view.
func TurnLabel(t debate.TurnRef) string {
	if t.Label != "" {
		return textsafe.Line(t.Label, maxLabel)
	}
	return textsafe.Line(t.Agent, maxLabel)
}

// WithUsage ends a rendered document with the follow-up questions asked
// after the debate (when any) and the per-agent token and cost table, for a
// format's Render: doc and err are what its own rendering gave.
func WithUsage(s *debate.State, doc string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(doc)
	name := AgentNamer(s)
	FollowUpSection(&b, s, "## Follow-up questions", name)
	HintSection(&b, s, "## User hints", name)
	UsageTable(&b, s, "## Tokens and cost", name)
	return b.String(), nil
}

// Item puts model text that fills one list item or one line of a document
// on one line: a line break in it ended the item, and the next line could
// open a section of its own ("## Recommendation") in the document, the
// terminal and the dashboard's report, which folds the document at them.
func Item(s string) string { return strings.Join(strings.Fields(s), " ") }

// Prose is model text (or a topic) that is a paragraph or more of a
// document, trimmed, with a "#" that would start a heading escaped: its
// paragraphs stay, but it cannot open a section of the document's own.
//
// Like Nested, it leaves no code block open (mdsafe.Contained) and its
// images and raw HTML are made text.
func Prose(s string) string {
	lines := strings.Split(mdsafe.Contained(strings.TrimSpace(s)), "\n")
	fence := ""
	for i, l := range lines {
		if f, in := fenceLine(l, fence); in || f != "" {
			fence = f
			continue
		}
		if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "#") {
			lines[i] = l[:len(l)-len(t)] + "\\" + t
		} else if i > 0 && setextUnderline(l) && strings.TrimSpace(lines[i-1]) != "" {
			lines[i] = l[:len(l)-len(t)] + "\\" + t
		}
	}
	return strings.Join(lines, "\n")
}

// setextUnderline reports whether a line, under a paragraph's, would make
// that paragraph a heading ("Recommendation" over "===", or "---"): a run
// of "=" or of "-", indented at most three spaces.
func setextUnderline(l string) bool {
	t := strings.TrimRight(strings.TrimLeft(l, " "), " \t")
	if len(l)-len(strings.TrimLeft(l, " ")) > 3 || t == "" {
		return false
	}
	return strings.Trim(t, "=") == "" || strings.Trim(t, "-") == ""
}

// Nested returns model Markdown (a turn's text) to be placed under a
// heading of level-1 with each of its own headings made at least level
// deep: a turn that wrote "## Recommendation" opened a section of the whole
// document (the dashboard's report folds the document at "## " headings)
// rather than a part of the turn. Code blocks are left as written, and one
// the text leaves open is closed (mdsafe.Contained: it would make code of
// the rest of the document); images and raw HTML are made text.
func Nested(s string, level int) string {
	s = mdsafe.Contained(s)
	if !strings.ContainsAny(s, "#=-") {
		return s
	}
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		if f, in := fenceLine(l, fence); in || f != "" {
			fence = f
			continue
		}
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			continue
		}
		if i > 0 && setextUnderline(l) && paragraphLine(lines[i-1]) {
			// "Recommendation" over "===" is a heading of level 1 (2
			// with "---"): the underline is kept as text, escaped.
			lines[i] = l[:len(l)-len(t)] + "\\" + t
			continue
		}
		n := len(t) - len(strings.TrimLeft(t, "#"))
		if n == 0 || n > 6 || n >= level || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
			continue
		}
		lines[i] = l[:len(l)-len(t)] + strings.Repeat("#", level) + t[n:]
	}
	return strings.Join(lines, "\n")
}

// fenceLine reads line l of Markdown as CommonMark reads code fences at
// the top level, fence being the fence of the code block l is in ("" for
// none). It returns the fence of the block after l and whether l is part
// of a code block (its opening or closing fence included). A fence is
// three or more backticks or tildes after at most three spaces; a backtick
// fence's info string holds no backtick ("```x`y" is text); a block closes
// at a run of its own character at least as long, with nothing after it.
func fenceLine(l, fence string) (string, bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return fence, fence != ""
	}
	if fence != "" {
		run := len(t) - len(strings.TrimLeft(t, fence[:1]))
		if run >= len(fence) && strings.TrimSpace(t[run:]) == "" {
			return "", true
		}
		return fence, true
	}
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return "", false
	}
	run := len(t) - len(strings.TrimLeft(t, t[:1]))
	if run < 3 || (t[0] == '`' && strings.Contains(t[run:], "`")) {
		return "", false
	}
	return t[:run], true
}

// paragraphLine reports whether a line can be the last of a paragraph a
// setext underline turns into a heading: not blank, not a fence, a
// heading or a thematic break of its own.
func paragraphLine(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") && !strings.HasPrefix(t, "#") && !setextUnderline(l)
}

// HardLines writes lines that must each stand on their own line in
// rendered Markdown (a document's "**Debate ID:** …" header): CommonMark
// joins consecutive lines into one paragraph unless a line ends with a hard
// break ("\").
func HardLines(lines ...string) string {
	return strings.Join(lines, "\\\n") + "\n"
}
