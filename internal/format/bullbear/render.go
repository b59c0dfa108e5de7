package bullbear

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/setup"
)

// Result is the verdict of a bullbear debate.
type Result struct {
	Ticker        string        `json:"ticker"`
	Company       string        `json:"company,omitempty"`
	Mode          string        `json:"mode"` // quick | deep
	Framework     string        `json:"framework,omitempty"`
	Data          string        `json:"data,omitempty"`
	Currency      string        `json:"currency,omitempty"` // the filer's reporting currency, when not USD
	NoLLM         bool          `json:"no_llm,omitempty"`
	Synthesis     *Synthesis    `json:"synthesis,omitempty"`
	Invalid       string        `json:"invalid,omitempty"` // why the synthesis could not be used
	Discrepancies []Discrepancy `json:"discrepancies,omitempty"`
}

func (p *Protocol) mode() string {
	if p.opts.Deep {
		return "deep"
	}
	return "quick"
}

func (p *Protocol) result(s *debate.State, v *view) Result {
	r := Result{Ticker: p.opts.Ticker, Company: p.opts.Company, Mode: p.mode(), Framework: p.opts.Framework,
		Data: p.opts.Data, Currency: p.opts.Currency, NoLLM: allNoLLM(s), Synthesis: v.synthesis}
	if v.synTurn != nil && v.synthesis == nil {
		r.Invalid = v.synTurn.Invalid
	}
	if v.check != nil {
		r.Discrepancies = v.check.Discrepancies
	}
	return r
}

// allNoLLM reports whether every completed turn of the debate was data-only.
// Follow-up answers, asked after the debate, do not count: they say who
// answered them where they are shown.
func allNoLLM(s *debate.State) bool {
	n := 0
	for _, t := range s.CompletedTurns() {
		if isAsk(t) {
			continue
		}
		if !t.NoLLM {
			return false
		}
		n++
	}
	return n > 0
}

// Format is the bullbear format for the registry.
type Format struct{}

// Name implements debate.Format.
func (Format) Name() string { return Name }

// Options are the options a bull vs. bear debate takes (setup.Optioner).
func (Format) Options() []setup.Option {
	return []setup.Option{
		{Name: "deep", Kind: setup.Bool, Usage: "two rebuttal rounds"},
		{Name: "framework", Kind: setup.String, Usage: "scoring `framework` for the debate: " + strings.Join(analysis.FrameworkNames(), " or "),
			Choices: analysis.FrameworkNames},
		{Name: "hint", Kind: setup.Strings, Field: "hints", Usage: "guidance for one agent, `AGENT: TEXT`; repeatable",
			Placeholder: "bear: look at customer concentration"},
		setup.SnapshotOption(),
	}
}

// Protocol implements debate.Format. The topic is the ticker; options may
// leave it out.
func (Format) Protocol(topic string, options json.RawMessage) (debate.Protocol, error) {
	return protocolFor(topic, options)
}

func protocolFor(topic string, options json.RawMessage) (*Protocol, error) {
	o, err := debate.DecodeOptions[Options](Name, options)
	if err != nil {
		return nil, err
	}
	if o.Ticker == "" {
		o.Ticker = topic
	}
	return NewProtocol(o)
}

// Render implements debate.Format: the spec's summary (bull case, bear case,
// key contentions, moderator synthesis) and its token and cost report, and
// with the full option the transcript, follow-up questions, hints and tool
// citations after them.
func (f Format) Render(s *debate.State, opt debate.RenderOptions) (string, error) {
	p, err := protocolFor(s.Topic, s.Options)
	if err != nil {
		return "", err
	}
	v := p.derive(s)
	var b strings.Builder
	p.summary(&b, s, v)
	writeReport(&b, s)
	if !opt.Summary {
		p.fullTranscript(&b, s, v)
	}
	return b.String(), nil
}

