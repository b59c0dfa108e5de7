package shell

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/termmd"
)

// TestPaletteContrast: every text colour of the dark palette reads on
// black and of the light palette on white (a contrast ratio of at least
// 4.5:1, in 24-bit colour and with 256 colours), the status bar's text on
// the bar.
func TestPaletteContrast(t *testing.T) {
	for _, look := range []struct {
		name string
		dark bool
		page color.Color
	}{{"dark", true, color.Black}, {"light", false, color.White}} {
		s := newStyles(true, look.dark)
		text := map[string]lipgloss.Style{
			"dim": s.dim, "phase": s.phase, "warn": s.warn, "err": s.err, "note": s.note, "hint": s.hint, "prompt": s.prompt,
			"bull": s.agentStyle("bull"), "bear": s.agentStyle("bear"), "moderator": s.agentStyle("moderator"),
		}
		for i, c := range s.pal.agents {
			text[fmt.Sprintf("agents[%d]", i)] = lipgloss.NewStyle().Foreground(lipgloss.Color(c))
		}
		check := func(what string, fg, bg color.Color) {
			t.Helper()
			readable(t, look.name+" palette, "+what, fg, bg)
		}
		for what, st := range text {
			fg := st.GetForeground()
			if _, none := fg.(lipgloss.NoColor); none || fg == nil {
				t.Errorf("%s palette, %s: no colour", look.name, what)
				continue
			}
			check(what, fg, look.page)
		}
		check("status bar", s.status.GetForeground(), s.status.GetBackground())
		check("cursor", lipgloss.Color(s.pal.cursor), look.page)
	}
}

