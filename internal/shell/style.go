package shell

import (
	"hash/fnv"
	"strings"

	"charm.land/lipgloss/v2"
)

// styles are the shell's looks. Without colour (NO_COLOR, TERM=dumb) they
// keep bold and faint text only, and Markdown is rendered without colour.
type styles struct {
	color     bool
	bold      lipgloss.Style
	dim       lipgloss.Style
	phase     lipgloss.Style
	notice    lipgloss.Style
	warn      lipgloss.Style
	err       lipgloss.Style
	note      lipgloss.Style
	hint      lipgloss.Style
	status    lipgloss.Style
	prompt    lipgloss.Style
	candidate lipgloss.Style
}

func newStyles(color bool) styles {
	s := styles{color: color, bold: lipgloss.NewStyle().Bold(true), dim: lipgloss.NewStyle().Faint(true)}
	s.phase = s.bold
	s.notice, s.warn, s.err, s.note, s.hint = s.dim, s.bold, s.bold, lipgloss.NewStyle(), lipgloss.NewStyle()
	s.status = lipgloss.NewStyle().Reverse(true)
	s.prompt = s.bold
	s.candidate = s.dim
	if color {
		s.phase = s.phase.Foreground(lipgloss.Color("#8AB4F8"))
		s.warn = lipgloss.NewStyle().Foreground(lipgloss.Color("#E5C07B"))
		s.err = lipgloss.NewStyle().Foreground(lipgloss.Color("#E06C75")).Bold(true)
		s.note = lipgloss.NewStyle().Foreground(lipgloss.Color("#C678DD"))
		s.hint = lipgloss.NewStyle().Foreground(lipgloss.Color("#56B6C2"))
		s.status = lipgloss.NewStyle().Foreground(lipgloss.Color("#E6E6E6")).Background(lipgloss.Color("#3A3F4B"))
		s.prompt = s.prompt.Foreground(lipgloss.Color("#56B6C2"))
	}
	return s
}

// agentColors are the colours of agents without one of their own, picked
// by a hash of the agent's name so that an agent keeps its colour.
var agentColors = []string{"#61AFEF", "#C678DD", "#D19A66", "#56B6C2", "#E5C07B", "#98C379", "#BE5046"}

// agentStyle is an agent's colour: the bull green, the bear red, the
// moderator blue, the others by name.
func (s styles) agentStyle(agent string) lipgloss.Style {
	st := lipgloss.NewStyle().Bold(true)
	if !s.color {
		return st
	}
	switch strings.ToLower(agent) {
	case "bull":
		return st.Foreground(lipgloss.Color("#98C379"))
	case "bear":
		return st.Foreground(lipgloss.Color("#E06C75"))
	case "moderator":
		return st.Foreground(lipgloss.Color("#61AFEF"))
	}
	h := fnv.New32a()
	h.Write([]byte(agent))
	return st.Foreground(lipgloss.Color(agentColors[h.Sum32()%uint32(len(agentColors))]))
}

// agentMark is the mark before an agent's heading: the spec's 🐂 and 🐻,
// and the scales for the moderator (without the emoji variation selector,
// whose width terminals disagree on).
func agentMark(agent string) string {
	switch strings.ToLower(agent) {
	case "bull":
		return "🐂 "
	case "bear":
		return "🐻 "
	case "moderator":
		return "⚖ "
	}
	return "── "
}
