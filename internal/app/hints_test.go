package app

import (
	"errors"
	"strings"
	"testing"
)

// TestHintErrorWordings: ResolveHint's error carries what is wrong; a typed
// line is told AGENT: TEXT, a front-end with fields is told of a target and
// a text, and never of AGENT: TEXT.
func TestHintErrorWordings(t *testing.T) {
	targets := []string{"bull", "bear"}
	for _, tc := range []struct {
		name          string
		targets       []string
		target, text  string
		hasTarget     bool
		typed, fields string
	}{
		// A typed line names the agent it could not find, not only how to
		// write a hint, which it had.
		{"unknown target", targets, "Nobody", "x", true, `no agent "Nobody" in this debate: write AGENT: TEXT with one of bull, bear, or all`, `no agent "Nobody" in this debate: the target is one of bull, bear, or all`},
		{"ambiguous target", targets, "B", "x", true, `"B" could be bull or bear: write more of the agent's name (AGENT: TEXT)`, `target "B" could be bull or bear: give more of the agent's name`},
		{"long unknown target", targets, strings.Repeat("é", 30), "x", true, "write AGENT: TEXT", `no agent "` + strings.Repeat("é", 20) + `…"`},
		{"no target", targets, "", "x", false, "write AGENT: TEXT", "a hint needs a target ("},
		{"empty text", targets, "bull", " ", true, "write AGENT: TEXT", "a non-empty text"},
		{"text of no word", targets, "bull", " ... ", true, "write AGENT: TEXT", "a non-empty text"},
		{"nobody has spoken", nil, "bull", "x", true, "as AGENT: TEXT once the debate has started", `target "all"`},
		// The text is what is wrong: the target "all" was told to use "all".
		{"empty text before anyone spoke", nil, "all", " ", true, "the hint is empty", "a hint needs a non-empty text"},
		{"too long", targets, "bull", strings.Repeat("x", MaxHintLen+1), true, "keep it under", "keep it under"},
	} {
		_, _, err := ResolveHint(tc.targets, tc.target, tc.text, tc.hasTarget)
		var he *HintError
		if !errors.As(err, &he) {
			t.Fatalf("%s: %v, want a *HintError", tc.name, err)
		}
		if !strings.Contains(he.Error(), tc.typed) {
			t.Errorf("%s: typed wording %q lacks %q", tc.name, he.Error(), tc.typed)
		}
		if f := he.ForFields(); !strings.Contains(f, tc.fields) || strings.Contains(f, "AGENT: TEXT") {
			t.Errorf("%s: fields wording %q; want %q and no AGENT: TEXT", tc.name, f, tc.fields)
		}
	}
	if target, text, err := ResolveHint(targets, "Be", " mind the debt ", true); err != nil || target != "bear" || text != "mind the debt" {
		t.Errorf("a unique prefix: %q %q %v", target, text, err)
	}
}

// TestHintTargetAsShown: an agent is named in a hint as the transcript shows
// it ("Performance Advocate" for performance-advocate), as 'parley ask
// --agent' takes it; the shown name was refused as no agent of the debate.
func TestHintTargetAsShown(t *testing.T) {
	targets := []string{"future-flexibility", "operational-simplicity", "performance-advocate"}
	for _, line := range []string{"Performance Advocate: think about cost", "performance advocate: think about cost",
		"Performance_Advocate: think about cost", "Performance Adv: think about cost", "perf: think about cost"} {
		target, text, err := ParseHint(targets, line)
		if err != nil || target != "performance-advocate" || text != "think about cost" {
			t.Errorf("%q: %q %q %v, want performance-advocate", line, target, text, err)
		}
	}
	var he *HintError
	if _, _, err := ParseHint(targets, "Operational Flexibility: x"); !errors.As(err, &he) || he.Unknown != "Operational Flexibility" {
		t.Errorf("a name no agent has: %v, want it named as unknown", err)
	}
}
