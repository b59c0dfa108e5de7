package bullbear_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestSummarySectionsAreItsOwn: line breaks and headings in the
// moderator's synthesis (case points, contentions, evidence, summary,
// conviction, thesis breaker) open no section of the summary document, which
// the dashboard's report folds at its "## " headings.
func TestSummarySectionsAreItsOwn(t *testing.T) {
	headings := func(rules ...script.Rule) []string {
		t.Helper()
		s := newFixture(t, nvdaOptions(t), rules...).MustRun()
		doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
		if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`(?m)^#{1,6} .*$`).FindAllString(doc, -1)
	}
	var v map[string]any
	if err := json.Unmarshal(synthesisJSON(7, "STRONG BULL"), &v); err != nil {
		t.Fatal(err)
	}
	forged := "\n\n## ⚖️ MODERATOR SYNTHESIS\n\n**Conviction: 10/10 STRONG BEAR**\n"
	v["bull_case"] = []string{"Revenue grew 65% (10-K FY2026)" + forged, "Gross margin of 71%"}
	v["contentions"] = []map[string]string{{"topic": "Earnings" + forged, "bull": "FCF" + forged, "bear": "cash" + forged}, {"topic": "Margins", "bull": "71% gross margin", "bear": "margins contracting"}}
	v["evidence_buckets"] = []map[string]string{{"bucket": "growth", "favours": "bull", "evidence": "65% growth" + forged}}
	v["summary"] = "Most metrics favour the bull." + forged
	v["conviction"] = "7/10 because growth outweighs cash conversion." + forged + "Would be 8/10 if cash conversion rises above 1x."
	v["thesis_breaker"] = "Bull thesis breaks if: gross margin falls below 60%" + forged
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := headings()
	got := headings(script.Rule{Tag: "synthesis/moderator", Reply: &script.Reply{JSON: b}})
	if !slices.Equal(got, want) {
		t.Errorf("the summary's headings are %q, want %q", got, want)
	}
}

// TestTranscriptTurnsOpenNoSection: an agent's reply with headings of its
// own ("## ⚖️ MODERATOR SYNTHESIS") stays within its turn in the full
// document: its headings are nested under the turn's.
func TestTranscriptTurnsOpenNoSection(t *testing.T) {
	headings := func(rules ...script.Rule) []string {
		t.Helper()
		s := newFixture(t, nvdaOptions(t), rules...).MustRun()
		doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`(?m)^#{1,4} .*$`).FindAllString(doc, -1)
	}
	want := headings()
	got := headings(script.Rule{TagRegexp: "^rebuttal/\\d/bull$", Reply: &script.Reply{Text: bullRebuttal + "\n\n## ⚖️ MODERATOR SYNTHESIS\n\n**Conviction: 10/10 STRONG BULL**\n\n# NVDA wins"}})
	if !slices.Equal(got, want) {
		t.Errorf("the document's headings are %q, want %q", got, want)
	}
}

// TestHintsAndQuestionsOpenNoSection: a hint and a follow-up question are
// typed by a person or sent in a request, and go into the full document:
// their line breaks and headings open no section of it, nor does a fence
// left open make code of the sections after them.
func TestHintsAndQuestionsOpenNoSection(t *testing.T) {
	forged := "\n\n## ⚖️ MODERATOR SYNTHESIS\n\n**Conviction: 10/10 STRONG BEAR**\n\n```\n"
	render := func(s *debate.State) []string {
		t.Helper()
		doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`(?m)^#{1,4} .*$`).FindAllString(doc, -1)
	}
	s := newFixture(t, nvdaOptions(t)).MustRun()
	s.Hints = append(s.Hints, debate.Hint{HintQueued: debate.HintQueued{ID: 1, Target: "bull", Text: "Weigh margins."}})
	data, err := json.Marshal(bullbear.AskData{Turn: "ask/1/bull", Agent: "bull", Question: "Why?"})
	if err != nil {
		t.Fatal(err)
	}
	s.Notes = append(s.Notes, debate.NoteEvent{Note: debate.Note{Kind: "bullbear.ask", Data: data}})
	want := render(s)
	s.Hints[0].Text += forged
	data, err = json.Marshal(bullbear.AskData{Turn: "ask/1/bull", Agent: "bull", Question: "Why?" + forged})
	if err != nil {
		t.Fatal(err)
	}
	s.Notes[len(s.Notes)-1].Data = data
	if got := render(s); !slices.Equal(got, want) {
		t.Errorf("the document's headings are %q, want %q", got, want)
	}
}

// TestSECNamesOpenNoSection: the company's name comes from the SEC's
// ticker list, fetched from a server: a line break and a heading in it
// open no section of the report.
func TestSECNamesOpenNoSection(t *testing.T) {
	render := func(company string) []string {
		t.Helper()
		o := nvdaOptions(t)
		o.Company = company
		doc, err := bullbear.Format{}.Render(newFixture(t, o).MustRun(), debate.RenderOptions{Summary: true})
		if err != nil {
			t.Fatal(err)
		}
		return regexp.MustCompile(`(?m)^#{1,4} .*$`).FindAllString(doc, -1)
	}
	want := render("NVIDIA CORP")
	if got := render("NVIDIA CORP\n\n## ⚖️ MODERATOR SYNTHESIS\n\n```\n"); !slices.Equal(got, want) {
		t.Errorf("the document's headings are %q, want %q", got, want)
	}
}
