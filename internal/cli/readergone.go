package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// watchOutput returns ctx, cancelled once standard output's reader is gone,
// and f writing its output through the watch. Ctrl+C reaches every process
// of a pipeline ('parley debate X | tee log'), whose reader is gone by the
// time the debate pauses, and a reader may leave early ('| head'): the next
// line written would kill Parley with SIGPIPE, mid-turn, before it said how
// to resume. Instead the write fails, the debate pauses as if interrupted,
// and the error, on standard error, says how to resume it.
//
// SIGPIPE is ignored for the rest of the process, which ends with the
// debate.
func watchOutput(ctx context.Context, f *Factory) (context.Context, *Factory, context.CancelFunc) {
	if _, ok := f.IO.Out.(*os.File); !ok {
		// A test's buffer: it has no reader to lose.
		return ctx, f, func() {}
	}
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancel(ctx)
	ios := *f.IO
	ios.Out = &goneWriter{w: f.IO.Out, gone: cancel}
	watched := *f
	watched.IO = &ios
	return ctx, &watched, cancel
}

// goneWriter calls gone when a write finds the reader gone.
type goneWriter struct {
	w    io.Writer
	gone func()
}

func (g *goneWriter) Write(p []byte) (int, error) {
	n, err := g.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		g.gone()
	}
	return n, err
}
