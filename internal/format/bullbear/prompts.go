package bullbear

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// The debaters' system prompt holds the spec's prompts of both sides, with
// Parley's rules for citations and quotations made explicit; each turn's
// task says which side the agent argues (roleLine). One system prompt for
// both debaters makes every request of theirs start with the same prefix, so
// that with prompt caching the bear reads from the cache what the bull's
// request wrote (the system prompt, then the openings both rebut), instead of
// each side paying for its own copy.
func (p *Protocol) system() string {
	who := p.who()
	var b strings.Builder
	fmt.Fprintf(&b, `You are one of two investment analysts in a structured debate on %s: one argues the BULL CASE, the other the BEAR CASE.
Each task tells you which side you argue; argue that side only.

The BULL analyst's job is to find the strongest reasons to be optimistic. Focus on:
- Competitive advantages and moats
- Growth catalysts and tailwinds
- Management quality and execution
- Underappreciated strengths
- Why bears are wrong
The bull cites like "Revenue grew 40%% (10-K FY2024)" and is rigorous but advocatory.

The BEAR analyst's job is to find the strongest reasons to be cautious. Focus on:
- Valuation concerns and downside scenarios
- Competitive threats and disruption risk
- Execution risks and management issues
- Macro/regulatory headwinds
- Why bulls are wrong
The bear cites like "Operating margin fell to 12%% (10-K FY2024)" and is rigorous but skeptical.

RULES (both sides):
- You MAY concede valid points ("I acknowledge X, but...")
- You MUST cite sources inline; prefer the SEC filings (form, fiscal year, accession number)
- You MUST present %d-%d points even if the case is weak
- Numbers you cite are checked against the filings: every figure in your text, for the period you state
  (say "fiscal 2026", "Q3 FY2026" or "TTM" with each figure); get them right
- After your text, declare every financial figure you stated in a block the reader does not see:
  <claims>[{"metric": "revenue", "period": "FY2026", "value": 215.9, "scale": "billion", "direction": "up", "source": "10-K 0001045810-26-000021"}]</claims>
  metric: revenue, cost_of_revenue, gross_profit, operating_income, net_income, eps_diluted, eps_basic,
  operating_cash_flow, capex, free_cash_flow, research_and_development, dividends, dividends_per_share, cash,
  long_term_debt, shares_outstanding, total_assets, total_liabilities, stockholders_equity, pretax_income,
  income_tax, effective_tax_rate, gross_margin, operating_margin, net_margin, fcf_margin, roe, roa, sga,
  operating_expenses, share_repurchases, diluted_shares, basic_shares, payout_ratio, statutory_tax_rate,
  income_taxes_paid, net_debt, net_cash, cash_and_investments, roe_average, roa_average, debt_to_equity,
  current_ratio, cash_conversion, rd_intensity, asset_turnover, or any of
  the amounts + "_growth" (percent, with direction up or down); period: FY2026, Q3 FY2026 or TTM; scale:
  thousand, million, billion or empty.
  Prices, market values and multiples are market data: leave them out of the block.

You will receive your opponent's arguments. When rebutting:
- DIRECTLY QUOTE the opponent's point you're addressing, word for word, in "double quotes" or on a "> " blockquote line
- Then explain why it's overstated or incorrect
- Use quotation marks only for the opponent's words
`, who, MinPoints, MaxPoints)
	if p.opts.Framework != "" {
		fmt.Fprintf(&b, "\nFramework Analysis (%s):\n%s\nThis framework data is available to both agents. You may reference it to support your argument. If framework findings contradict your position, you MUST reconcile (explain why despite the data, your thesis holds).\n",
			p.opts.Framework, strings.TrimSpace(p.opts.FrameworkSummary))
	}
	return b.String()
}

// roleLine opens every task of a debater: the spec's "You are an investment
// analyst arguing the BULL CASE for {ticker}".
func (p *Protocol) roleLine(side string) string {
	why := "optimistic"
	if side == AgentBear {
		why = "cautious"
	}
	return fmt.Sprintf("You are the %s analyst: you argue the %s CASE for %s and find the strongest reasons to be %s. Your opponent is the %s.\n\n",
		strings.ToUpper(side), strings.ToUpper(side), p.who(), why, opponent(side))
}

