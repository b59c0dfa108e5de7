// Command parley runs structured adversarial debates between LLM agents.
package main

import (
	"context"
	"os"

	// Runs `parley af` before the rest of the binary initialises.
	_ "github.com/parleyhq/parley/cmd/parley/internal/afearly"
	"github.com/parleyhq/parley/internal/cli"
	"github.com/parleyhq/parley/internal/iostreams"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], iostreams.System()))
}
