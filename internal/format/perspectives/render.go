package perspectives

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// Result is the verdict of a perspectives debate.
type Result struct {
	Question     string        `json:"question"`
	Perspectives []Perspective `json:"perspectives"`
	Rounds       int           `json:"rounds"`
	EndReason    string        `json:"end_reason"`
	Converged    bool          `json:"converged"`
	Synthesis    *Synthesis    `json:"synthesis,omitempty"`
	Muted        []string      `json:"muted,omitempty"`
}

func (p *Protocol) result(s *debate.State, v *view) Result {
	r := Result{Question: p.topic, Perspectives: v.debaters, EndReason: v.endReason, Converged: v.converged, Synthesis: v.synthesis}
	for _, rv := range v.rounds {
		if rv.evaluation != nil {
			r.Rounds = rv.n
		}
		r.Muted = append(r.Muted, rv.muted...)
	}
	return r
}

// Format is the perspectives format for the registry.
type Format struct{}

// Name implements debate.Format.
func (Format) Name() string { return Name }

// Options are the options a perspectives debate takes (setup.Optioner).
func (Format) Options() []setup.Option {
	return []setup.Option{
		{Name: "perspectives", Kind: setup.Int, Usage: "number of debaters",
			Note: fmt.Sprintf("%d-%d, default: the moderator decides", MinPerspectives, MaxPerspectives),
			Min:  MinPerspectives, Max: MaxPerspectives, Placeholder: "the moderator decides"},
		{Name: "max-rounds", Kind: setup.Int, Usage: "cap on rounds", Note: fmt.Sprintf("1-%d", MaxMaxRounds), Default: DefaultMaxRounds,
			Min: 1, Max: MaxMaxRounds},
		{Name: "catalog", Kind: setup.String, File: true, Usage: "YAML `file` extending or overriding the perspective catalog"},
		{Name: CustomOption, Kind: setup.Custom, Default: Custom(nil),
			Usage: "perspectives added to the catalog (the config file's custom_perspectives, or the specification's debate.custom_perspectives)"},
	}
}

// CustomOption is the option of the perspectives the config file adds to
// the catalog: a Custom.
const CustomOption = "custom-perspectives"

// Custom are the perspectives the config file adds to the catalog, the
// value of CustomOption.
type Custom []Perspective

