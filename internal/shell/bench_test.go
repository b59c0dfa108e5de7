package shell

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// longTranscript is a transcript of n finished turns (Markdown, rendered
// once) and a live turn streaming.
func longTranscript(b *testing.B, n int) *transcript {
	b.Helper()
	tr := newTranscript(newStyles(true, true))
	tr.resize(100)
	text := "The BULL case:\n\n" + strings.Repeat("- Revenue growth (YoY) of 65.5% in FY2026 (10-K 0001045810-26-000021), on data center demand\n", 8)
	for range n {
		tr.add(&block{gap: true, head: "Bull · opening", agent: "bull", segs: []segment{{text: text}}, markdown: true})
	}
	tr.setLive(&block{gap: true, head: "Bear · opening", agent: "bear"})
	return tr
}

// BenchmarkStreamDelta is the cost of one streamed delta on a long
// transcript: only the live turn is rendered again.
func BenchmarkStreamDelta(b *testing.B) {
	tr := longTranscript(b, 300)
	b.ReportAllocs()
	for b.Loop() {
		tr.live.write("Cash conversion of 0.86x means earnings outrun cash. ")
		if len(tr.Lines()) == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkRenderAll is what each delta would cost if every block were
// rendered again (a resize does this once).
func BenchmarkRenderAll(b *testing.B) {
	tr := longTranscript(b, 300)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tr.resize(100 + i%2)
	}
}

// BenchmarkKeyOnLongTranscript is the cost of a key typed under a long
// transcript (a finished reply of a megabyte: 13,000 lines): the
// viewport is given the lines again only when they changed, it measured
// all of them at every key and every frame of the spinner.
func BenchmarkKeyOnLongTranscript(b *testing.B) {
	a := &app.App{Store: memstore.New(), Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(string) string { return "" }, Now: clock}}
	m := New(b.Context(), Options{App: a, ParseDebate: testParse, Location: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.tr.add(&block{gap: true, head: "Bull · opening", agent: "bull", segs: []segment{{text: prose(strings.Repeat("Cash conversion of 0.86x means earnings outrun cash. ", (1<<20)/53))}}, markdown: true})
	m.refresh()
	b.ReportAllocs()
	for b.Loop() {
		m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
		_ = m.View()
	}
}
