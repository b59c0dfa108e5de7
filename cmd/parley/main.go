// Command parley runs structured adversarial debates between LLM agents.
package main

import (
	"context"
	"log/slog"
	"os"

	// Runs `parley af` before the rest of the binary initialises.
	_ "github.com/parleyhq/parley/cmd/parley/internal/afearly"
	"github.com/parleyhq/parley/internal/cli"
	"github.com/parleyhq/parley/internal/iostreams"
)

func main() {
	ios := iostreams.System()
	// What a library logs on its own (a provider adapting its calls to a
	// server, EDGAR retrying) reads as Parley's other notes on standard
	// error (or in the live view of a debate, which takes them over while
	// it streams); serve, worker and batch log through loggers of their own.
	slog.SetDefault(iostreams.NoteLogger(ios.Notes(), slog.LevelInfo))
	os.Exit(cli.Main(context.Background(), os.Args[1:], ios))
}