// String names them, as 'parley config' shows them.
func (c Custom) String() string {
	names := make([]string, len(c))
	for i, p := range c {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// Protocol implements debate.Format.
// Checkpoints: a perspectives debate asks a person after each round
// (setup.Checkpointer), unless told to run to the end.
func (Format) Checkpoints() bool { return true }

func (Format) Protocol(topic string, options json.RawMessage) (debate.Protocol, error) {
	o, err := debate.DecodeOptions[Options](Name, options)
	if err != nil {
		return nil, err
	}
	if len(o.Catalog) == 0 {
		c, err := BuiltinCatalog()
		if err != nil {
			return nil, err
		}
		o.Catalog = c
	}
	return NewProtocol(topic, o)
}

// Render implements debate.Format: the decision document, and with the full
// option the transcript after it.
// report.WithUsage ends it, as every format's document, with the follow-up
// questions and the per-agent token and cost table.
func (f Format) Render(s *debate.State, opt debate.RenderOptions) (string, error) {
	doc, err := f.render(s, opt)
	return report.WithUsage(s, doc, err)
}

func (f Format) render(s *debate.State, opt debate.RenderOptions) (string, error) {
	proto, err := f.Protocol(s.Topic, s.Options)
	if err != nil {
		return "", err
	}
	p := proto.(*Protocol)
	v := p.derive(s)
	var b strings.Builder
	b.WriteString(p.decision(s, v))
	if !opt.Summary {
		b.WriteString(p.transcript(s, v))
	}
	return b.String(), nil
}

// DecisionPath is where the decision document goes under dir:
// YYYY-MM-DD-<slug>-<id>.md, dated by the debate's creation. The debate's id
// in the name keeps two debates on one topic on one day from overwriting each
// other's document.
func DecisionPath(dir string, s *debate.State) string {
	return filepath.Join(dir, decisionName(s))
}

func decisionName(s *debate.State) string {
	sl := FileSlug(s.Topic, 60)
	if sl == "" {
		sl = "decision"
	}
	id := FileSlug(strings.TrimPrefix(s.ID, "DEB-"), 32)
	return s.Created.Format(time.DateOnly) + "-" + sl + "-" + id + ".md"
}

// The kinds of the documents a completed debate writes.
const (
	// DecisionDoc is the decision document: the debate's summary.
	DecisionDoc = "decision"
	// IssueDraftDoc is the issue draft made from the decision (IssueDraft),
	// written when asked for (--issue-draft).
	IssueDraftDoc = "issue-draft"
)

var _ debate.DocumentWriter = Format{}

// Documents implements debate.DocumentWriter: the decision document,
// always, and the issue draft when asked for.
func (Format) Documents() []debate.Document {
	return []debate.Document{
		{Kind: DecisionDoc, Title: "Decision document"},
		{Kind: IssueDraftDoc, Title: "Issue draft", Ask: "also write an issue draft made from the decision"},
	}
}

// DocumentName implements debate.DocumentWriter: the decision document as
// DecisionPath names it, the issue draft beside it (NAME-issue.md).
func (Format) DocumentName(kind string, s *debate.State) string {
	if kind == IssueDraftDoc {
		return strings.TrimSuffix(decisionName(s), ".md") + "-issue.md"
	}
	return decisionName(s)
}

// RenderDocument implements debate.DocumentWriter: the decision document
// is the debate's summary (Render with Summary).
func (f Format) RenderDocument(kind string, s *debate.State) (string, error) {
	switch kind {
	case DecisionDoc:
		return f.Render(s, debate.RenderOptions{Summary: true})
	case IssueDraftDoc:
		return f.IssueDraft(s)
	}
	return "", fmt.Errorf("the perspectives format writes no %q document", kind)
}

// FileSlug makes a portable file-name part of s, at most max bytes: letters
// lose their accents ("Café" → "cafe"), anything but ASCII letters and
// digits becomes one hyphen, and the cut falls between words where it can.
// A topic in a script with no ASCII letters gives "".
func FileSlug(s string, max int) string {
	plain, _, err := transform.String(transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn))), s)
	if err != nil {
		plain = s
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(plain) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	out := b.String()
	if len(out) > max {
		out = out[:max] // ASCII only: any byte is a boundary
		if i := strings.LastIndexByte(out, '-'); i > max/2 {
			out = out[:i]
		}
	}
	return strings.Trim(out, "-")
}

