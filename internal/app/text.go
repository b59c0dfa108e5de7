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
