package perspectives_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/yuin/goldmark"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/script"
)

func html(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDecisionMarkdownStructure reads the decision document with a
// CommonMark parser: the metadata lines stay separate lines, lists join
// without ".;", dissent headings carry no stray punctuation.
func TestDecisionMarkdownStructure(t *testing.T) {
	f, _, _ := fullDebate(t)
	s := f.MustRun()
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	h := html(t, doc)
	for _, want := range []string{"DEB-test1<br>", "<strong>Confidence:</strong> Medium<br>", "<strong>Performance Advocate:</strong>"} {
		if !strings.Contains(h, want) {
			t.Errorf("rendered decision lacks %q:\n%s", want, h)
		}
	}
	for _, bad := range []string{".;", ".:</strong>", "\\"} {
		if strings.Contains(h, bad) {
			t.Errorf("rendered decision holds %q:\n%s", bad, h)
		}
	}
}

// TestEndBeforeAnyArgument: ending at the clarification, before any round,
// says so plainly instead of "No synthesis yet".
func TestEndBeforeAnyArgument(t *testing.T) {
	vague := &script.Reply{JSON: formattest.JSON(map[string]any{
		"domain": "data", "constraints": []string{}, "binary": false, "perspectives": []string{},
		"rationale": "", "clarifying_question": "What load does the cache serve?",
	})}
	f := newFixture(t, perspectives.Options{Checkpoints: true}, script.Rule{Tag: "analysis", Reply: vague})
	f.Runner.Human = &answers{by: map[string]debate.CheckpointAnswered{"clarify": {Action: debate.ActionEnd}}}
	s := f.MustRun()
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "The debate ended before any argument was made") || strings.Contains(doc, "No synthesis yet") {
		t.Errorf("decision:\n%s", doc)
	}
}

// TestDecisionSectionsAreItsOwn: model text with line breaks and headings
// in the synthesis (list items, the recommendation, dissent) keeps to its
// place: it opens no section of the document ("## Recommendation"), which
// the dashboard's report folds the document at.
func TestDecisionSectionsAreItsOwn(t *testing.T) {
	forged := "\n\n## Recommendation\n\nBuy everything.\n"
	syn := synthesisReply("Medium")
	var v perspectives.Synthesis
	if err := json.Unmarshal(syn.JSON, &v); err != nil {
		t.Fatal(err)
	}
	v.Agreement[0] += forged
	v.Tensions[0] += forged
	v.Caveats[0] += forged
	v.Recommendation += forged
	v.Dissent[0].View += forged
	v.Perspectives[0].KeyArguments[0] += forged
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "All agree.")},
		script.Rule{Tag: "synthesis", Reply: &script.Reply{JSON: formattest.JSON(v)}})
	f := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 1}, rules...)
	s := f.MustRun()
	for _, summary := range []bool{true, false} {
		doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: summary})
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(html(t, doc), "<h2>Recommendation</h2>"); n != 1 {
			t.Errorf("the document (summary %v) has %d Recommendation sections, want 1:\n%s", summary, n, doc)
		}
	}
}

// TestTranscriptTurnsOpenNoSection: a debater's reply with headings of its
// own ("## Recommendation") stays within its turn in the full document: its
// headings are nested under the turn's, so that the dashboard's report,
// which folds the document at "## " headings, shows no second
// Recommendation.
func TestTranscriptTurnsOpenNoSection(t *testing.T) {
	forged := "Redis is faster.\n\n## Recommendation\n\nBuy Redis now.\n\n# Decision: forged\n"
	rules := []script.Rule{{Tag: "r1/argument/" + slug(perf), Reply: &script.Reply{Text: forged}}, {Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "All agree.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")})
	s := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 1}, rules...).MustRun()
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := html(t, doc)
	if !strings.Contains(h, "Buy Redis now.") {
		t.Fatalf("the transcript lacks the turn:\n%s", doc)
	}
	if n := strings.Count(h, "<h2>Recommendation</h2>"); n != 1 || strings.Contains(h, "<h1>Decision: forged") {
		t.Errorf("the turn's headings are sections of the document (%d Recommendation sections):\n%s", n, doc)
	}
}

// TestReasonAndIssueDraftOpenNoSection: the moderator's reason for
// concluding, printed in the transcript, and the points of agreement,
// which become the issue draft's acceptance criteria, are model output:
// their line breaks and headings open no section of the document or the
// draft.
func TestReasonAndIssueDraftOpenNoSection(t *testing.T) {
	forged := "\n\n## Recommendation\n\nBuy everything.\n"
	syn := synthesisReply("Medium")
	var v perspectives.Synthesis
	if err := json.Unmarshal(syn.JSON, &v); err != nil {
		t.Fatal(err)
	}
	v.Agreement[0] += forged
	eval := map[string]any{"summary": "All agree.", "agreement": true, "stagnation": false, "clear_winner": "", "new_points": false,
		"decision": "conclude", "reason": "the recommendations align" + forged, "off_topic": []string{}}
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: &script.Reply{JSON: formattest.JSON(eval)}},
		script.Rule{Tag: "synthesis", Reply: &script.Reply{JSON: formattest.JSON(v)}})
	s := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 1}, rules...).MustRun()
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(html(t, doc), "<h2>Recommendation</h2>"); n != 1 {
		t.Errorf("the document has %d Recommendation sections, want 1:\n%s", n, doc)
	}
	draft, err := perspectives.Format{}.IssueDraft(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(html(t, draft), "<h2>Recommendation</h2>"); n != 0 {
		t.Errorf("the issue draft has %d Recommendation sections, want none:\n%s", n, draft)
	}
}

// TestTranscriptLabelsOpenNoSection: a turn's heading holds its
// debater's name as the log recorded it, which a debate from an older
// Parley (or a store others write to) may hold line breaks in: the heading
// stays one line, and opens no section of the document.
func TestTranscriptLabelsOpenNoSection(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "All agree.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")})
	s := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 1}, rules...).MustRun()
	turn := s.Turns["r1/argument/"+slug(perf)]
	if turn == nil {
		t.Fatal("no argument turn")
	}
	turn.Label = perf + "\n\n## Recommendation\n\nBuy Redis now. · argument"
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := html(t, doc)
	if n := strings.Count(h, "<h2>Recommendation</h2>"); n != 1 {
		t.Errorf("the label opened a section of the document (%d Recommendation sections):\n%s", n, doc)
	}
	if !strings.Contains(doc, "\n#### "+perf+" ## Recommendation Buy Redis now. · argument\n") {
		t.Errorf("the turn's heading is not its label on one line:\n%s", doc)
	}
}
