package app

import "testing"

// TestFirstHeadingIsItsText: the PDF's title (its metadata and running
// header) is the text the document's first heading shows, not its
// Markdown: a topic's "<" is escaped in the document (mdsafe) and came
// out in the title as "\<", a backslash the reader never typed; inline
// code and emphasis marks came out as written.
func TestFirstHeadingIsItsText(t *testing.T) {
	for md, want := range map[string]string{
		"# Decision: Should we use Redis?\n\nBody.":                      "Decision: Should we use Redis?",
		"intro\n# Decision: \\<script>alert(1)\\</script> \"q\\\" now\n": `Decision: <script>alert(1)</script> "q" now`,
		"# Council: `snake_case` and *emphasis* a\\_b\n":                 "Council: snake_case and emphasis a_b",
		"# Debate: \"A ␛[2J ⟨U+202E⟩ B\"\n":                              `Debate: "A ␛[2J ⟨U+202E⟩ B"`,
		"## Not the first level\n\nNo heading.":                          "",
	} {
		if got := firstHeading(md); got != want {
			t.Errorf("firstHeading(%q) = %q, want %q", md, got, want)
		}
	}
}
