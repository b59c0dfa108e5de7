package iostreams

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestNoteLogger(t *testing.T) {
	var b bytes.Buffer
	log := NoteLogger(&b, slog.LevelInfo)
	log.Debug("not shown")
	log.Warn("the server refused stream_options", "provider", "openai", "model", "m\x1b[31m")
	log.With("db", "x").WithGroup("g").Info("reconnected", "n", 2)
	log.Error("two\nlines")
	want := "warning: the server refused stream_options (provider=openai, model=m␛[31m)\n" +
		"note: reconnected (db=x, g.n=2)\n" +
		"error: two lines\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

// TestNoteSinkRedirect: a logger made before the redirect (a provider's)
// writes where the sink points now, and back after the restore.
func TestNoteSinkRedirect(t *testing.T) {
	var errOut, view strings.Builder
	sink := NewNoteSink(&errOut)
	log := NoteLogger(sink, slog.LevelInfo)
	restore := sink.Redirect(&view)
	log.Warn("during")
	restore()
	log.Warn("after")
	if view.String() != "warning: during\n" || errOut.String() != "warning: after\n" {
		t.Errorf("view %q, standard error %q", view.String(), errOut.String())
	}
}
