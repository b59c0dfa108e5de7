package shell

import (
	"strings"
	"testing"
)

// TestModelUnknownProvider: '/model foo/bar' names the provider it does
// not know as the shell's command's, not as a --provider flag nobody
// typed in the shell.
func TestModelUnknownProvider(t *testing.T) {
	h := newHarness(t, 120, map[string]string{})
	h.typeLine("/model gemini/pro-2")
	tr := h.flat()
	if !strings.Contains(tr, `/model gemini/pro-2: provider "gemini": unknown provider; choose one of anthropic, ollama, openai`) || strings.Contains(tr, "--provider") {
		t.Errorf("an unknown provider in /model:\n%s", h.transcript())
	}
}
