package sectools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/sec/edgar"
)

const maxFilings = 50

// filingsTool searches the company's filing history.
type filingsTool struct{ s *Set }

func (t *filingsTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameFilings,
		Description: "List SEC filings of the company under debate, newest first, with accession number, form, " +
			"filing date, period of report and primary document. Use it to find the 10-K to read with " + NameSection + ".",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "forms": {"type": "array", "items": {"type": "string"}, "description": "Form types to keep, e.g. [\"10-K\", \"10-Q\", \"8-K\"]. Amendments (10-K/A) match only if listed. Omit for all forms."},
    "form": {"type": "string", "description": "A single form type; same as forms with one element."},
    "from": {"type": "string", "format": "date", "description": "Earliest filing date, YYYY-MM-DD."},
    "to": {"type": "string", "format": "date", "description": "Latest filing date, YYYY-MM-DD."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "Most filings to return."}
  },
  "additionalProperties": false
}`),
	}
}

type filingsArgs struct {
	Forms []string `json:"forms"`
	Form  string   `json:"form"`
	From  string   `json:"from"`
	To    string   `json:"to"`
	Limit int      `json:"limit"`
}

type filingsResult struct {
	header
	Matches int            `json:"total_matches"`
	Filings []edgar.Filing `json:"filings"`
	Note    string         `json:"note,omitempty"`
}

func (t *filingsTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a filingsArgs
	if err := decodeArgs(NameFilings, raw, &a); err != nil {
		return "", err
	}
	forms := map[string]bool{}
	for _, f := range append(a.Forms, a.Form) {
		if f = strings.ToUpper(strings.TrimSpace(f)); f != "" {
			forms[f] = true
		}
	}
	for _, d := range []string{a.From, a.To} {
		if d == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return "", badArgs(NameFilings, "date %q is not YYYY-MM-DD", d)
		}
	}
	if a.From != "" && a.To != "" && a.From > a.To {
		return "", badArgs(NameFilings, "from %s is after to %s", a.From, a.To)
	}
	switch {
	case a.Limit == 0:
		a.Limit = 10
	case a.Limit < 0 || a.Limit > maxFilings:
		return "", badArgs(NameFilings, "limit %d is out of range 1..%d", a.Limit, maxFilings)
	}

	subs, err := t.s.submissions(ctx)
	if err != nil {
		return "", err
	}
	res := filingsResult{header: t.s.header(subs.Provenance), Filings: []edgar.Filing{}}
	for _, f := range subs.Filings {
		if len(forms) > 0 && !forms[strings.ToUpper(f.Form)] {
			continue
		}
		if a.From != "" && f.FilingDate < a.From || a.To != "" && f.FilingDate > a.To {
			continue
		}
		res.Matches++
		if len(res.Filings) < a.Limit {
			res.Filings = append(res.Filings, f)
		}
	}
	if len(subs.MissingPages) > 0 {
		res.Note = "only recent filings are available from this source; older ones are missing"
	}
	return marshal(res)
}

// sectionTool reads the risk factors, MD&A or business section of an
// annual report: a 10-K's Items 1A, 7 and 1, a 20-F's Items 3.D, 5 and 4.
type sectionTool struct{ s *Set }

func (t *sectionTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameSection,
		Description: "Read a section of one of the company's annual reports (10-K, or the 20-F a foreign private issuer files) " +
			"as plain text: \"risk factors\" (10-K Item 1A, 20-F Item 3.D), \"MD&A\" (10-K Item 7, Management's Discussion " +
			"and Analysis; 20-F Item 5, Operating and Financial Review and Prospects) or \"business\" (10-K Item 1, 20-F Item 4, " +
			"Information on the Company); of a 40-F, the MD&A exhibit, or the risk factors or business of its annual information " +
			"form exhibit. The answer names the item or exhibit as the filing does. " +
			"Long sections come in parts; pass the offset given at the end of a part to read on. Get accession numbers from " +
			NameFilings + ".",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "accession": {"type": "string", "description": "Accession number of a 10-K, 20-F, 40-F or an amendment, e.g. 0001045810-26-000021."},
    "section": {"type": "string", "enum": ["risk factors", "MD&A", "business", "1A", "7", "1", "3.D", "5", "4"], "description": "risk factors (1A; 3.D of a 20-F), MD&A (7; 5 of a 20-F) or business (1; 4 of a 20-F). 3.D, 5 and 4 are read of a 20-F only."},
    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Character offset to start from, for the next part of a long section."}
  },
  "required": ["accession", "section"],
  "additionalProperties": false
}`),
	}
}

