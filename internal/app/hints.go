package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// HintTargets are the agents of a debate a hint can go to: every agent that
// has had a turn, but the moderator.
func HintTargets(st *debate.State) []string { return st.Debaters() }

// ParseHint reads a hint typed as "AGENT: TEXT" (every front-end's rule):
// AGENT is one of targets, a unique prefix of one ("perf" for
// performance-advocate), or "all". The error says how to write one.
func ParseHint(targets []string, line string) (target, text string, err error) {
	target, text, ok := strings.Cut(strings.TrimSpace(line), ":")
	return ResolveHint(targets, target, text, ok)
}

// ResolveHint checks a hint given as a target and a text.
func ResolveHint(targets []string, target, text string, hasTarget bool) (string, string, error) {
	target = strings.ToLower(strings.TrimSpace(target))
	text = strings.TrimSpace(text)
	if target == "both" {
		target = "all"
	}
	if hasTarget && target != "all" && !slices.Contains(targets, target) {
		target = uniquePrefix(targets, target)
	}
	if !hasTarget || text == "" || (target != "all" && !slices.Contains(targets, target)) {
		if len(targets) == 0 {
			return "", "", fmt.Errorf("no agent has spoken yet: give a hint as AGENT: TEXT once the debate has started, or all: TEXT")
		}
		return "", "", fmt.Errorf("to give a hint, write AGENT: TEXT (agents: %s, or all)", strings.Join(targets, ", "))
	}
	if len(text) > MaxHintLen {
		return "", "", fmt.Errorf("the hint is %d bytes; keep it under %d", len(text), MaxHintLen)
	}
	return target, text, nil
}

// MaxHintLen bounds a hint: guidance, not a document.
const MaxHintLen = 4000

// uniquePrefix returns the one name that starts with prefix, or "".
func uniquePrefix(names []string, prefix string) string {
	found := ""
	for _, n := range names {
		if prefix != "" && strings.HasPrefix(n, prefix) {
			if found != "" {
				return ""
			}
			found = n
		}
	}
	return found
}