const moderatorSystem = `You are a neutral moderator synthesizing a bull vs. bear debate on %s.

You receive the opening arguments and rebuttals from both sides.
You do NOT have access to raw data - judge based on arguments presented.

Your job:
1. Identify 2-5 KEY CONTENTIONS - points of fundamental disagreement
2. Summarize which evidence buckets favor each side
3. Produce a CONVICTION SCORE with reasoning:
   - 1-3: Strong Bear
   - 4: Lean Bear
   - 5: Neutral
   - 6: Lean Bull
   - 7-10: Strong Bull

   Format: "X/10 because [reasoning]. Would be Y/10 if [condition]."
   The score is a data-weight verdict: 7/10 means 70%% of the evidence supports the bull.

4. Surface the THESIS-BREAKER using conditional framing:
   "Bull thesis breaks if: [specific condition]"
   OR
   "Bear thesis breaks if: [specific condition]"

If agents AGREE on a point, note it as consensus rather than contention.

If agents cite conflicting facts, the fact check below gives the figure per the 10-K: use the corrected figure.

Be impartial. Weight evidence over rhetoric. Reply with the JSON object only.`

func (p *Protocol) who() string {
	if p.opts.Company != "" && p.opts.Company != p.opts.Ticker {
		return fmt.Sprintf("%s (%s)", p.opts.Ticker, p.opts.Company)
	}
	return p.opts.Ticker
}

// hintsFor renders the pending hints of an agent in the spec's form
// ("USER HINT: ...") and returns their ids, which the runner records as
// applied when the turn completes.
func hintsFor(s *debate.State, agent string) (string, []int) {
	return s.HintPrompt(agent, "\n", "USER HINT: %s\n")
}

func (p *Protocol) dataLine() string {
	if p.opts.Data == "" {
		return ""
	}
	s := fmt.Sprintf("SEC data for this debate: %s.\n", p.opts.Data)
	if p.opts.Currency != "" {
		s += fmt.Sprintf("The company reports in %s: state its amounts in %s, as its filings and the research tools give them (in claims, unit %q); "+
			"Parley does not convert currencies, and an amount stated in US dollars is not checked against its filings.\n",
			p.opts.Currency, p.opts.Currency, strings.ToLower(p.opts.Currency))
	}
	return s
}

func (p *Protocol) researchTurn(s *debate.State, side string) debate.TurnSpec {
	// The instructions, the same for both sides, come first and the role
	// line last, so that the second research request repeats the first's
	// (the tools, the system prompt and these instructions) up to the side:
	// the two used to differ from their first message on.
	var b strings.Builder
	fmt.Fprintf(&b, "Phase 1 (Research): gather the data for your case on %s.\n", p.who())
	b.WriteString(p.dataLine())
	b.WriteString(`Use the research tools (at most 5 calls in the whole debate; identical calls by the other agent are served from the shared cache): XBRL facts and ratios, valuation (multiples with their price or public-float date), sec_events (8-Ks since the last 10-K), filing_search (passages to quote).
Then write a research summary: the figures you will argue from, each with its fiscal year and citation (form and accession number; for valuation figures their basis, source and date; for web results their URL and date, marked "web, not checked against filings").
Do not argue yet.

`)
	b.WriteString(strings.TrimSpace(p.roleLine(side)))
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: researchID(side), Agent: side, Role: side, Label: title(side) + " · research", Phase: "research"},
		System:   p.system(),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		UseTools: true,
	}
}