type sectionArgs struct {
	Accession string `json:"accession"`
	Section   string `json:"section"`
	Offset    int    `json:"offset"`
}

func (t *sectionTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a sectionArgs
	if err := decodeArgs(NameSection, raw, &a); err != nil {
		return "", err
	}
	if a.Accession == "" {
		return "", badArgs(NameSection, "accession is required; list filings with %s", NameFilings)
	}
	if a.Offset < 0 {
		return "", badArgs(NameSection, "offset %d is negative", a.Offset)
	}
	st, err := t.s.section(ctx, a.Accession, a.Section)
	if err != nil {
		return "", err
	}
	if a.Offset >= len(st.text) {
		return "", badArgs(NameSection, "offset %d is past the end of the section (%d characters)", a.Offset, len(st.text))
	}
	part, next := edgar.Excerpt(st.text, a.Offset, t.s.cfg.SectionChars)
	f := st.filing
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s filed %s", t.s.who(), f.Form, f.FilingDate)
	if f.ReportDate != "" {
		fmt.Fprintf(&b, " for the period ended %s", f.ReportDate)
	}
	fmt.Fprintf(&b, ", accession %s: %s\n", f.Accession, st.title)
	fmt.Fprintf(&b, "Source: %s, %s\n", st.prov.Label(), st.prov.URL)
	end := len(st.text)
	if next > 0 {
		end = next
	}
	fmt.Fprintf(&b, "Characters %d–%d of %d.", a.Offset, end, len(st.text))
	if next > 0 {
		fmt.Fprintf(&b, " More follows: call %s again with offset %d.", NameSection, next)
	}
	b.WriteString("\n\n")
	b.WriteString(part)
	return b.String(), nil
}

// section fetches and extracts a section once per filing. The section's
// name is read for the filing's form: "5" is the MD&A of a 20-F only.
func (s *Set) section(ctx context.Context, accession, name string) (sectionText, error) {
	subs, err := s.submissions(ctx)
	if err != nil {
		return sectionText{}, err
	}
	f, ok := subs.Find(accession)
	if !ok {
		return sectionText{}, badArgs(NameSection, "%s is not an accession number of a filing by %s; list them with %s",
			accession, s.who(), NameFilings)
	}
	switch edgar.AnnualKind(f.Form) {
	case "10-K", "20-F", "40-F":
	default:
		return sectionText{}, badArgs(NameSection, "filing %s is a %s; sections are read from a 10-K, a 20-F or an amendment of one",
			f.Accession, f.Form)
	}
	sec, err := edgar.ParseSectionFor(f.Form, name)
	if err != nil {
		return sectionText{}, badArgs(NameSection, "%v", err)
	}
	if f.PrimaryDocument == "" {
		return sectionText{}, fmt.Errorf("filing %s lists no primary document", f.Accession)
	}
	key := f.Accession + "/" + string(sec)
	s.mu.Lock()
	st, ok := s.sections[key]
	s.mu.Unlock()
	if ok {
		return st, nil
	}
	if edgar.AnnualKind(f.Form) == "40-F" {
		st, err = s.fortyFSection(ctx, f, sec)
		if err != nil {
			return sectionText{}, err
		}
		s.mu.Lock()
		s.sections[key] = st
		s.mu.Unlock()
		return st, nil
	}
	doc, err := s.cfg.Source.Document(ctx, s.cfg.Company.CIK, f.Accession, f.PrimaryDocument)
	if err != nil {
		return sectionText{}, fmt.Errorf("%s of %s: %w", sec.TitleFor(f.Form), f.Accession, err)
	}
	text, err := edgar.ExtractFormSection(doc.Body, f.Form, sec)
	if err != nil {
		// Amendments often carry only Part III, and some 20-Fs are an annual
		// report with a cross-reference table instead of item headings: say
		// so rather than fail obscurely.
		hint := ""
		if edgar.AnnualKind(f.Form) == "20-F" {
			hint = fmt.Sprintf(" (a 20-F laid out as an annual report with a cross-reference table has no item headings; search its text with %s)", NameSearch)
		}
		return sectionText{}, fmt.Errorf("%s filing %s (%s): %w%s", f.Form, f.Accession, f.PrimaryDocument, err, hint)
	}
	st = sectionText{filing: f, sec: sec, title: sec.TitleFor(f.Form), text: text, prov: doc.Provenance}
	s.mu.Lock()
	s.sections[key] = st
	s.mu.Unlock()
	return st, nil
}

