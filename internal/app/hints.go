package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// HintTargets are the agents of a debate a hint can go to, moderators
// aside: every agent that has had a turn and every one its format knows
// before it speaks (debate.Caster: the bull and the bear, council's
// analysts, crux's personas once cast, perspectives' debaters once
// assigned), so that a hint typed before an agent's first turn is queued.
func (a *App) HintTargets(st *debate.State) []string {
	f, err := a.Formats.Get(st.Format)
	if err != nil {
		f = nil
	}
	return debate.HintTargets(f, st)
}

// ParseHint reads a hint typed as "AGENT: TEXT" (every front-end's rule):
// AGENT is one of targets as MatchAgent reads it (as the transcript shows
// it, "Performance Advocate", or a unique prefix, "perf", for
// performance-advocate), or "all". The error says how to write one.
func ParseHint(targets []string, line string) (target, text string, err error) {
	target, text, ok := strings.Cut(strings.TrimSpace(line), ":")
	return ResolveHint(targets, target, text, ok)
}

// ResolveHint checks a hint given as a target and a text. Its error is a
// *HintError.
func ResolveHint(targets []string, target, text string, hasTarget bool) (string, string, error) {
	given := strings.TrimSpace(target)
	target = strings.ToLower(given)
	text = strings.TrimSpace(text)
	if target == "both" {
		target = "all"
	}
	if hasTarget && target != "all" && !slices.Contains(targets, target) {
		// Read as 'parley ask --agent' reads an agent: the name the
		// transcript shows was refused, naming the very agent typed.
		target = MatchAgent(targets, target)
	}
	// A text of no word ("...", "?") is none: it was queued, and spent a
	// turn's attention on nothing.
	if !setup.HasWords(text) {
		text = ""
	}
	if !hasTarget || text == "" || (target != "all" && !slices.Contains(targets, target)) {
		e := &HintError{Targets: targets, Empty: hasTarget && text == ""}
		if hasTarget && text != "" && given != "" && target != "all" && len(targets) > 0 {
			e.Unknown = given
			if len(e.Unknown) > 40 {
				e.Unknown = strings.ToValidUTF8(e.Unknown[:40], "") + "…"
			}
			for _, t := range targets {
				if key := agentKey(given); key != "" && strings.HasPrefix(agentKey(t), key) {
					e.Matches = append(e.Matches, t)
				}
			}
		}
		return "", "", e
	}
	if len(text) > MaxHintLen {
		return "", "", &HintError{Targets: targets, Len: len(text)}
	}
	return target, text, nil
}

// HintError is a hint that cannot be given: its target or text is missing
// or unknown (Len 0), or its text is Len bytes, over MaxHintLen. It
// carries what is wrong; Error words the fix for a typed line (AGENT:
// TEXT), ForFields for a front-end that takes the target and the text as
// fields (the HTTP API, a form).
type HintError struct {
	Targets []string // the agents a hint can go to, but "all"
	Len     int
	// Unknown is a target given with a text that names none of Targets
	// (as given, cut to 40 bytes).
	Unknown string
	// Matches are the Targets an Unknown target begins, when it begins
	// more than one ("b": bear, bull).
	Matches []string
	// Empty: a target was given, with no text. Said first: before anyone
	// spoke, target "all" with no text was told to use target "all".
	Empty bool
}

func (e *HintError) Error() string {
	switch {
	case e.Len > 0:
		return e.tooLong()
	case e.Empty && len(e.Targets) == 0:
		return "the hint is empty: write all: TEXT (no agent has spoken yet)"
	case len(e.Targets) == 0:
		return "no agent has spoken yet: give a hint as AGENT: TEXT once the debate has started, or all: TEXT"
	case len(e.Matches) > 1:
		// Said as what is wrong with the hint typed: it was told how
		// to write a hint, which it had.
		return fmt.Sprintf("%q could be %s: write more of the agent's name (AGENT: TEXT)", e.Unknown, strings.Join(e.Matches, " or "))
	case e.Unknown != "":
		return fmt.Sprintf("no agent %q in this debate: write AGENT: TEXT with one of %s, or all", e.Unknown, strings.Join(e.Targets, ", "))
	}
	return fmt.Sprintf("to give a hint, write AGENT: TEXT (agents: %s, or all)", strings.Join(e.Targets, ", "))
}

// ForFields is the error worded for a target field and a text field.
func (e *HintError) ForFields() string {
	switch {
	case e.Len > 0:
		return e.tooLong()
	case e.Empty:
		return "a hint needs a non-empty text: what the agent should weigh in its next turn"
	case len(e.Targets) == 0:
		return `no agent has spoken yet: give the hint with target "all", or once the debate has started`
	case len(e.Matches) > 1:
		return fmt.Sprintf("target %q could be %s: give more of the agent's name", e.Unknown, strings.Join(e.Matches, " or "))
	case e.Unknown != "":
		return fmt.Sprintf("no agent %q in this debate: the target is one of %s, or all", e.Unknown, strings.Join(e.Targets, ", "))
	}
	return fmt.Sprintf("a hint needs a target (%s, or all) and a non-empty text", strings.Join(e.Targets, ", "))
}

func (e *HintError) tooLong() string {
	return fmt.Sprintf("the hint is %d bytes; keep it under %d", e.Len, MaxHintLen)
}

// MaxHintLen bounds a hint: guidance, not a document.
const MaxHintLen = 4000
