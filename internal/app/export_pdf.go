package app

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/render/pdf"
)

// ExportPDF lays out the debate's Markdown rendering as a PDF
// (PDFDocument, then RenderPDF).
func ExportPDF(st *debate.State, format debate.Format, summary bool) ([]byte, error) {
	d, err := PDFDocument(st, format, summary)
	if err != nil {
		return nil, err
	}
	return RenderPDF(st.ID, d)
}

// PDFDocument is what ExportPDF lays out. The title is the document's own
// "# " heading (the format names it), the metadata line says which debate
// it is and how complete the document is. It costs a fraction of laying it
// out, so a server can key a cache of PDFs by it.
func PDFDocument(st *debate.State, format debate.Format, summary bool) (pdf.Document, error) {
	doc, err := RenderDoc(format, st, summary)
	if err != nil {
		return pdf.Document{}, err
	}
	title := firstHeading(doc)
	if title == "" {
		title = fmt.Sprintf("%s: %s", st.ID, Truncate(st.Topic, 80))
	}
	scope := "full transcript"
	if summary {
		scope = "summary"
	}
	status := string(st.Status)
	if st.Status != debate.StatusCompleted {
		status = StatusLine(st)
	}
	meta := []string{
		fmt.Sprintf("Debate %s · %s · %s · %s", st.ID, st.Format, status, scope),
		fmt.Sprintf("Created %s · last event %s", st.Created.UTC().Format("2006-01-02 15:04 UTC"), st.Updated.UTC().Format("2006-01-02 15:04 UTC")),
	}
	created := st.Updated
	if created.IsZero() {
		created = time.Now()
	}
	return pdf.Document{Title: title, Meta: meta, Markdown: doc, Created: created}, nil
}

// RenderPDF lays out d, the PDF of debate id.
func RenderPDF(id string, d pdf.Document) ([]byte, error) {
	var buf bytes.Buffer
	if err := pdf.RenderDocument(&buf, d); err != nil {
		return nil, fmt.Errorf("export debate %s as PDF: %w", id, err)
	}
	return buf.Bytes(), nil
}

// firstHeading is the text of the document's first "# " heading.
func firstHeading(md string) string {
	for line := range strings.Lines(md) {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(h)
		}
	}
	return ""
}