// fortyFSection reads a section of a 40-F from its exhibits: the MD&A is an
// exhibit of its own; the risk factors and the business are sections of the
// annual information form (edgar.ExtractAIFSection).
func (s *Set) fortyFSection(ctx context.Context, f edgar.Filing, sec edgar.Section) (sectionText, error) {
	exs, err := s.fortyFExhibits(ctx, f)
	if err != nil {
		return sectionText{}, err
	}
	want := "Annual Information Form"
	if sec == edgar.MDA {
		want = "Management's Discussion and Analysis"
	}
	var names []string
	for _, ex := range exs {
		names = append(names, ex.label())
		if ex.title != want {
			continue
		}
		if sec == edgar.MDA {
			return sectionText{filing: f, sec: sec, title: ex.label() + " (" + ex.name + ")", text: ex.text, prov: ex.prov}, nil
		}
		text, err := edgar.ExtractAIFSection(ex.text, sec)
		if err != nil {
			return sectionText{}, fmt.Errorf("40-F %s, %s (%s): %w; search it with %s", f.Accession, ex.label(), ex.name, err, NameSearch)
		}
		title := "Risk Factors"
		if sec == edgar.Business {
			title = "Description of the Business"
		}
		return sectionText{filing: f, sec: sec, title: ex.label() + " (" + ex.name + "), " + title, text: text, prov: ex.prov}, nil
	}
	return sectionText{}, fmt.Errorf("40-F %s: no exhibit reads as the %s (exhibits read: %s); search them with %s or see %s",
		f.Accession, want, strings.Join(names, "; "), NameSearch, edgar.FilingIndexURL(s.cfg.Company.CIK, f.Accession))
}

// factsTool looks up reported XBRL values.
type factsTool struct{ s *Set }

func (t *factsTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameFacts,
		Description: "Look up values the company reported in its XBRL financial data (SEC company facts), " +
			"by concept name, e.g. Revenues, NetIncomeLoss, Assets, OperatingIncomeLoss. Each value comes with " +
			"its period, unit, and the form, filing date and accession number that reported it, for citation. " +
			"Per-share figures and share counts of a company that split its stock are split-adjusted (restated for later " +
			"splits, as the latest filings state them; basis and as_reported say so).",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "concepts": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 10, "description": "US-GAAP concept names, e.g. [\"Revenues\", \"NetIncomeLoss\"]."},
    "period": {"type": "string", "enum": ["annual", "quarterly", "any"], "default": "annual", "description": "Full fiscal years (10-K), quarters, or both."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 4, "description": "Most recent values per concept."}
  },
  "required": ["concepts"],
  "additionalProperties": false
}`),
	}
}

type factsArgs struct {
	Concepts []string `json:"concepts"`
	Period   string   `json:"period"`
	Limit    int      `json:"limit"`
}

func (t *factsTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a factsArgs
	if err := decodeArgs(NameFacts, raw, &a); err != nil {
		return "", err
	}
	var concepts []string
	for _, c := range a.Concepts {
		if c = strings.TrimSpace(c); c != "" {
			concepts = append(concepts, c)
		}
	}
	if len(concepts) == 0 || len(concepts) > 10 {
		return "", badArgs(NameFacts, "give 1 to 10 concept names, e.g. [\"Revenues\"]; got %d", len(concepts))
	}
	q := FactQuery{Concepts: concepts, Limit: a.Limit}
	switch a.Period {
	case "", "annual":
		q.Period = "annual"
	case "quarterly":
		q.Period = "quarterly"
	case "any":
		q.Period = ""
	default:
		return "", badArgs(NameFacts, "period %q: want annual, quarterly or any", a.Period)
	}
	switch {
	case q.Limit == 0:
		q.Limit = 4
	case q.Limit < 0 || q.Limit > 20:
		return "", badArgs(NameFacts, "limit %d is out of range 1..20", q.Limit)
	}
	cf, err := t.s.companyFacts(ctx)
	if err != nil {
		return "", err
	}
	facts, err := t.s.cfg.Facts.Facts(ctx, cf.Body, q)
	if err != nil {
		return "", fmt.Errorf("%s: %w", NameFacts, err)
	}
	if facts == nil {
		facts = []Fact{}
	}
	return marshal(struct {
		header
		Facts []Fact `json:"facts"`
	}{t.s.header(cf.Provenance), facts})
}

// ratiosTool computes financial ratios.
type ratiosTool struct{ s *Set }

func (t *ratiosTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameRatios,
		Description: "Compute financial ratios (margins, returns, liquidity, leverage, growth) from the company's " +
			"reported XBRL data for one fiscal year, with the formula and the reported inputs of each. " +
			"Ratios that cannot be computed are listed under not_available with the reason (a missing input, " +
			"a loss or negative equity that makes the ratio meaningless).",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "fiscal_year": {"type": "integer", "minimum": 1994, "description": "Fiscal year; omit for the latest with a 10-K."}
  },
  "additionalProperties": false
}`),
	}
}

