package shell

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// Theme chooses the shell's palette: "auto" follows the terminal's
// background (asked for at start-up, dark until it answers), "dark" and
// "light" fix it.
type Theme string

// The themes.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// ParseTheme reads a theme's name; "" is auto.
func ParseTheme(s string) (Theme, error) {
	switch t := Theme(strings.ToLower(strings.TrimSpace(s))); t {
	case "":
		return ThemeAuto, nil
	case ThemeAuto, ThemeDark, ThemeLight:
		return t, nil
	}
	return "", fmt.Errorf("theme %q: give auto (follow the terminal's background), dark or light", s)
}

// darkFromColorFGBG reads the background of COLORFGBG ("fg;bg", or
// "fg;default;bg" from rxvt: the last field is the background), an ANSI
// colour index: 0-6 (black and the dark hues) and 8 (dark grey) are dark,
// 7 (light grey) and 9-15 (the bright hues, white) light, as termenv and
// lipgloss have read it. ok is false when the value says nothing about
// the background: empty, one field, "default", not a number or an index
// outside the 16 ANSI colours (whose look the terminal does not tell).
func darkFromColorFGBG(v string) (dark, ok bool) {
	i := strings.LastIndexByte(v, ';')
	if i < 0 {
		return false, false
	}
	bg, err := strconv.Atoi(strings.TrimSpace(v[i+1:]))
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg <= 6 || bg == 8, true
}

// palette is the colours of one theme. Each colour is text, so each keeps
// a contrast ratio of at least 4.5:1 (WCAG AA) with the background it is
// meant for (black for the dark palette, white for the light one), the
// status bar's text with the bar; and keeps it, and its hue, when a
// 256-colour terminal (macOS Terminal) shows the nearest of its colours.
type palette struct {
	dim, phase, warn, err, note, hint string
	statusFg, statusBg                string
	cursor                            string
	bull, bear, moderator             string
	// agents are the colours of agents without one of their own, picked
	// by a hash of the agent's name so that an agent keeps its colour.
	agents []string
}

// darkPalette is for a dark background, in the colours of Atom's One Dark.
func darkPalette() palette {
	return palette{
		dim: "#7F848E", phase: "#8AB4F8", warn: "#E5C07B", err: "#E06C6C", note: "#C678DD", hint: "#56B6C2",
		statusFg: "#E6E6E6", statusBg: "#3A3F4B", cursor: "7",
		bull: "#98C379", bear: "#E06C6C", moderator: "#61AFEF",
		agents: []string{"#61AFEF", "#C678DD", "#D19A66", "#56B6C2", "#E5C07B", "#98C379", "#D7705E"},
	}
}

// lightPalette is for a light background: the same hues, dark enough to
// read on white (GitHub's light colours).
func lightPalette() palette {
	return palette{
		dim: "#57606A", phase: "#0550AE", warn: "#9A6700", err: "#CF222E", note: "#6F42C1", hint: "#006D77",
		statusFg: "#1F2328", statusBg: "#D0D7DE", cursor: "#24292F",
		bull: "#116329", bear: "#CF222E", moderator: "#0969DA",
		agents: []string{"#0969DA", "#6F42C1", "#BC4C00", "#006D77", "#9A6700", "#116329", "#A40E26"},
	}
}

// styles are the shell's looks. Without colour (NO_COLOR, TERM=dumb) they
// keep bold and faint text only, and Markdown is rendered without colour.
type styles struct {
	color  bool
	dark   bool // the dark palette (with colour)
	pal    palette
	bold   lipgloss.Style
	dim    lipgloss.Style
	phase  lipgloss.Style
	warn   lipgloss.Style
	err    lipgloss.Style
	note   lipgloss.Style
	hint   lipgloss.Style
	status lipgloss.Style
	prompt lipgloss.Style
}

// newStyles are the looks with colour or without, in the dark palette or
// the light one.
func newStyles(color, dark bool) styles {
	s := styles{color: color, dark: dark, bold: lipgloss.NewStyle().Bold(true), dim: lipgloss.NewStyle().Faint(true)}
	s.phase = s.bold
	s.warn, s.err, s.note, s.hint = s.bold, s.bold, lipgloss.NewStyle(), lipgloss.NewStyle()
	s.status = lipgloss.NewStyle().Reverse(true)
	s.prompt = s.bold
	if color {
		p := lightPalette()
		if dark {
			p = darkPalette()
		}
		s.pal = p
		c := lipgloss.Color
		// Faint text is the terminal's text colour dimmed, too pale to
		// read on some backgrounds; with colour, a grey of known contrast.
		s.dim = lipgloss.NewStyle().Foreground(c(p.dim))
		s.phase = s.phase.Foreground(c(p.phase))
		s.warn = lipgloss.NewStyle().Foreground(c(p.warn))
		s.err = lipgloss.NewStyle().Foreground(c(p.err)).Bold(true)
		s.note = lipgloss.NewStyle().Foreground(c(p.note))
		s.hint = lipgloss.NewStyle().Foreground(c(p.hint))
		s.status = lipgloss.NewStyle().Foreground(c(p.statusFg)).Background(c(p.statusBg))
		s.prompt = s.prompt.Foreground(c(p.hint))
	}
	return s
}

// agentStyle is an agent's colour: the bull green, the bear red, the
// moderator blue, the others by name.
func (s styles) agentStyle(agent string) lipgloss.Style {
	st := lipgloss.NewStyle().Bold(true)
	if !s.color {
		return st
	}
	switch strings.ToLower(agent) {
	case "bull":
		return st.Foreground(lipgloss.Color(s.pal.bull))
	case "bear":
		return st.Foreground(lipgloss.Color(s.pal.bear))
	case "moderator":
		return st.Foreground(lipgloss.Color(s.pal.moderator))
	}
	h := fnv.New32a()
	h.Write([]byte(agent))
	return st.Foreground(lipgloss.Color(s.pal.agents[h.Sum32()%uint32(len(s.pal.agents))]))
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