func (p *Protocol) summary(b *strings.Builder, s *debate.State, v *view) {
	fmt.Fprintf(b, "# %s Bull vs. Bear Debate\n", p.opts.Ticker)
	meta := []string{s.Created.Format(time.DateOnly), title(p.mode()) + " Mode"}
	if p.opts.Framework != "" {
		meta = append(meta, title(p.opts.Framework)+" Framework")
	}
	fmt.Fprintf(b, "*%s*\n\n", strings.Join(meta, " | "))
	var head []string
	if p.opts.Company != "" {
		// The name is the SEC's ticker list's, fetched from a server.
		line := "**Company:** " + report.Item(p.opts.Company)
		if p.opts.CIK != "" {
			line += " (CIK " + p.opts.CIK + ")"
		}
		head = append(head, line)
	}
	if p.opts.Data != "" {
		head = append(head, "**Data:** "+report.Item(p.opts.Data))
	}
	if c := p.opts.CurrencyLine(); c != "" {
		head = append(head, "**Currency:** "+report.Item(c))
	}
	if t := p.opts.ToolsLine(); t != "" {
		head = append(head, "**Tools available:** "+t)
	}
	head = append(head, "**Debate ID:** "+s.ID)
	b.WriteString(report.HardLines(head...))
	if allNoLLM(s) {
		b.WriteString("\n> **No LLM was used.** Every turn of this debate was written by Parley's data-only agents from the company's SEC XBRL filings by fixed rules; the conviction score is the weighted share of the scored evidence that favours the bull.\n")
	}
	if s.Status != debate.StatusCompleted {
		fmt.Fprintf(b, "\n**Status:** %s (the debate has not finished; this summary is partial)\n", s.Status)
	}
	syn := v.synthesis
	if syn != nil && v.synCheck != nil {
		c := annotatedSynthesis(*syn, v.synCheck)
		syn = &c
	}

	bull, bear := p.casePoints(v, AgentBull), p.casePoints(v, AgentBear)
	if syn != nil {
		bull, bear = syn.BullCase, syn.BearCase
	}
	fmt.Fprintf(b, "\n## 🐂 BULL CASE (%d points)\n\n%s", len(bull), bullets(bull, "No bull case yet."))
	fmt.Fprintf(b, "\n## 🐻 BEAR CASE (%d points)\n\n%s", len(bear), bullets(bear, "No bear case yet."))
	p.keyFigures(b)
	if p.opts.Framework != "" && p.opts.FrameworkSummary != "" {
		fmt.Fprintf(b, "\n## 📊 FRAMEWORK (%s)\n\n```\n%s\n```\n", p.opts.Framework, strings.TrimSpace(p.opts.FrameworkSummary))
	}
	if syn == nil {
		b.WriteString("\n## ⚖️ MODERATOR SYNTHESIS\n\n")
		if v.synTurn != nil {
			fmt.Fprintf(b, "The moderator's synthesis could not be used (%s). Its text:\n\n%s\n", report.Item(v.synTurn.Invalid), report.Prose(v.synTurn.Text))
		} else {
			b.WriteString("No synthesis yet.\n")
		}
		return
	}
	fmt.Fprintf(b, "\n## ⚔️ KEY CONTENTIONS (%d)\n\n", len(syn.Contentions))
	for i, c := range syn.Contentions {
		fmt.Fprintf(b, "%d. **%s**: Bull: %s; Bear: %s\n", i+1, report.Item(c.Topic), report.Item(c.Bull), report.Item(c.Bear))
	}
	if len(syn.Contentions) == 0 {
		b.WriteString("None: the agents agree on the main points.\n")
	}
	b.WriteString("\n## ⚖️ MODERATOR SYNTHESIS\n\n")
	if v.check != nil && len(v.check.Discrepancies) > 0 {
		b.WriteString("**Note:** Factual discrepancy detected.\n")
		for _, d := range v.check.Discrepancies {
			fmt.Fprintf(b, "- %s\n", d.String())
		}
		b.WriteString("\n")
	}
	if syn.Consensus {
		b.WriteString("**Unusual consensus detected**\n\nBoth agents agree:\n")
		b.WriteString(bullets(syn.Agreements, ""))
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "**Conviction: %d/10 %s**\n\n", syn.Score, syn.Stance)
	if s := report.Prose(syn.Summary); s != "" {
		fmt.Fprintf(b, "%s\n\n", s)
	}
	if len(syn.Buckets) > 0 {
		b.WriteString("Evidence buckets:\n")
		for _, bk := range syn.Buckets {
			fmt.Fprintf(b, "- **%s** favours %s: %s\n", bk.Bucket, bk.Favours, report.Item(bk.Evidence))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "%s\n\n", report.Prose(syn.Conviction))
	side, cond, _ := strings.Cut(report.Item(syn.ThesisBreaker), " breaks if:")
	fmt.Fprintf(b, "**%s breaks if:** %s\n", strings.TrimSpace(side), strings.TrimSpace(cond))
	if len(syn.Discrepancies) > 0 && (v.check == nil || len(v.check.Discrepancies) == 0) {
		b.WriteString("\nThe moderator noted conflicting facts:\n")
		b.WriteString(bullets(syn.Discrepancies, ""))
	}
	factCheckSection(b, v.check, v.synCheck)
}

// annualForm is the annual report the figures come from: "10-K", or the
// "20-F" or "40-F" of a foreign private issuer.
func (p *Protocol) annualForm() string {
	for _, f := range p.opts.Figures {
		if form := foreignForm(f.Citation); form != "" {
			return form
		}
	}
	return "10-K"
}

// foreignForm is the foreign private issuer's annual form ("20-F", "40-F")
// a citation ("20-F 0009000021-25-000010; …") starts with, or "".
func foreignForm(citation string) string {
	fs := strings.Fields(citation)
	if len(fs) == 0 {
		return ""
	}
	form := strings.TrimSuffix(fs[0], "/A")
	if form == "20-F" || form == "40-F" {
		return form
	}
	return ""
}

// keyFigures lists the reported lines of the latest fiscal year: the figures
// the fact check holds the agents to.
func (p *Protocol) keyFigures(b *strings.Builder) {
	var lines []string
	for _, f := range p.opts.Figures {
		if f.FiscalYear == p.opts.FiscalYear && f.Kind == KindUSD {
			lines = append(lines, fmt.Sprintf("%s: %s in FY%d (%s)", f.Label, f.Display, f.FiscalYear, f.Citation))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(b, "\n## 📄 KEY FIGURES (per the %s)\n\n%s", p.annualForm(), bullets(lines, ""))
	}
}

// casePoints falls back to an opening's bullets when there is no synthesis.
func (p *Protocol) casePoints(v *view, side string) []string {
	if t := v.openings[side]; t != nil {
		return Points(t.Text)
	}
	return nil
}

func (p *Protocol) fullTranscript(b *strings.Builder, s *debate.State, v *view) {
	b.WriteString("\n---\n\n## Transcript\n")
	section := func(head string, t *debate.Turn) {
		if t == nil {
			return
		}
		fmt.Fprintf(b, "\n#### %s", head)
		if t.NoLLM {
			b.WriteString(" (data-only, no LLM)")
		} else if t.Model != "" {
			fmt.Fprintf(b, " (%s)", t.Model)
		}
		fmt.Fprintf(b, "\n\n%s\n", report.Nested(StripClaims(t.Text), 5))
		if t.Invalid != "" {
			fmt.Fprintf(b, "\n*Parley could not validate this turn: %s*\n", t.Invalid)
		}
	}
	b.WriteString("\n### Phase 1: Research\n")
	for _, side := range sides {
		section(title(side)+" research", v.research[side])
	}
	b.WriteString("\n### Phase 2: Opening Arguments\n")
	for _, side := range sides {
		section(title(side)+" opening", v.openings[side])
	}
	if len(v.rebuttals) > 0 {
		b.WriteString("\n### Phase 3: Rebuttals\n")
		for r, pair := range v.rebuttals {
			for i, t := range pair {
				section(fmt.Sprintf("%s rebuttal, round %d", title(sides[i]), r+1), t)
			}
		}
	}
	if v.check != nil {
		b.WriteString("\n### Phase 4: Fact Check\n\n")
		for _, n := range s.Notes {
			if n.Kind == noteFactCheck {
				fmt.Fprintf(b, "%s\n", report.Item(n.Text))
			}
		}
		for _, side := range sides {
			section(title(side)+" reconciliation", v.reconcile[side])
		}
	}
	if fus := FollowUps(s); len(fus) > 0 {
		b.WriteString("\n### Follow-up Questions\n")
		for i, fu := range fus {
			// A question is typed by a person or sent in a request: on one
			// line, it opens no section of the document.
			fmt.Fprintf(b, "\n**Q%d (to the %s):** %s\n", i+1, report.Item(fu.Agent), report.Item(fu.Question))
			section(fmt.Sprintf("%s answers Q%d", title(fu.Agent), i+1), fu.Answer)
		}
	}
	if len(s.Hints) > 0 {
		b.WriteString("\n### User Hints\n\n")
		for _, h := range s.Hints {
			applied := "not applied yet"
			if h.Applied != "" {
				applied = "applied in " + h.Applied
			}
			fmt.Fprintf(b, "- To %s: %s (%s)\n", report.Item(h.Target), report.Item(h.Text), applied)
		}
	}
	var cites []string
	for _, t := range s.CompletedTurns() {
		for _, x := range t.Tools {
			line := fmt.Sprintf("%s: %s %s", t.ID, x.Call.Name, strings.TrimSpace(string(x.Call.Args)))
			if x.Result != nil {
				switch {
				case x.Result.IsError:
					line += " → error: " + abbrev(x.Result.Content, 120)
				case x.Result.Cached:
					line += " → cache hit" + sourceOf(x.Result.Content)
				default:
					line += " →" + sourceOf(x.Result.Content)
				}
			}
			cites = append(cites, line)
		}
	}
	if len(cites) > 0 {
		b.WriteString("\n### Tool Citations\n\n")
		b.WriteString(bullets(cites, ""))
	}
}

// sourceOf extracts the "source" label sec tools put in their results, the
// valuation's basis and market-data source, and a web search's engine, date
// and result URLs (labelled as not checked against filings).
func sourceOf(content string) string {
	var h struct {
		Source  string `json:"source"`
		Basis   string `json:"basis"`
		Figures []struct {
			Name, Source, Date string
		} `json:"figures"`
		Engine    string `json:"engine"`
		Retrieved string `json:"retrieved"`
		Label     string `json:"label"`
		Results   []struct {
			URL       string `json:"url"`
			Published string `json:"published"`
		} `json:"results"`
	}
	if json.Unmarshal([]byte(content), &h) != nil {
		return " ok"
	}
	if h.Engine != "" {
		var urls []string
		for _, r := range h.Results {
			u := r.URL
			if r.Published != "" {
				u += " (" + r.Published + ")"
			}
			urls = append(urls, u)
		}
		return fmt.Sprintf(" %s, retrieved %s: %s [%s]", h.Engine, h.Retrieved, strings.Join(urls, ", "), h.Label)
	}
	out := " ok"
	if h.Source != "" {
		out = " " + h.Source
	}
	if h.Basis != "" && len(h.Figures) > 0 {
		out += fmt.Sprintf("; valuation on the %s (%s, as of %s)", h.Basis, h.Figures[0].Source, h.Figures[0].Date)
	}
	return out
}

// annotatedSynthesis is the synthesis with every sentence that holds a
// corrected figure followed by its correction.
func annotatedSynthesis(syn Synthesis, fc *FactCheck) Synthesis {
	all := func(xs []string) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = annotate(x, fc)
		}
		return out
	}
	syn.Summary, syn.Conviction, syn.ThesisBreaker = annotate(syn.Summary, fc), annotate(syn.Conviction, fc), annotate(syn.ThesisBreaker, fc)
	syn.BullCase, syn.BearCase, syn.Agreements = all(syn.BullCase), all(syn.BearCase), all(syn.Agreements)
	syn.Contentions = append([]Contention(nil), syn.Contentions...)
	for i := range syn.Contentions {
		syn.Contentions[i].Bull, syn.Contentions[i].Bear = annotate(syn.Contentions[i].Bull, fc), annotate(syn.Contentions[i].Bear, fc)
	}
	syn.Buckets = append([]Bucket(nil), syn.Buckets...)
	for i := range syn.Buckets {
		syn.Buckets[i].Evidence = annotate(syn.Buckets[i].Evidence, fc)
	}
	return syn
}