func (p *Protocol) decision(s *debate.State, v *view) string {
	var b strings.Builder
	res := p.result(s, v)
	fmt.Fprintf(&b, "# Decision: %s\n\n", mdsafe.Literal(oneLine(p.topic)))
	meta := []string{
		"**Date:** " + s.Created.Format(time.DateOnly),
		"**Debate ID:** " + s.ID,
		fmt.Sprintf("**Rounds:** %d", res.Rounds),
		"**Perspectives:** " + cmp.Or(strings.Join(names(v.debaters), ", "), "not chosen yet"),
	}
	if s.Status != debate.StatusCompleted {
		meta = append(meta, fmt.Sprintf("**Status:** %s (the debate has not finished; this document is partial)", s.Status))
	}
	b.WriteString(report.HardLines(meta...))
	fmt.Fprintf(&b, "\n## Question\n\n%s\n", prose(p.topic))
	if v.clarified != "" {
		fmt.Fprintf(&b, "\nClarification: %s\n", fold(v.clarified))
	}
	syn := v.synthesis
	b.WriteString("\n## Perspectives Considered\n")
	if len(v.debaters) == 0 {
		// Paused before the moderator's analysis chose them.
		b.WriteString("\nNone yet: the moderator chooses them when it analyses the question.\n")
	}
	for _, d := range v.debaters {
		fmt.Fprintf(&b, "\n### %s\n", d.Name)
		var ps *PerspectiveSummary
		if syn != nil {
			for i := range syn.Perspectives {
				if strings.EqualFold(syn.Perspectives[i].Name, d.Name) {
					ps = &syn.Perspectives[i]
				}
			}
		}
		if ps == nil {
			fmt.Fprintf(&b, "- Priorities: %s\n- Trade-offs accepted: %s\n", strings.Join(d.Priorities, ", "), d.TradeOffs)
			continue
		}
		fmt.Fprintf(&b, "- Key arguments: %s\n", joinOr(ps.KeyArguments, "none recorded"))
		fmt.Fprintf(&b, "- Trade-offs accepted: %s\n", joinOr(ps.TradeOffsAccepted, d.TradeOffs))
		if containsFold(res.Muted, d.Name) {
			b.WriteString("- Muted by the moderator for drifting off the question.\n")
		}
	}
	if syn == nil {
		b.WriteString("\n## Recommendation\n\n")
		switch {
		case s.Status == debate.StatusCompleted && len(v.rounds) == 0:
			fmt.Fprintf(&b, "The debate ended before any argument was made (%s): there is no recommendation.\n", fold(v.endReason))
		default:
			b.WriteString("The moderator has not written the synthesis yet: the debate has not finished.\n")
		}
		return b.String()
	}
	b.WriteString("\n## Points of Agreement\n\n")
	b.WriteString(bullets(syn.Agreement, "No point was agreed by all perspectives."))
	b.WriteString("\n## Key Tensions\n\n")
	b.WriteString(bullets(syn.Tensions, "No tension remained."))
	fmt.Fprintf(&b, "\n## Recommendation\n\n%s\n\n", prose(syn.Recommendation))
	b.WriteString(report.HardLines(
		"**Confidence:** "+fold(syn.Confidence),
		"**Caveats:** "+joinOr(syn.Caveats, "none stated"),
		"**Ended because:** "+fold(v.endReason), // the moderator's reason, model output
	))
	b.WriteString("\n## Dissenting View\n\n")
	if len(syn.Dissent) == 0 {
		b.WriteString("No perspective strongly disagrees with the recommendation.\n")
	}
	for _, d := range syn.Dissent {
		fmt.Fprintf(&b, "- **%s:** %s\n", strings.TrimRight(fold(d.Perspective), ".:;,"), fold(d.View))
	}
	return b.String()
}