// readable fails the test if fg on bg is hard to read (termmd.Legible).
func readable(t *testing.T, what string, fg, bg color.Color) {
	t.Helper()
	if err := termmd.Legible(fg, bg); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

func withColor(theme Theme) harnessOpt {
	return func(o *Options) { o.Color, o.Theme = true, theme }
}

// fg is the SGR parameters that set hex as the text colour.
func fg(hex string) string {
	r, g, b, _ := lipgloss.Color(hex).RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// paletteHexes are every colour of the shell's palette and of the
// Markdown look that goes with it.
func paletteHexes(dark bool) []string {
	p, md := lightPalette(), termmd.Light()
	if dark {
		p, md = darkPalette(), termmd.Dark()
	}
	out := append([]string{p.dim, p.phase, p.warn, p.err, p.note, p.hint, p.bull, p.bear, p.moderator}, p.agents...)
	for _, st := range append(md.Heading[:], md.Code, md.Block, md.Link, md.URL, md.Bullet) {
		out = append(out, hex(st.GetForeground()))
	}
	return out
}

// screen is everything the shell shows, styled: the whole transcript and
// the view (status bar, input line, the lines under it).
func (h *harness) screen() string {
	return strings.Join(h.m.tr.Lines(), "\n") + "\n" + h.m.View().Content
}

// TestBackgroundColor: with the auto theme the shell asks the terminal for
// its background at start-up, shows the dark palette until the answer
// comes, and on a light answer renders everything on screen again in the
// light palette (and back on a dark one).
func TestBackgroundColor(t *testing.T) {
	h := newHarness(t, 100, nil, withColor(ThemeAuto))
	cmd := h.m.Init()
	if cmd == nil || !reflect.DeepEqual(cmd(), tea.RequestBackgroundColor()) {
		t.Fatalf("Init with the auto theme does not ask for the background colour")
	}
	h.typeLine("/debate NVDA --offline")
	h.settle()
	h.m.input.SetValue("/debate NVDA --format c")
	h.key(tea.KeyPressMsg{Code: tea.KeyTab}) // completions under the input line
	darkScreen := h.screen()

	shows := func(what string, dark bool) {
		t.Helper()
		h.showsPalette(what, dark, true)
	}
	shows("before the answer", true)

	h.update(tea.BackgroundColorMsg{Color: color.White})
	shows("a white background", false)
	if ansi.Strip(h.screen()) != ansi.Strip(darkScreen) {
		t.Errorf("the text changed with the palette:\n%s\n---\n%s", ansi.Strip(h.screen()), ansi.Strip(darkScreen))
	}
	// Markdown of finished turns is in the light look too.
	if !strings.Contains(h.screen(), fg(hex(termmd.Light().Bullet.GetForeground()))) {
		t.Error("the turns' Markdown is not in the light look")
	}
	h.update(tea.BackgroundColorMsg{Color: lipgloss.Color("#1E1E1E")})
	shows("a dark grey background", true)
	if h.screen() != darkScreen {
		t.Error("back on a dark background, the screen differs from the dark palette's")
	}
}

// TestFixedTheme: a theme given by the user is not asked about nor changed
// by what the terminal reports; without colour there is no palette at all.
func TestFixedTheme(t *testing.T) {
	for _, tc := range []struct {
		theme Theme
		color bool
		dark  bool
	}{{ThemeDark, true, true}, {ThemeLight, true, false}, {ThemeAuto, false, true}} {
		h := newHarness(t, 80, nil, func(o *Options) { o.Color, o.Theme = tc.color, tc.theme })
		if cmd := h.m.Init(); cmd != nil {
			t.Errorf("%s (colour %v): Init asks the terminal something", tc.theme, tc.color)
		}
		for _, bg := range []color.Color{color.White, color.Black} {
			h.update(tea.BackgroundColorMsg{Color: bg})
			if h.m.st.dark != tc.dark {
				t.Errorf("%s (colour %v) on %s: dark palette %v, want %v", tc.theme, tc.color, hex(bg), h.m.st.dark, tc.dark)
			}
		}
		h.typeLine("/help")
		if got := h.screen(); tc.color != strings.Contains(got, "38;2;") {
			t.Errorf("%s (colour %v): colour shown %v", tc.theme, tc.color, !tc.color)
		}
	}
}

// showsPalette fails the test unless everything on screen is in the dark
// palette or the light one: its dim text (and with a debate shown, its
// bull, bear and moderator), its status bar and cursor, and no colour of
// the other palette.
func (h *harness) showsPalette(what string, dark, debate bool) {
	h.t.Helper()
	t := h.t
	got := h.screen()
	if h.m.st.dark != dark {
		t.Errorf("%s: dark palette %v, want %v", what, h.m.st.dark, dark)
	}
	want, other := paletteHexes(dark), paletteHexes(!dark)
	shown := []string{want[0]} // dim
	if debate {
		shown = append(shown, want[6], want[7], want[8]) // bull, bear, moderator
	}
	for _, c := range shown {
		if !strings.Contains(got, fg(c)) {
			t.Errorf("%s: %s is not shown", what, c)
		}
	}
	for _, c := range other {
		if strings.Contains(got, fg(c)) {
			t.Errorf("%s: %s of the other palette is still shown", what, c)
		}
	}
	p := lightPalette()
	if dark {
		p = darkPalette()
	}
	r, g, b, _ := lipgloss.Color(p.statusBg).RGBA()
	if bg := fmt.Sprintf("48;2;%d;%d;%d", r>>8, g>>8, b>>8); !strings.Contains(h.m.View().Content, bg) {
		t.Errorf("%s: the status bar is not on %s", what, p.statusBg)
	}
	if got := h.m.input.Styles().Cursor.Color; got == nil || hex(got) != hex(lipgloss.Color(p.cursor)) {
		t.Errorf("%s: cursor colour %v, want %s", what, got, p.cursor)
	}
}

// TestColorFGBG: with the auto theme, the terminal's COLORFGBG is the
// first guess at its background, so that the first frame is in the right
// palette where the terminal never answers; the answer, when it comes,
// still wins. A fixed theme ignores COLORFGBG.
func TestColorFGBG(t *testing.T) {
	for _, tc := range []struct {
		colorfgbg string
		theme     Theme
		dark      bool
	}{
		{"0;15", ThemeAuto, false},         // black on white (rxvt, Konsole's light schemes)
		{"0;7", ThemeAuto, false},          // on light grey
		{"0;default;15", ThemeAuto, false}, // rxvt with a background pixmap
		{"15;0", ThemeAuto, true},          // white on black
		{"7;8", ThemeAuto, true},           // on dark grey
		{"15;default;0", ThemeAuto, true},
		{"", ThemeAuto, true},        // not set
		{"15", ThemeAuto, true},      // one field: no background
		{"0;white", ThemeAuto, true}, // not an index
		{"0;default", ThemeAuto, true},
		{"0;231", ThemeAuto, true}, // outside the 16 ANSI colours
		{"0;-1", ThemeAuto, true},
		{"0;15", ThemeDark, true},
		{"15;0", ThemeLight, false},
	} {
		name := fmt.Sprintf("COLORFGBG=%q, theme %s", tc.colorfgbg, tc.theme)
		h := newHarness(t, 80, nil, withColor(tc.theme), func(o *Options) { o.ColorFGBG = tc.colorfgbg })
		h.showsPalette(name+", first frame", tc.dark, false)
		if tc.theme != ThemeAuto {
			continue
		}
		// The terminal's answer overrides the guess, either way.
		answer, dark := color.Color(color.Black), true
		if tc.dark {
			answer, dark = color.White, false
		}
		h.update(tea.BackgroundColorMsg{Color: answer})
		h.showsPalette(name+", then the terminal's answer "+hex(answer), dark, false)
	}
}

// TestColorFGBGWithoutColour: without colour there is no palette to guess.
func TestColorFGBGWithoutColour(t *testing.T) {
	h := newHarness(t, 80, nil, func(o *Options) { o.Theme, o.ColorFGBG = ThemeAuto, "0;15" })
	if !h.m.st.dark || strings.Contains(h.screen(), "38;2;") {
		t.Errorf("NO_COLOR with COLORFGBG=0;15: dark %v, colour shown %v", h.m.st.dark, strings.Contains(h.screen(), "38;2;"))
	}
}

// TestDarkFromColorFGBG: every ANSI background index, read as the common
// convention reads it.
func TestDarkFromColorFGBG(t *testing.T) {
	light := map[int]bool{7: true, 9: true, 10: true, 11: true, 12: true, 13: true, 14: true, 15: true}
	for bg := 0; bg <= 15; bg++ {
		for _, v := range []string{fmt.Sprintf("0;%d", bg), fmt.Sprintf("15;default;%d", bg), fmt.Sprintf("0; %d ", bg)} {
			if dark, ok := darkFromColorFGBG(v); !ok || dark == light[bg] {
				t.Errorf("darkFromColorFGBG(%q) = %v, %v; want %v, true", v, dark, ok, !light[bg])
			}
		}
	}
	for _, v := range []string{"", ";", "0;", "7", "0;16", "0;255", "0;x", "0;7;", "0;1e1"} {
		if _, ok := darkFromColorFGBG(v); ok {
			t.Errorf("darkFromColorFGBG(%q) guesses, want no guess", v)
		}
	}
}

// TestParseTheme: the themes' names, and an error naming them for others.
func TestParseTheme(t *testing.T) {
	for in, want := range map[string]Theme{"": ThemeAuto, "auto": ThemeAuto, "Dark": ThemeDark, " light ": ThemeLight} {
		if got, err := ParseTheme(in); err != nil || got != want {
			t.Errorf("ParseTheme(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseTheme("solarized")
	if err == nil || !strings.Contains(err.Error(), "solarized") || !strings.Contains(err.Error(), "auto") ||
		!strings.Contains(err.Error(), "dark") || !strings.Contains(err.Error(), "light") {
		t.Errorf("ParseTheme(solarized): %v, want an error naming the value and the themes", err)
	}
}

func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}