// factCheckSection says what the check read and what it found: the counts,
// each correction quoting the agent exactly with what the filing (or the
// recorded market data) says, the market figures verified against the
// market data the debate recorded with their source and date, the figures
// taken from the web with their URL and date, and the figures it could not
// verify.
func factCheckSection(b *strings.Builder, checks ...*FactCheck) {
	var findings []factcheck.Finding
	for _, c := range checks {
		if c != nil {
			findings = append(findings, c.Findings...)
		}
	}
	if len(findings) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## 🔎 FACT CHECK\n\n%s.\n", factcheck.Summary(findings))
	var corrected, market, web, unverified []factcheck.Finding
	seen := map[string]bool{}
	once := func(f factcheck.Finding) bool {
		// A figure an agent repeats (research, opening, rebuttal) is
		// listed once.
		k := f.Agent + "|" + f.Text + "|" + string(f.Status) + "|" + f.Reason
		if f.Market != nil {
			k += "|" + f.Market.Name
		}
		if f.Web != nil {
			k += "|" + f.Web.URL
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	// The summary counts every figure, repeats included; each list's
	// heading says how many of its figures were repeats listed once, so
	// the lines plus the repeats add up to the summary's count.
	var marketRepeats, webRepeats, unverifiedRepeats int
	for _, f := range findings {
		switch {
		case f.Status == factcheck.Corrected:
			corrected = append(corrected, f)
		case f.Status == factcheck.Verified && f.Market != nil:
			if once(f) {
				market = append(market, f)
			} else {
				marketRepeats++
			}
		case f.Status == factcheck.Web:
			if once(f) {
				web = append(web, f)
			} else {
				webRepeats++
			}
		case f.Status == factcheck.Unverified, f.Status == factcheck.MarketData:
			if once(f) {
				unverified = append(unverified, f)
			} else {
				unverifiedRepeats++
			}
		}
	}
	if len(corrected) > 0 {
		b.WriteString("\nCorrected:\n")
		for _, f := range corrected {
			line := fmt.Sprintf("- %s said: \"%s\". %s: %s", title(f.Agent), f.Said(), f.Text, f.Reason)
			if per := f.Per(); per != "" {
				line += "; " + per
			}
			b.WriteString(report.Item(line) + ".\n")
		}
	}
	if len(market) > 0 {
		fmt.Fprintf(b, "\nVerified against the recorded market data%s:\n", repeated(marketRepeats))
		for _, f := range market {
			fmt.Fprintf(b, "%s\n", report.Item(fmt.Sprintf("- %s: %s, %s %s (%s)", title(f.Agent), f.Text, f.Market.Label, f.Market.Display, factcheck.MarketSource(*f.Market))))
		}
	}
	if len(web) > 0 {
		fmt.Fprintf(b, "\nFrom the web (%s)%s:\n", factcheck.WebLabel, repeated(webRepeats))
		for _, f := range web {
			fmt.Fprintf(b, "%s\n", report.Item(fmt.Sprintf("- %s: %s, from %s [%s]", title(f.Agent), f.Text, f.Web.Cite(), factcheck.WebLabel)))
		}
	}
	if len(unverified) > 0 {
		fmt.Fprintf(b, "\nNot verified against the filings%s:\n", repeated(unverifiedRepeats))
		for _, f := range unverified {
			fmt.Fprintf(b, "%s\n", report.Item(fmt.Sprintf("- %s: %s (%s)", title(f.Agent), f.Text, f.Reason)))
		}
	}
}

// repeated notes how many figures of a fact-check list repeat a listed one.
func repeated(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d repeated, listed once)", n)
}

func bullets(items []string, empty string) string {
	if len(items) == 0 {
		if empty == "" {
			return ""
		}
		return empty + "\n"
	}
	var b strings.Builder
	for _, it := range items {
		// One line each: a model's line break could open a section.
		fmt.Fprintf(&b, "- %s\n", report.Item(it))
	}
	return b.String()
}

// Describe summarises a completed structured turn for live views.
func (Format) Describe(t *debate.Turn) string {
	if t.Invalid != "" || !strings.HasPrefix(t.ID, idSynthesis) {
		return ""
	}
	var s Synthesis
	if json.Unmarshal(t.Move, &s) != nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Conviction: %d/10 %s\n%s\n", s.Score, s.Stance, s.Conviction)
	for i, c := range s.Contentions {
		fmt.Fprintf(&b, "%d. %s\n", i+1, c.Topic)
	}
	b.WriteString(s.ThesisBreaker)
	return b.String()
}

// Roles lists the roles this format's turns take: the names --model-for
// accepts.
func (Format) Roles() []string { return []string{AgentBull, AgentBear, AgentModerator} }