func (p *Protocol) openingTurn(s *debate.State, v *view, side string) debate.TurnSpec {
	// Stable first, as in the research task: the instructions both sides
	// share, then the side's role, research and case.
	var b strings.Builder
	fmt.Fprintf(&b, "Phase 2 (Opening): present your %d-%d strongest points as a bulleted list (one \"- \" line per point), each with its inline citation.\n",
		MinPoints, MaxPoints)
	b.WriteString(p.dataLine())
	b.WriteString("\n")
	b.WriteString(p.roleLine(side))
	b.WriteString("Research data summary:\n")
	if t := v.research[side]; t != nil {
		b.WriteString(strings.TrimSpace(t.Text))
	}
	fmt.Fprintf(&b, "\n\nPresent your %s case for %s.\n", side, p.who())
	hints, ids := hintsFor(s, side)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: openingID(side), Agent: side, Role: side, Label: title(side) + " · opening", Phase: "opening"},
		System:   p.system(),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		Hints:    ids,
	}
}

// transcript renders the arguments so far, for the moderator and follow-ups.
func transcript(v *view, upToRound int, uptoSide string) string {
	return openingsRecord(v) + rebuttalsRecord(v, upToRound, uptoSide)
}

// openingsRecord is both openings, in the same words for every agent: the
// shared context that rebuttals and reconciliations start with, marked
// cacheable, so that a provider with prompt caching bills it once and reads
// it from its cache on every later turn of either debater.
func openingsRecord(v *view) string {
	var b strings.Builder
	for _, side := range sides {
		if t := v.openings[side]; t != nil {
			fmt.Fprintf(&b, "%s OPENING:\n%s\n\n", strings.ToUpper(side), strings.TrimSpace(t.Text))
		}
	}
	return b.String()
}

// rebuttalsRecord is the rebuttals before round upToRound's turn of
// uptoSide ("" for every completed rebuttal).
func rebuttalsRecord(v *view, upToRound int, uptoSide string) string {
	var b strings.Builder
	for r, pair := range v.rebuttals {
		for i, t := range pair {
			if t == nil {
				continue
			}
			if r+1 > upToRound || (r+1 == upToRound && sides[i] == uptoSide) {
				continue
			}
			fmt.Fprintf(&b, "%s REBUTTAL (round %d):\n%s\n\n", strings.ToUpper(sides[i]), r+1, strings.TrimSpace(t.Text))
		}
	}
	return b.String()
}

// sharedContext is what a turn that argues over the openings starts with:
// both openings, then every rebuttal before round's turn of side, one
// message each, in the same words for both debaters. It only grows at its
// end, so each rebuttal's request repeats the previous one's (whichever side
// sent it) as a prefix; the rebuttals used to follow the role line, in words
// that differed per side ("Your rebuttal"), and a later rebuttal shared only
// the openings with an earlier one. The openings and the last two messages
// are marked cacheable (with the system prompt, the four breakpoints
// Anthropic allows): the last but one is where the previous request's
// cached prefix ends, so this request reads it and writes its own.
func sharedContext(v *view, round int, side string) []llm.Message {
	msgs := []llm.Message{{Role: llm.RoleUser, Text: openingsRecord(v), Cache: true}}
	for r, pair := range v.rebuttals {
		for i, t := range pair {
			if t == nil || r+1 > round || (r+1 == round && sides[i] == side) {
				continue
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("%s REBUTTAL (round %d):\n%s\n", strings.ToUpper(sides[i]), r+1, strings.TrimSpace(t.Text))})
		}
	}
	for i := max(1, len(msgs)-2); i < len(msgs); i++ {
		msgs[i].Cache = true
	}
	return msgs
}

func (p *Protocol) rebuttalTurn(s *debate.State, v *view, round int, side string) debate.TurnSpec {
	op := opponent(side)
	var b strings.Builder
	b.WriteString(p.roleLine(side))
	fmt.Fprintf(&b, "Above are both opening arguments and the rebuttals so far; yours are the %s ones, the %s's the %s ones.\n",
		strings.ToUpper(side), op, strings.ToUpper(op))
	hints, ids := hintsFor(s, side)
	b.WriteString(hints)
	target := "opening"
	if round > 1 || side == AgentBear {
		target = "latest arguments"
	}
	fmt.Fprintf(&b, "\nPhase 3 (Rebuttal, round %d): rebut the %s's weakest points from its %s. DIRECTLY QUOTE each point, word for word, in \"double quotes\" or on a \"> \" line, before countering it. You may concede what is right.\n",
		round, op, target)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: rebuttalID(round, side), Agent: side, Role: side, Label: title(side) + " · rebuttal", Phase: "rebuttal", Round: round},
		System:   p.system(),
		Messages: append(sharedContext(v, round, side), llm.Message{Role: llm.RoleUser, Text: b.String()}),
		Hints:    ids,
	}
}

