// Package afearly runs `parley af` before the rest of the parley binary
// initialises, so that the solver starts about as fast as cmd/parley-af.
//
// Go initialises every package linked into a binary before main runs: for
// parley that is the language-model SDKs, goldmark, the stores, the server
// and the shell, about 5 ms and a thousand page faults on every command,
// which decides the run time of a framework solved in a few milliseconds
// (issue 13, docs/benchmarks.md). The Go specification fixes the order:
// packages sorted by import path, each initialised as soon as all of its
// imports are. This package imports only internal/afrun (the solver and the
// standard library), so its init runs before every heavy package that is
// not among those imports; cmd/parley imports it for that init alone. Keep
// its imports, and afrun's, that way: TestAFStartsBeforeTheRest checks it.
//
// The init takes over only a command line the full command line would read
// the same way (afrun.Early says which); anything else goes on to main,
// which answers it exactly as before.
package afearly

import (
	"context"
	"os"

	"github.com/parleyhq/parley/internal/afrun"
	"github.com/parleyhq/parley/internal/iostreams"
)

func init() {
	if code, ok := afrun.Early(context.Background(), os.Args[1:], iostreams.System()); ok {
		os.Exit(code)
	}
}
