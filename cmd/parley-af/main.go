// Command parley-af is Parley's argumentation solver alone: `parley af`
// with the ICCMA solver interface, in a binary that links nothing else, so
// that it starts in about the time of an empty Go program (see
// internal/afcmd for why that matters).
package main

import (
	"context"
	"os"

	"github.com/parleyhq/parley/internal/afcmd"
	"github.com/parleyhq/parley/internal/iostreams"
)

func main() {
	os.Exit(afcmd.Main(context.Background(), os.Args[1:], iostreams.System()))
}