// factLines states the discrepancies with the figure per the 10-K.
func factLines(fc *FactCheck) string {
	if fc == nil || len(fc.Discrepancies) == 0 {
		return ""
	}
	var b strings.Builder
	for _, d := range fc.Discrepancies {
		fmt.Fprintf(&b, "- %s\n", d.String())
	}
	return b.String()
}

func (p *Protocol) reconcileTurn(s *debate.State, v *view, side string) debate.TurnSpec {
	var b strings.Builder
	b.WriteString(p.roleLine(side))
	fmt.Fprintf(&b, "The moderator found conflicting facts. Parley checked the cited figures against the %s:\n%s\n", p.annualForm(), factLines(v.check))
	fmt.Fprintf(&b, "Reconcile: in a few sentences, correct any figure of yours listed above to the %s figure, say whether the corrected figure changes your %s case, and say nothing new otherwise.\n", p.annualForm(), side)
	hints, ids := hintsFor(s, side)
	b.WriteString(hints)
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: reconcileID(side), Agent: side, Role: side, Label: title(side) + " · reconciliation", Phase: "reconcile"},
		System:   p.system(),
		Messages: append(sharedContext(v, p.Rounds()+1, ""), llm.Message{Role: llm.RoleUser, Text: b.String()}),
		Hints:    ids,
	}
}

func (p *Protocol) synthesisTurn(s *debate.State, v *view) debate.TurnSpec {
	var b strings.Builder
	b.WriteString(transcript(v, p.Rounds()+1, ""))
	if v.check != nil && len(v.check.Discrepancies) > 0 {
		fmt.Fprintf(&b, "FACT CHECK (by Parley, against the %s):\n", p.annualForm())
		b.WriteString(factLines(v.check))
		for _, side := range sides {
			if t := v.reconcile[side]; t != nil {
				fmt.Fprintf(&b, "\n%s RECONCILIATION:\n%s\n", strings.ToUpper(side), strings.TrimSpace(t.Text))
			}
		}
		fmt.Fprintf(&b, "\nUse the figures per the %s; list each discrepancy in discrepancies as \"X cited A; per the %s, the figure is B.\"\n\n", p.annualForm(), p.annualForm())
	} else if v.check != nil {
		fmt.Fprintf(&b, "FACT CHECK (by Parley, against the %s): %d cited figure(s) checked, no discrepancy.\n\n", p.annualForm(), v.check.Checked)
	}
	// The moderator judges the arguments presented, not the raw data: the
	// framework's figures reach it only through the agents.
	b.WriteString(`Synthesize and score:
- bull_case, bear_case: each side's 3-5 strongest points, with their citations
- contentions: 2-5 key contentions (topic, the bull's position, the bear's position); if the agents agree on the main points, set consensus to true and list agreements
- evidence_buckets: which evidence favours each side (bull, bear or split)
- score (1 to 10) and conviction: "X/10 because [reasoning]. Would be Y/10 if [condition]."
- stance: the label of the score
- thesis_breaker: "Bull thesis breaks if: ..." or "Bear thesis breaks if: ..."
- discrepancies: conflicting facts and the figure per the 10-K (empty if none)
- summary: 2-4 sentences
Reply with the JSON object only.`)
	// The moderator takes no hints: it must remain impartial.
	return debate.TurnSpec{
		TurnRef:    debate.TurnRef{ID: idSynthesis, Agent: AgentModerator, Role: AgentModerator, Label: "Moderator · synthesis", Phase: "synthesis"},
		System:     fmt.Sprintf(moderatorSystem, p.who()),
		Messages:   []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		Schema:     synthesisSchema(),
		Unbudgeted: true,
	}
}
