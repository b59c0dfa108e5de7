package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pdfToText reads a PDF's text back with poppler's pdftotext, or skips the
// test when poppler-utils is not installed.
func pdfToText(t *testing.T, path string) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not found: install poppler-utils to check the exported PDF's text")
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	return regexp.MustCompile(`[ \t]+`).ReplaceAllString(string(out), " ")
}

// TestExportPDF exports an offline bull vs. bear debate as a PDF, in full and
// as a summary, to a file and to a pipe.
func TestExportPDF(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := parley(t, dir, env, "", "debate", "NVDA", "--offline", "--no-checkpoints")
	if r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)

	full := filepath.Join(dir, "debate.pdf")
	if r := parley(t, dir, env, "", "export", id, "--as", "pdf", "-o", full); r.code != 0 || !strings.Contains(r.stderr, "Wrote "+full) {
		t.Fatalf("export --as pdf: exit %d\n%s", r.code, r.stderr)
	}
	summary := filepath.Join(dir, "summary.pdf")
	if r := parley(t, dir, env, "", "export", id, "--as", "pdf", "--summary", "-o", summary); r.code != 0 {
		t.Fatalf("export --as pdf --summary: exit %d\n%s", r.code, r.stderr)
	}
	// A file that exists is kept unless --force says to replace it.
	before, _ := os.ReadFile(full)
	if r := parley(t, dir, env, "", "export", id, "--as", "pdf", "--summary", "-o", full); r.code != 2 || !strings.Contains(r.stderr, full+" exists: give --force to replace it") {
		t.Errorf("export over an existing file: exit %d, want 2 naming --force\n%s", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(full); !bytes.Equal(before, after) {
		t.Errorf("the refused export changed %s", full)
	}
	if r := parley(t, dir, env, "", "export", id, "--as", "pdf", "--summary", "-o", summary, "--force"); r.code != 0 {
		t.Errorf("export --force over an existing file: exit %d\n%s", r.code, r.stderr)
	}
	// Standard output is a pipe here, so the PDF may go there.
	piped := parley(t, dir, env, "", "export", id, "--as", "pdf")
	if piped.code != 0 || !strings.HasPrefix(piped.stdout, "%PDF-") {
		t.Fatalf("export --as pdf to a pipe: exit %d, %d bytes\n%s", piped.code, len(piped.stdout), piped.stderr)
	}
	for _, p := range []string{full, summary} {
		b, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(b), "%PDF-") {
			t.Fatalf("%s is not a PDF (%v)", p, err)
		}
	}

	text := pdfToText(t, full)
	for _, want := range []string{
		"NVDA Bull vs. Bear Debate", "Debate " + id + " · bullbear · completed · full transcript",
		"BULL CASE", "BEAR CASE", "KEY FIGURES (per the 10-K)", "Revenue: $215,938M in FY2026",
		"Conviction: 7/10 STRONG BULL", "Bull thesis breaks if:", "No LLM was used.",
		"Transcript", "Phase 3: Rebuttals", "Page 1 of",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("full PDF lacks %q:\n%s", want, text)
		}
	}
	stext := pdfToText(t, summary)
	if !strings.Contains(stext, "Conviction: 7/10 STRONG BULL") || strings.Contains(stext, "Phase 3: Rebuttals") {
		t.Errorf("summary PDF:\n%s", stext)
	}
	if strings.Count(text, "\f") <= strings.Count(stext, "\f") {
		t.Errorf("the full PDF has no more pages than the summary")
	}
}

func TestExportPDFRefusals(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := parley(t, dir, env, "", "export", "DEB-none", "--as", "docx")
	if r.code != 2 || !strings.Contains(r.stderr, "choose md, json or pdf") {
		t.Errorf("--as docx: exit %d\n%s", r.code, r.stderr)
	}
	// A file named for another format is refused before anything is
	// read, not filled with Markdown; --as says what to write into it.
	docx := filepath.Join(dir, "report.docx")
	r = parley(t, dir, env, "", "export", "DEB-none", "-o", docx)
	if _, err := os.Stat(docx); r.code != 2 || !strings.Contains(r.stderr, "Parley exports md, json or pdf, not docx") || err == nil {
		t.Errorf("-o report.docx: exit %d (file made: %v)\n%s", r.code, err == nil, r.stderr)
	}
}

// TestExportPDFPerspectives exports a perspectives debate (run against the
// fake LLM server) as a PDF: the decision document's sections read back.
func TestExportPDFPerspectives(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	if r := parley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	out := filepath.Join(dir, "decision.pdf")
	if r := parley(t, dir, env, "", "export", id, "--as", "pdf", "-o", out); r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.stderr)
	}
	text := pdfToText(t, out)
	for _, want := range []string{
		"Decision: Should we use Redis or PostgreSQL for caching?", "Debate " + id + " · perspectives · completed",
		"Question", "Perspectives Considered", "Recommendation", "Confidence: Medium", "Transcript", "Page 1 of",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF lacks %q:\n%s", want, text)
		}
	}
}
