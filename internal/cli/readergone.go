package cli

import (
	"context"
	"errors"
	"fmt"
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
// Output that cannot be written for another reason (a full disk) ends ctx
// too, its cause an *OutputLostError: the debate pauses rather than run on,
// paid for, with nothing shown.
//
// SIGPIPE is ignored for the rest of the process, which ends with the
// debate.
func watchOutput(ctx context.Context, f *Factory) (context.Context, *Factory, context.CancelFunc) {
	if _, ok := f.IO.Out.(*os.File); !ok {
		// A test's buffer: it has no reader to lose.
		return ctx, f, func() {}
	}
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancelCause(ctx)
	ios := *f.IO
	ios.Out = &goneWriter{w: f.IO.Out, gone: cancel}
	watched := *f
	watched.IO = &ios
	return ctx, &watched, func() { cancel(nil) }
}

// OutputLostError is why a debate stopped: its standard output could not
// be written.
type OutputLostError struct{ Err error }

func (e *OutputLostError) Error() string {
	return fmt.Sprintf("standard output could not be written (%v)", e.Err)
}

func (e *OutputLostError) Unwrap() error { return e.Err }

// goneWriter calls gone when a write fails: with no cause when the reader
// is gone (a pipeline's Ctrl+C, '| head'), else with the failure.
type goneWriter struct {
	w    io.Writer
	gone context.CancelCauseFunc
}

func (g *goneWriter) Write(p []byte) (int, error) {
	n, err := g.w.Write(p)
	switch {
	case err == nil:
	case errors.Is(err, syscall.EPIPE):
		g.gone(nil)
	default:
		g.gone(&OutputLostError{Err: err})
	}
	return n, err
}
