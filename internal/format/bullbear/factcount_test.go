package bullbear

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
)

// The fact check's summary counts every figure the agents wrote; its lists
// show a figure an agent repeats once. Each list's lines plus the repeats its
// heading names must add up to the summary's count, as in an offline NVDA
// debate where the bear and the moderator repeat a P/E and a threshold.
func TestFactCheckCountsMatchLists(t *testing.T) {
	pe := &analysis.ValueFigure{Name: "pe", Label: "P/E (TTM)", Display: "25.1x", Source: "public float"}
	mv := &analysis.ValueFigure{Name: "market_value", Label: "Market value", Display: "$4.00T", Source: "public float"}
	market := func(agent, text string, v *analysis.ValueFigure) factcheck.Finding {
		return factcheck.Finding{Agent: agent, Text: text, Status: factcheck.Verified, Market: v}
	}
	cond := func(agent, text string) factcheck.Finding {
		return factcheck.Finding{Agent: agent, Text: text, Status: factcheck.Unverified, Reason: "a condition, scenario or forecast, not a reported figure"}
	}
	opening := &FactCheck{Findings: []factcheck.Finding{
		market("bull", "$4.00T", mv), market("bear", "25.1x", pe), cond("bear", "20x"),
		{Agent: "bull", Text: "65.5%", Status: factcheck.Verified},
	}}
	rebuttal := &FactCheck{Findings: []factcheck.Finding{
		market("bear", "25.1x", pe), cond("bear", "20x"), market("moderator", "25.1x", pe),
	}}
	synthesis := &FactCheck{Findings: []factcheck.Finding{
		cond("moderator", "20x"), cond("moderator", "20x"), cond("moderator", "40.0%"),
	}}
	var b strings.Builder
	factCheckSection(&b, opening, rebuttal, synthesis)
	out := b.String()

	sm := regexp.MustCompile(`(\d+) figures: (\d+) verified \((\d+) against the recorded market data\), (\d+) corrected, (\d+) unverified`).FindStringSubmatch(out)
	if sm == nil {
		t.Fatalf("no summary line:\n%s", out)
	}
	wantMarket, _ := strconv.Atoi(sm[3])
	wantUnverified, _ := strconv.Atoi(sm[5])
	if wantMarket != 4 || wantUnverified != 5 {
		t.Fatalf("summary counts %d market, %d unverified; want 4 and 5:\n%s", wantMarket, wantUnverified, out)
	}
	for heading, want := range map[string]int{
		"Verified against the recorded market data": wantMarket,
		"Not verified against the filings":          wantUnverified,
	} {
		lines, repeats := listed(t, out, heading)
		if lines+repeats != want {
			t.Errorf("%q lists %d figures and %d repeats; the summary counts %d:\n%s", heading, lines, repeats, want, out)
		}
		if repeats == 0 {
			t.Errorf("%q names no repeats, but its figures repeat:\n%s", heading, out)
		}
	}
}

// listed returns how many lines a fact-check list has and how many repeats
// its heading says were folded into them.
func listed(t *testing.T, out, heading string) (lines, repeats int) {
	t.Helper()
	i := strings.Index(out, "\n"+heading)
	if i < 0 {
		t.Fatalf("no %q list:\n%s", heading, out)
	}
	section := out[i+1:]
	head, body, _ := strings.Cut(section, "\n")
	if m := regexp.MustCompile(`\((\d+) repeated, listed once\):$`).FindStringSubmatch(head); m != nil {
		repeats, _ = strconv.Atoi(m[1])
	} else if !strings.HasSuffix(head, heading+":") {
		t.Fatalf("heading %q is neither plain nor names its repeats", head)
	}
	for _, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(l, "- ") {
			break
		}
		lines++
	}
	return lines, repeats
}
