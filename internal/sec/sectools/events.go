package sectools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/textsearch"
)

// NameEvents is the material events tool.
const NameEvents = "sec_events"

// exhibitChars bounds the exhibit text one sec_events call returns.
const exhibitChars = 3_500

type eventsTool struct{ s *Set }

func (t *eventsTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameEvents,
		Description: "Material events of the company from its 8-K filings: a dated timeline since the last 10-K (or since a date) " +
			"with each 8-K's items and what they mean (2.02 results, 5.02 officer changes, 1.01 material agreements, 2.05 restructuring, " +
			"8.01 other events...) and the filing's link. Pass an accession to read that 8-K's press-release exhibit (EX-99), " +
			"with a question to get the passages that answer it.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "since": {"type": "string", "format": "date", "description": "Earliest filing date, YYYY-MM-DD; default: the filing date of the latest 10-K."},
    "items": {"type": "array", "items": {"type": "string"}, "description": "Keep only 8-Ks with these items, e.g. [\"5.02\", \"1.01\"]."},
    "accession": {"type": "string", "description": "An 8-K's accession number: read its press-release exhibit instead of listing events."},
    "question": {"type": "string", "description": "With accession: what you want to know; the exhibit's most relevant passages are returned."}
  },
  "additionalProperties": false
}`),
	}
}

type eventsArgs struct {
	Since     string   `json:"since"`
	Items     []string `json:"items"`
	Accession string   `json:"accession"`
	Question  string   `json:"question"`
}

// Event is one 8-K in the timeline.
type Event struct {
	Filed     string       `json:"filed"`
	EventDate string       `json:"event_date,omitempty"` // the period of report: the date of the earliest event reported
	Form      string       `json:"form"`
	Accession string       `json:"accession"`
	Items     []edgar.Item `json:"items"`
	URL       string       `json:"url"`
}

// Timeline is the events since a date.
type Timeline struct {
	Since       string  `json:"since"`
	SinceReason string  `json:"since_reason"`
	Events      []Event `json:"events"`
	Note        string  `json:"note,omitempty"`
	Source      string  `json:"-"`
}

func (t *eventsTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a eventsArgs
	if err := decodeArgs(NameEvents, raw, &a); err != nil {
		return "", err
	}
	if a.Accession != "" {
		return t.exhibit(ctx, a.Accession, a.Question)
	}
	if a.Question != "" {
		return "", badArgs(NameEvents, "question needs an accession: list the events first, then ask about one 8-K")
	}
	if a.Since != "" {
		if _, err := time.Parse(time.DateOnly, a.Since); err != nil {
			return "", badArgs(NameEvents, "since %q is not YYYY-MM-DD", a.Since)
		}
	}
	for _, it := range a.Items {
		if _, ok := edgar.ItemMeaning(it); !ok {
			return "", badArgs(NameEvents, "item %q is not a Form 8-K item (like 2.02, 5.02, 8.01)", it)
		}
	}
	tl, prov, err := t.s.Events(ctx, a.Since, a.Items)
	if err != nil {
		return "", err
	}
	return marshal(struct {
		header
		*Timeline
	}{t.s.header(prov), tl})
}

// Events is the 8-K timeline since a date ("" = the latest 10-K's filing
// date), optionally only with some items. The data-only agents call it
// directly.
func (s *Set) Events(ctx context.Context, since string, items []string) (*Timeline, edgar.Provenance, error) {
	subs, err := s.submissions(ctx)
	if err != nil {
		return nil, edgar.Provenance{}, err
	}
	tl := &Timeline{Since: since, SinceReason: "asked", Events: []Event{}}
	if since == "" {
		for _, f := range subs.Filings {
			if edgar.IsAnnualReport(f.Form) && !strings.HasSuffix(f.Form, "/A") {
				tl.Since = f.FilingDate
				tl.SinceReason = fmt.Sprintf("filing date of the latest 10-K (%s)", f.Accession)
				break
			}
		}
		if tl.Since == "" {
			tl.SinceReason = "no 10-K in the filing history: all 8-Ks listed"
		}
	}
	for _, f := range subs.Filings {
		if !edgar.IsCurrentReport(f.Form) || f.FilingDate < tl.Since {
			continue
		}
		ev := Event{Filed: f.FilingDate, EventDate: f.ReportDate, Form: f.Form, Accession: f.Accession,
			Items: edgar.ParseItems(f.Items), URL: edgar.FilingIndexURL(s.cfg.Company.CIK, f.Accession)}
		if len(items) > 0 && !slices.ContainsFunc(ev.Items, func(it edgar.Item) bool { return slices.Contains(items, it.Code) }) {
			continue
		}
		tl.Events = append(tl.Events, ev)
	}
	if len(tl.Events) == 0 {
		tl.Note = "no 8-K filed since " + tl.Since
	}
	if subs.Provenance.Snapshot {
		tl.Note = strings.TrimPrefix(tl.Note+"; the filing list is the offline snapshot recorded "+
			subs.Provenance.Retrieved.Format(time.DateOnly)+": later 8-Ks are not in it", "; ")
	}
	tl.Source = subs.Provenance.Label()
	return tl, subs.Provenance, nil
}

// exhibit reads an 8-K's press release (or its body when it has no EX-99)
// and returns the passages most relevant to the question.
func (t *eventsTool) exhibit(ctx context.Context, accession, question string) (string, error) {
	s := t.s
	subs, err := s.submissions(ctx)
	if err != nil {
		return "", err
	}
	f, ok := subs.Find(accession)
	if !ok {
		return "", badArgs(NameEvents, "%s is not an accession number of a filing by %s; list events first", accession, s.who())
	}
	if !edgar.IsCurrentReport(f.Form) {
		return "", badArgs(NameEvents, "filing %s is a %s, not an 8-K; use %s or %s for it", f.Accession, f.Form, NameSearch, NameSection)
	}
	cik := s.cfg.Company.CIK
	idx, err := s.cfg.Source.Document(ctx, cik, f.Accession, f.Accession+"-index.htm")
	if err != nil {
		if errors.Is(err, edgar.ErrNotAvailable) {
			return "", fmt.Errorf("the text of 8-K %s (filed %s, items %s) is not available offline: the snapshot ships filing lists, "+
				"not 8-K exhibits; the timeline's items and link are what can be cited (%s): %w", f.Accession, f.FilingDate, f.Items,
				edgar.FilingIndexURL(cik, f.Accession), err)
		}
		return "", fmt.Errorf("index of 8-K %s: %w", f.Accession, err)
	}
	entries := edgar.ParseFilingIndex(idx.Body)
	name, typ := f.PrimaryDocument, f.Form
	for _, e := range entries {
		if strings.HasPrefix(strings.ToUpper(e.Type), "EX-99") {
			name, typ = e.Name, e.Type
			break
		}
	}
	if name == "" {
		return "", fmt.Errorf("8-K %s lists no documents", f.Accession)
	}
	doc, err := s.cfg.Source.Document(ctx, cik, f.Accession, name)
	if err != nil {
		return "", fmt.Errorf("%s of 8-K %s: %w", typ, f.Accession, err)
	}
	text := edgar.HTMLText(doc.Body)
	passages := edgar.Passages(text, 700)
	var b strings.Builder
	fmt.Fprintf(&b, "%s, 8-K filed %s (items: %s), accession %s, %s %s\n", s.who(), f.FilingDate, describeItems(f.Items), f.Accession, typ, name)
	fmt.Fprintf(&b, "Source: %s, %s\n", doc.Provenance.Label(), doc.Provenance.URL)
	if len(passages) == 0 {
		b.WriteString("\nThe document has no text.")
		return b.String(), nil
	}
	keep := []int{0} // the headline paragraph
	if strings.TrimSpace(question) != "" {
		for _, h := range textsearch.New(passages).Search(question, 5) {
			if !slices.Contains(keep, h.Passage) {
				keep = append(keep, h.Passage)
			}
		}
		fmt.Fprintf(&b, "Passages most relevant to %q, in document order (extracts, not a paraphrase):\n", question)
	} else {
		for i := 1; i < len(passages) && i < 5; i++ {
			keep = append(keep, i)
		}
		b.WriteString("Opening of the document (ask a question to get the passages that answer it):\n")
	}
	slices.Sort(keep)
	used := 0
	for _, i := range keep {
		p := passages[i]
		if used+len(p) > exhibitChars {
			break
		}
		used += len(p)
		fmt.Fprintf(&b, "\n[passage %d of %d]\n%s\n", i+1, len(passages), p)
	}
	return b.String(), nil
}

func describeItems(items string) string {
	var out []string
	for _, it := range edgar.ParseItems(items) {
		out = append(out, it.Code+" "+it.Meaning)
	}
	if len(out) == 0 {
		return "none listed"
	}
	return strings.Join(out, "; ")
}