func (p *Protocol) transcript(s *debate.State, v *view) string {
	var b strings.Builder
	b.WriteString("\n---\n\n## Transcript\n")
	for _, rv := range v.rounds {
		fmt.Fprintf(&b, "\n### Round %d\n", rv.n)
		for _, t := range rv.arguments {
			fmt.Fprintf(&b, "\n#### %s\n\n%s\n", report.TurnLabel(t.TurnRef), report.Nested(strings.TrimSpace(t.Text), 5))
		}
		for _, t := range rv.rebuttals {
			fmt.Fprintf(&b, "\n#### %s\n\n%s\n", report.TurnLabel(t.TurnRef), report.Nested(strings.TrimSpace(t.Text), 5))
		}
		if rv.evaluation != nil {
			fmt.Fprintf(&b, "\n#### Moderator\n\n%s\n", report.Nested(strings.TrimSpace(rv.evaluation.Summary), 5))
			if rv.evaluation.Reason != "" {
				fmt.Fprintf(&b, "\nDecision: %s (%s)\n", fold(rv.evaluation.Decision), fold(rv.evaluation.Reason))
			}
		}
		if cp := s.Checkpoint(checkpointID(rv.n)); cp != nil && cp.Answer != nil {
			fmt.Fprintf(&b, "\nCheckpoint: %s", cp.Answer.Action)
			if cp.Answer.Guidance != "" {
				fmt.Fprintf(&b, " (guidance: %s)", fold(cp.Answer.Guidance))
			}
			b.WriteString("\n")
		}
	}
	var notes []string
	for _, n := range s.Notes {
		if strings.HasPrefix(n.Kind, "perspectives.") {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n### Moderator notes\n\n")
		b.WriteString(bullets(notes, ""))
	}
	return b.String()
}

// IssueDraft turns a finished debate's decision into an issue a team can act
// on: the spec's "create a workflow from this decision".
func (f Format) IssueDraft(s *debate.State) (string, error) {
	proto, err := f.Protocol(s.Topic, s.Options)
	if err != nil {
		return "", err
	}
	p := proto.(*Protocol)
	v := p.derive(s)
	if v.synthesis == nil {
		return "", fmt.Errorf("debate %s has no synthesis yet: finish it first (parley debate --resume %s)", s.ID, s.ID)
	}
	syn := v.synthesis
	var b strings.Builder
	fmt.Fprintf(&b, "# Implement decision: %s\n\n", mdsafe.Literal(oneLine(p.topic)))
	fmt.Fprintf(&b, "Decided in debate %s on %s (confidence: %s).\n\n", s.ID, s.Created.Format(time.DateOnly), fold(syn.Confidence))
	fmt.Fprintf(&b, "## Decision\n\n%s\n\n", prose(syn.Recommendation))
	b.WriteString("## Acceptance criteria\n\n")
	for _, a := range syn.Agreement {
		fmt.Fprintf(&b, "- [ ] %s\n", fold(a))
	}
	if len(syn.Agreement) == 0 {
		b.WriteString("- [ ] Implement the recommendation above\n")
	}
	b.WriteString("\n## Risks to watch\n\n")
	b.WriteString(bullets(append(append([]string(nil), syn.Tensions...), syn.Caveats...), "None recorded."))
	if len(syn.Dissent) > 0 {
		b.WriteString("\n## Dissent to revisit\n\n")
		for _, d := range syn.Dissent {
			fmt.Fprintf(&b, "- %s: %s\n", fold(d.Perspective), fold(d.View))
		}
	}
	return b.String(), nil
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
		fmt.Fprintf(&b, "- %s\n", fold(it))
	}
	return b.String()
}

// fold and prose keep model text to its place in the document (see
// report.Item and report.Prose).
func fold(s string) string  { return report.Item(s) }
func prose(s string) string { return report.Prose(s) }

// joinOr joins items into one sentence ("a; b; c"), without the items' own
// end punctuation ("a.; b"), or says empty.
func joinOr(items []string, empty string) string {
	var parts []string
	for _, it := range items {
		if it = strings.TrimRight(fold(it), ".;"); it != "" {
			parts = append(parts, it)
		}
	}
	if len(parts) == 0 {
		return empty
	}
	return strings.Join(parts, "; ")
}

// oneLine folds whitespace and shortens to 120 bytes on a rune boundary.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		cut := 117
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// Describe summarises a completed moderator turn for live views, which show
// structured (JSON) turns as prose rather than raw JSON.
func (Format) Describe(t *debate.Turn) string {
	if t.Invalid != "" {
		return ""
	}
	switch {
	case t.ID == idAnalysis || t.ID == idReanalysis:
		var a Analysis
		if json.Unmarshal(t.Move, &a) != nil {
			return ""
		}
		if a.ClarifyingQuestion != "" && len(a.Perspectives) == 0 {
			return "Question for you: " + a.ClarifyingQuestion
		}
		s := fmt.Sprintf("Domain: %s\nPerspectives: %s\n%s", a.Domain, strings.Join(a.Perspectives, ", "), a.Rationale)
		if len(a.Constraints) > 0 {
			s += "\nConstraints: " + strings.Join(a.Constraints, "; ")
		}
		return s
	case strings.HasSuffix(t.ID, "/evaluation"):
		var e Evaluation
		if json.Unmarshal(t.Move, &e) != nil {
			return ""
		}
		return fmt.Sprintf("%s\nDecision: %s (%s)", e.Summary, e.Decision, e.Reason)
	case t.ID == idSynthesis:
		var s Synthesis
		if json.Unmarshal(t.Move, &s) != nil {
			return ""
		}
		return fmt.Sprintf("Recommendation (confidence %s): %s", s.Confidence, s.Recommendation)
	}
	return ""
}

// Roles lists the roles this format's turns take: the names --model-for
// accepts.
func (Format) Roles() []string { return []string{roleModerator, roleDebater} }