type yearArgs struct {
	FiscalYear int    `json:"fiscal_year"`
	Framework  string `json:"framework"`
}

func (t *ratiosTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a struct {
		FiscalYear int `json:"fiscal_year"`
	}
	if err := decodeArgs(NameRatios, raw, &a); err != nil {
		return "", err
	}
	if err := checkYear(NameRatios, a.FiscalYear); err != nil {
		return "", err
	}
	cf, err := t.s.companyFacts(ctx)
	if err != nil {
		return "", err
	}
	ratios, err := t.s.cfg.Ratios.Ratios(ctx, cf.Body, a.FiscalYear)
	if err != nil {
		return "", fmt.Errorf("%s: %w", NameRatios, err)
	}
	computed := []Ratio{}
	var unavailable []Unavailable
	for _, r := range ratios {
		if r.NotAvailable != "" {
			unavailable = append(unavailable, Unavailable{Name: r.Name, Reason: r.NotAvailable})
			continue
		}
		computed = append(computed, r)
	}
	return marshal(struct {
		header
		Ratios       []Ratio       `json:"ratios"`
		NotAvailable []Unavailable `json:"not_available,omitempty"`
	}{t.s.header(cf.Provenance), computed, unavailable})
}

func checkYear(name string, fy int) error {
	if fy != 0 && (fy < 1994 || fy > 2100) {
		return badArgs(name, "fiscal_year %d is not a plausible fiscal year", fy)
	}
	return nil
}

// frameworkTool scores Piotroski or Altman.
type frameworkTool struct{ s *Set }

func (t *frameworkTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameFramework,
		Description: "Score the company on a fundamental-analysis framework from its reported XBRL data: " +
			"\"piotroski\" (F-score, nine pass/fail tests of profitability, leverage and efficiency, 0–9) or " +
			"\"altman\" (Z-score of bankruptcy risk, with its zone). Returns each criterion with the reported inputs.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "framework": {"type": "string", "enum": ["piotroski", "altman"]},
    "fiscal_year": {"type": "integer", "minimum": 1994, "description": "Fiscal year; omit for the latest with a 10-K."}
  },
  "required": ["framework"],
  "additionalProperties": false
}`),
	}
}

func (t *frameworkTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a yearArgs
	if err := decodeArgs(NameFramework, raw, &a); err != nil {
		return "", err
	}
	fw := Framework(strings.ToLower(strings.TrimSpace(a.Framework)))
	if fw != Piotroski && fw != Altman {
		return "", badArgs(NameFramework, "framework %q: want \"piotroski\" or \"altman\"", a.Framework)
	}
	if err := checkYear(NameFramework, a.FiscalYear); err != nil {
		return "", err
	}
	cf, err := t.s.companyFacts(ctx)
	if err != nil {
		return "", err
	}
	res, err := t.s.cfg.Frameworks.Score(ctx, cf.Body, fw, a.FiscalYear)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", NameFramework, fw, err)
	}
	if res == nil {
		return "", fmt.Errorf("%s %s: the scorer returned no result", NameFramework, fw)
	}
	return marshal(struct {
		header
		*FrameworkResult
	}{t.s.header(cf.Provenance), res})
}
