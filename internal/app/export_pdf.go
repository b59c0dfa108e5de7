package app

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

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

// firstHeading is the text the document's first "# " heading shows: its
// Markdown read (escapes, code spans, emphasis), for the PDF's title,
// which is plain text; a topic's "<", escaped in the document, showed
// there as "\<".
func firstHeading(md string) string {
	for line := range strings.Lines(md) {
		if !strings.HasPrefix(line, "# ") {
			continue
		}
		src := []byte(line)
		var b strings.Builder
		_ = ast.Walk(goldmark.New().Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.Text:
				v := n.Segment.Value(src)
				if _, code := n.Parent().(*ast.CodeSpan); !code {
					// As goldmark's HTML renderer writes a text: its
					// backslash escapes and entities read.
					v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
				}
				b.Write(v)
			case *ast.String:
				b.Write(n.Value)
			}
			return ast.WalkContinue, nil
		})
		return strings.TrimSpace(b.String())
	}
	return ""
}
