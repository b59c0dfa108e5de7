package app

import (
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Truncate puts s on one line of at most n characters.
func Truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// StatusLine says where a debate stands: its status, why it paused, its phase.
func StatusLine(st *debate.State) string {
	s := string(st.Status)
	if st.Status == debate.StatusPaused && len(st.Pauses) > 0 {
		p := st.Pauses[len(st.Pauses)-1]
		s += " (" + p.Reason + ")"
	}
	if st.Phase.Label != "" {
		s += " at " + st.Phase.Label
	}
	return s
}

// HintApplies names the phase in which a hint for agent given now takes
// effect, for formats that can tell ("Phase 3 (Bull Rebuttal)"); "" when
// the format cannot, or the agent takes no more turns.
func HintApplies(format debate.Format, st *debate.State, agent string) string {
	if h, ok := format.(interface {
		HintApplies(*debate.State, string) string
	}); ok {
		return h.HintApplies(st, agent)
	}
	return ""
}
